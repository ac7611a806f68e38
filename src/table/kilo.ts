// Kilo Code's row of the table (src/adapters.ts); src/descriptor/ says what each field means.

import type { AdapterDescriptor } from "../descriptor/row.js";
import { OPENCODE_LOCAL_MCP_ENTRY } from "./shared.js";

export const kilo = {
  name: "kilo",
  product: "Kilo Code",
  family: null,
  offers:
    "Kilo Code's coding agent (an OpenCode fork); it reads, edits, and runs code in a project, on many model providers",
  // 7.8.1 names a platform package the registry lacks (its postinstall fails): 7.7.7 is the newest
  // that installs.
  packages: ["@kilocode/cli"],
  verified: { kind: "lab", version: "7.7.7" },
  command: "kilo",
  args: ["run"],
  // As OpenCode's `run`, whose fork it is.
  prompt: { kind: "positional", endOfOptions: true },
  modelArgs: ["-m", "{model}"],
  effortArgs: ["--variant", "{effort}"],
  effortLevels: ["minimal", "low", "medium", "high", "max"],
  modelHint: "provider/model as Kilo Code names it, such as anthropic/claude-sonnet-4-5.",
  modelsMayHaveSlash: true,
  homeEnvironment: [],
  // Names found in its binary (7.7.7), as OpenCode's.
  fixedEnvironment: [
    ["KILO_DISABLE_AUTOUPDATE", "1"],
    ["KILO_DISABLE_SHARE", "1"],
    ["KILO_TELEMETRY_LEVEL", "off"],
  ],
  removedEnvironment: ["KILO_*", "KILOCODE_*"],
  credentialWords: ["KILO", "KILOCODE"],
  fullPermissionArgs: ["--auto"],
  review: { readOnlyArgs: [], schema: { kind: "prompt" } },
  modeReport: { kind: "none" },
  ownConfig: { file: ".config/kilo/kilo.json", signsIn: true },
  // As OpenCode's: KILO_CONFIG_CONTENT is merged over its config files; `{env:…}` reads the key.
  endpoint: {
    kind: "supported",
    api: "openai-chat",
    url: {
      kind: "config-env",
      variable: "KILO_CONFIG_CONTENT",
      provider: "endpoint",
      // The AI SDK package it builds an OpenAI-compatible provider from (bundled in it, as OpenCode's).
      npm: "@ai-sdk/openai-compatible",
    },
    key: "SCV_ENDPOINT_API_KEY",
    args: [],
    acp: false,
    verified: { kind: "lab", version: "7.7.7" },
  },
  searchDirs: [".npm-global/bin"],
  login: { kind: "command", args: ["auth", "login"], needs: "terminal" },
  status: { kind: "unchecked" },
  logout: { kind: "command", args: ["auth", "logout"], needs: "terminal" },
  output: { kind: "opencode-json", args: ["--format", "json"] },
  // Lab (7.7.7): every line names `sessionID`; `-s <id>` continues it.
  resume: {
    kind: "supported",
    options: ["-s", "{session}"],
    idPattern: /^ses_[0-9A-Za-z]{8,64}$/,
  },
  // A SQLite database (.local/share/kilo/kilo.db).
  conversationFiles: null,
  credentialFiles: [".local/share/kilo/auth.json"],
  retries: { kind: "none", note: "none known (OpenCode's retries: attempts with a fixed backoff)" },
  transport: "process",
  acp: {
    command: "kilo",
    args: ["acp"],
    full: { kind: "none" },
    fullEnvironment: [],
    // Contract suite (7.7.7, test/real/new-clis.test.ts): a turn and -c over ACP, the mock in its kilo.json.
    verified: { kind: "lab", version: "7.7.7" },
  },
  cliTurns: true,
  mcpPassing: {
    kind: "unsupported",
    reason: "not verified; over ACP (--transport acp) session/new takes them",
  },
  // Its binary (7.7.7): `kilo mcp add <name> -- <command>` writes the first of these global files that
  // exists (else kilo.jsonc), as OpenCode's entry; it has no `mcp remove`, so scv edits the file as it
  // does. A tool call's limit is the server's `timeout`, else the MCP SDK's 60 s.
  mcpHost: {
    kind: "json-file",
    dir: { variable: "XDG_CONFIG_HOME", fallback: ".config", sub: "kilo" },
    files: ["kilo.jsonc", "kilo.json", "opencode.jsonc", "opencode.json"],
    path: ["mcp", "{name}"],
    entry: OPENCODE_LOCAL_MCP_ENTRY,
    envKey: "environment",
    timeout: {
      kind: "in-add",
      why: "Kilo Code cuts an MCP call at 60 s unless the server's timeout says otherwise",
    },
    // test/real/mcp-install.test.ts.
    verified: { kind: "lab", version: "7.7.7" },
  },
  takeover: { kind: "unsupported" },
} as const satisfies AdapterDescriptor;
