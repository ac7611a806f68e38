// Cline's row of the table (src/adapters.ts); src/descriptor/ says what each field means.

import type { AdapterDescriptor } from "../descriptor/row.js";

export const cline = {
  name: "cline",
  product: "Cline",
  // The user picks a provider and its model.
  family: null,
  offers:
    "Cline's coding agent (the most installed on npm); it reads, edits, and runs code in a project, on many model providers",
  packages: ["cline"],
  // Its postinstall points the `cline` bin at the native binary in its platform's package: the
  // version is read there, not by running `cline --version` (1.5 s of CPU).
  binPackages: [
    "@cline/cli-linux-x64",
    "@cline/cli-linux-arm64",
    "@cline/cli-darwin-arm64",
    "@cline/cli-darwin-x64",
    "@cline/cli-windows-x64",
    "@cline/cli-windows-arm64",
  ],
  verified: { kind: "lab", version: "3.0.65" },
  command: "cline",
  args: [],
  // Lab (3.0.65): `--` keeps a prompt beginning with `-` or `@` a prompt, verbatim. Piped stdin is
  // refused with `--json` ("requires a prompt argument or piped stdin", piped or not).
  prompt: { kind: "positional", endOfOptions: true },
  modelArgs: ["-m", "{model}"],
  effortArgs: ["--thinking", "{effort}"],
  effortLevels: ["none", "low", "medium", "high", "xhigh"],
  modelHint: "a model of its configured provider, such as anthropic/claude-sonnet-4.5.",
  modelsMayHaveSlash: true,
  homeEnvironment: [],
  // Lab: without the local backend a turn leaves a detached hub daemon
  // (`cline --cline-hub-daemon … --port 25463`) running after it; its auto-update check goes too.
  fixedEnvironment: [
    ["CLINE_SESSION_BACKEND_MODE", "local"],
    ["CLINE_NO_AUTO_UPDATE", "1"],
  ],
  // CLINE_API_KEY and CLINE_PROVIDER choose its sign-in; CLINE_DIR, CLINE_DATA_DIR and the
  // CLINE_*_PATH variables move its state out of the agent home.
  removedEnvironment: ["CLINE_*"],
  credentialWords: ["CLINE"],
  // Its default is act mode with every tool approved (`--auto-approve`, default true).
  fullPermissionArgs: ["--auto-approve", "true"],
  // Its help (3.0.65): `-p, --plan` runs in plan mode, which plans changes without making them.
  review: { readOnlyArgs: ["--plan"], schema: { kind: "prompt" } },
  modeReport: { kind: "none" },
  // `cline auth` writes the provider, its model, base URL and key here.
  ownConfig: { file: ".cline/data/settings/providers.json", signsIn: true },
  // Lab (3.0.65): CLINE_PROVIDER_SETTINGS_PATH names its providers file, which it rewrites (it must
  // be writable); its OpenAI-compatible provider reads the key from OPENAI_API_KEY when the file
  // holds none. Its ACP server reads its key only from CLINE_API_KEY.
  endpoint: {
    kind: "supported",
    api: "openai-chat",
    url: {
      kind: "settings-file",
      format: "provider-settings",
      provider: "openai-compatible",
      args: [],
      variable: "CLINE_PROVIDER_SETTINGS_PATH",
    },
    key: "OPENAI_API_KEY",
    args: [],
    acp: false,
    verified: { kind: "lab", version: "3.0.65" },
  },
  searchDirs: [".npm-global/bin"],
  // `cline auth` asks at the terminal which provider, its key and model (`-p -k -m -b` would put
  // the key on the command line).
  login: { kind: "command", args: ["auth"], needs: "terminal" },
  status: { kind: "unchecked" },
  // Its help (3.0.65) has no sign-out: a provider's key is replaced by `cline auth`.
  logout: {
    kind: "interactive",
    args: ["auth"],
    hint: "choose another provider, or remove the key from .cline/data/settings/providers.json",
  },
  output: { kind: "cline-json", args: ["--json"] },
  // Lab (3.0.65): `--id <id>` opens its interactive UI ("interactive mode requires a TTY", and with
  // --json "requires a prompt argument"), and the stream names no session id.
  resume: {
    kind: "unsupported",
    reason: "its headless mode cannot continue a session (`--id` opens its interactive UI)",
  },
  // `.cline/data/sessions/<id>/` plus a SQLite index, named by an id its stream does not give.
  conversationFiles: null,
  credentialFiles: [".cline/data/settings/providers.json"],
  retries: {
    kind: "none",
    note: "none (`--retries` counts the model's consecutive mistakes): a 429 ended the turn after 6 attempts in about 6 s",
  },
  transport: "process",
  acp: {
    command: "cline",
    args: ["--acp"],
    // Its ACP sessions start in act mode, where each tool call still asks (session/request_permission,
    // answered by scv's policy): none of its modes turns approval off. Named as "full", act had every
    // session under policy default refused (contract suite).
    full: { kind: "none" },
    fullEnvironment: [],
    // Contract suite (3.0.65, test/real/new-clis.test.ts: a turn and -c over ACP): with CLINE_PROVIDER
    // and CLINE_API_KEY in its environment ([agents.cline.env]); the base URL comes from its providers
    // file.
    verified: { kind: "lab", version: "3.0.65" },
    known:
      "3.0.65's ACP server signs in only with its own account (Cline, ClinePass, ChatGPT) or with CLINE_PROVIDER and CLINE_API_KEY set ([agents.cline.env]), and then runs that provider's default model (gpt-4o for an OpenAI-compatible one), whatever `-m` says; it loads its sessions (`-c` of an ACP conversation works); it does not exit when its stdin closes (scv ends it)",
  },
  cliTurns: true,
  mcpPassing: {
    kind: "unsupported",
    reason: "CLINE_MCP_SETTINGS_PATH names its MCP settings file; passing servers that way is not verified",
  },
  // Its help (3.0.65): `cline mcp add <name> --yes -- <command>` and `mcp remove` run without questions
  // (12–14 s each here), but add takes no variables, and its settings file nests the command under
  // `transport`.
  mcpHost: {
    kind: "unsupported",
    reason:
      "its mcp add takes no environment (scv's SCV_HOME and SCV_CONFIG) and its settings file nests the server under transport; registering it there is not built",
  },
  takeover: { kind: "unsupported" },
} as const satisfies AdapterDescriptor;
