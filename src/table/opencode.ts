// OpenCode's row of the table (src/adapters.ts); src/descriptor/ says what each field means.

import type { AdapterDescriptor } from "../descriptor/row.js";
import { OPENCODE_LOCAL_MCP_ENTRY } from "./shared.js";

export const opencode = {
  name: "opencode",
  product: "OpenCode",
  // The models are the user's choice among makers'.
  family: null,
  offers:
    "an open-source coding agent that runs on many model providers; it reads, edits, and runs code in a project",
  packages: ["opencode-ai"],
  verified: { kind: "lab", version: "1.18.33" },
  command: "opencode",
  args: ["run"],
  // `run` with no message reads piped stdin as the message, verbatim.
  prompt: { kind: "positional", endOfOptions: true, onStdin: { args: [], alters: "nothing" } },
  modelArgs: ["-m", "{model}"],
  // Today's `--variant` is its provider-specific reasoning effort.
  effortArgs: ["--variant", "{effort}"],
  effortLevels: ["minimal", "low", "medium", "high", "max"],
  modelHint: "provider/model as OpenCode names it, such as anthropic/claude-sonnet-4-5.",
  modelsMayHaveSlash: true,
  homeEnvironment: [],
  fixedEnvironment: [
    ["OPENCODE_DISABLE_AUTOUPDATE", "1"],
    ["OPENCODE_DISABLE_SHARE", "1"],
  ],
  removedEnvironment: ["OPENCODE_*"],
  credentialWords: ["OPENCODE"],
  // Today's `run --auto` approves what is not explicitly denied (the seed had no switch).
  fullPermissionArgs: ["--auto"],
  // Its --help (1.18.33) has `--agent`; its built-in `plan` agent "Disallows all edit tools" (its code).
  review: { readOnlyArgs: ["--agent", "plan"], schema: { kind: "prompt" } },
  modeReport: { kind: "none" },
  ownConfig: { file: ".config/opencode/opencode.json", signsIn: true },
  // Lab (1.18.33): OPENCODE_CONFIG_CONTENT is merged over its config files; `{env:…}` reads the key.
  endpoint: {
    kind: "supported",
    api: "openai-chat",
    url: {
      kind: "config-env",
      variable: "OPENCODE_CONFIG_CONTENT",
      provider: "endpoint",
      // The AI SDK package it builds an OpenAI-compatible provider from (bundled in it).
      npm: "@ai-sdk/openai-compatible",
    },
    key: "SCV_ENDPOINT_API_KEY",
    args: [],
    acp: false,
    verified: { kind: "lab", version: "1.18.33" },
  },
  searchDirs: [".opencode/bin", ".npm-global/bin"],
  // Lab: both ask at the terminal (which provider, then its key); the lab's recipe writes a
  // provider and its key into its config instead.
  login: { kind: "command", args: ["auth", "login"], needs: "terminal" },
  status: { kind: "unchecked" },
  logout: { kind: "command", args: ["auth", "logout"], needs: "terminal" },
  // Today's CLI has `run --format json` (the seed read text). Its ERROR log lines on stderr are
  // the only word of a model request that cannot connect: it retries those silently.
  output: { kind: "opencode-json", args: ["--format", "json", "--print-logs", "--log-level", "ERROR"] },
  // Today's CLI reports `sessionID` on every line and continues with `-s <id>`.
  resume: {
    kind: "supported",
    options: ["-s", "{session}"],
    idPattern: /^ses_[0-9A-Za-z]{8,64}$/,
  },
  conversationFiles: null,
  credentialFiles: [".local/share/opencode/auth.json"],
  retries: { kind: "none", note: "none: 9 attempts with a fixed backoff, about 11 s" },
  transport: "process",
  acp: {
    command: "opencode",
    args: ["acp"],
    // Lab: it asks only where its own config says `ask`; its ACP server has no switch for that.
    full: { kind: "none" },
    fullEnvironment: [],
    verified: { kind: "lab", version: "1.18.33" },
  },
  cliTurns: true,
  // Contract suite: OPENCODE_CONFIG names a config file merged over its others; its `mcp` servers
  // were offered to the mock.
  mcpPassing: {
    kind: "settings-env",
    variable: "OPENCODE_CONFIG",
    format: "mcp-local-remote",
    verified: { kind: "lab", version: "1.18.33" },
  },
  // Its help: the TUI is the default command, `-s, --session <id>` the session to continue.
  // `opencode mcp add` only asks its questions on a terminal: scv edits its config file as it does.
  mcpHost: {
    kind: "json-file",
    dir: { variable: "XDG_CONFIG_HOME", fallback: ".config", sub: "opencode" },
    files: ["opencode.jsonc", "opencode.json", "config.json"],
    path: ["mcp", "{name}"],
    entry: OPENCODE_LOCAL_MCP_ENTRY,
    envKey: "environment",
    timeout: {
      kind: "in-add",
      why: "OpenCode cuts an MCP call at 60 s unless the server's timeout says otherwise",
    },
    // test/real/mcp-install.test.ts.
    verified: { kind: "lab", version: "1.18.33" },
  },
  takeover: {
    kind: "supported",
    args: ["-s", "{session}"],
    fullArgs: [],
    verified: { kind: "lab", version: "1.18.33" },
  },
} as const satisfies AdapterDescriptor;
