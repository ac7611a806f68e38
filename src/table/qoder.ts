// Qoder CLI's row of the table (src/adapters.ts); src/descriptor/ says what each field means.

import type { AdapterDescriptor } from "../descriptor/row.js";

export const qoder = {
  name: "qoder",
  product: "Qoder CLI",
  family: null,
  offers: "Alibaba's Qoder coding agent; it reads, edits, and runs code in a project",
  packages: ["@qoder-ai/qodercli"],
  verified: {
    kind: "offline",
    version: "1.1.52",
    reason:
      "it needs a Qoder sign-in even for a provider of the user's own (its account must allow one), which no mock gives",
  },
  // `qoder` is its dispatcher; `qodercli` the CLI.
  command: "qodercli",
  args: ["-p"],
  // Its help: "use -p or -- to separate from query".
  prompt: { kind: "positional", endOfOptions: true },
  modelArgs: ["-m", "{model}"],
  effortArgs: ["--reasoning-effort", "{effort}"],
  effortLevels: ["low", "medium", "high"],
  modelHint: "a model Qoder offers (qodercli --list-models), or <provider>/<model> of its own providers.",
  modelsMayHaveSlash: true,
  homeEnvironment: [],
  fixedEnvironment: [],
  // QODER_PAT and QODER_AUTH_MANAGED_TOKEN are its sign-in; QODER_CONFIG_DIR moves its config.
  removedEnvironment: ["QODER_*"],
  credentialWords: ["QODER"],
  fullPermissionArgs: ["--dangerously-skip-permissions"],
  review: { readOnlyArgs: [], schema: { kind: "prompt" } },
  // Lab (1.1.52, signed out): its `system/init` reports `permissionMode` as Claude Code's does,
  // `bypassPermissions` under --dangerously-skip-permissions, else `default`.
  modeReport: {
    kind: "stream",
    label: "permission mode",
    full: "bypassPermissions",
    settings: ".qoder/settings.json",
  },
  ownConfig: { file: ".qoder/settings.json", signsIn: false },
  endpoint: {
    kind: "unsupported",
    reason:
      "its own providers (settings.json `providers`) still need a Qoder sign-in whose account allows them",
  },
  searchDirs: [".npm-global/bin"],
  // Lab: it prints a sign-in URL and waits for the browser.
  login: { kind: "command", args: ["login"], needs: "browser" },
  // `status -o json` says `"logged_in": false` but exits 0 either way.
  status: { kind: "unchecked" },
  logout: { kind: "interactive", args: [], hint: "run /logout, then /exit" },
  // Claude Code's stream-json shapes (`protocol_version` 1.4.0).
  output: { kind: "claude-stream-json", args: ["-o", "stream-json"] },
  // Its help (1.1.52): `--session-id <id>` starts a session under a given id, `-r <id>` resumes
  // one (not verified: no turn completes here).
  resume: {
    kind: "supported",
    start: ["--session-id", "{session}"],
    options: ["-r", "{session}"],
    idPattern: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  },
  conversationFiles: null,
  credentialFiles: [".qoder/.auth/.credential-transaction"],
  retries: {
    kind: "none",
    note: "its --max-model-request-retries bounds its model request retries (not verified)",
  },
  transport: "process",
  acp: {
    command: "qodercli",
    // Hidden from its help.
    args: ["--acp"],
    full: { kind: "none" },
    fullEnvironment: [],
    verified: { kind: "unverified", reason: 'signed out, session/new refuses ("Authentication required")' },
  },
  cliTurns: true,
  mcpPassing: { kind: "unsupported", reason: "its --mcp-config is not verified (no turn completes here)" },
  mcpHost: { kind: "unsupported", reason: "no way to register an MCP server with it was verified" },
  takeover: { kind: "unsupported" },
} as const satisfies AdapterDescriptor;
