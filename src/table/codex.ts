// Codex's row of the table (src/adapters.ts); src/descriptor/ says what each field means.

import type { AdapterDescriptor } from "../descriptor/row.js";
import type { KeyStore } from "../descriptor/sign-in.js";
import { HOST_TOOL_TIMEOUT_SECONDS, UUID } from "./shared.js";

// `codex login --with-api-key` reads the key on stdin and writes auth.json itself (lab: 0600,
// `{"auth_mode":"apikey","OPENAI_API_KEY":…}`); its ChatGPT sign-in is `tokens` with a refresh token.
// `cli_auth_credentials_store = "keyring" | "auto"` in its config.toml moves the sign-in out of it.
const CODEX_STORE = {
  kind: "auth-json",
  file: "auth.json",
  loginArgs: ["login", "--with-api-key"],
  key: ["OPENAI_API_KEY"],
  tokens: { path: ["tokens"], fields: ["refresh_token", "access_token"], is: "ChatGPT sign-in" },
  keyring: { file: "config.toml", key: "cli_auth_credentials_store", values: ["keyring", "auto"] },
} as const satisfies KeyStore;

// Only an API-key auth.json is copied: a ChatGPT sign-in's refresh token may live in one home only.
const CODEX_IMPORT = [
  { from: ".codex/auth.json", to: "auth.json", accept: { kind: "api-key-only", store: CODEX_STORE } },
] as const;

export const codex = {
  name: "codex",
  product: "Codex",
  family: "gpt",
  offers:
    "OpenAI's coding agent; it reads, edits, and runs code in a project, with live web search under full permissions",
  packages: ["@openai/codex"],
  verified: { kind: "lab", version: "0.171.0" },
  command: "codex",
  args: ["exec"],
  // Today's CLI refuses a folder outside a git repository without it (exec and exec resume).
  headlessArgs: ["--skip-git-repo-check"],
  // `codex exec -- -` reads its prompt from stdin, verbatim ("No prompt provided via stdin." on
  // /dev/null), and so does `exec resume <id> -`.
  prompt: { kind: "positional", endOfOptions: true, onStdin: { args: ["-"], alters: "nothing" } },
  modelArgs: ["-m", "{model}"],
  effortArgs: ["-c", 'model_reasoning_effort="{effort}"'],
  effortLevels: ["minimal", "low", "medium", "high", "xhigh"],
  modelHint: "OpenAI model id from the Codex configuration, such as gpt-5.5.",
  homeEnvironment: [["CODEX_HOME", ""]],
  fixedEnvironment: [],
  removedEnvironment: ["OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID", "CODEX_*"],
  credentialWords: ["CODEX"],
  // `codex exec` has no `--search`; `web_search = "live"` is its config form.
  fullPermissionArgs: ["--dangerously-bypass-approvals-and-sandbox", "-c", 'web_search="live"'],
  // Its --help (0.171.0): `exec resume` has no `--sandbox`, but both take `-c` overrides of the
  // config's `sandbox_mode`; both take `--output-schema <FILE>`, whose reply is the JSON itself.
  review: {
    readOnlyArgs: ["-c", 'sandbox_mode="read-only"'],
    schema: { kind: "file", args: ["--output-schema", "{file}"] },
  },
  // It reports no mode in its stream; the `turn_context` lines of its rollout file have
  // `approval_policy` and `sandbox_policy`, and only the sandbox tells the policies apart: the approval
  // policy is "never" under both (lab, 0.171.0). The line comes ~100 ms after the start, when a first
  // tool may already run: `sandbox_mode` in its config.toml is read before it starts.
  modeReport: {
    kind: "session-log",
    label: "sandbox policy",
    dir: "sessions",
    full: "danger-full-access",
    settings: "config.toml",
    settingKey: "sandbox_mode",
  },
  // CODEX_HOME is the agent home itself.
  ownConfig: { file: "config.toml", signsIn: false },
  // The lab's recipe as `-c` overrides: a provider of its own whose `env_key` names the variable,
  // so neither auth.json nor config.toml is touched (lab: the key reached no file of its home).
  endpoint: {
    kind: "supported",
    api: "openai-responses",
    url: { kind: "config-args", flag: "-c", provider: "scv-endpoint", wireApi: "responses" },
    key: "SCV_ENDPOINT_API_KEY",
    // Its shell snapshot writes the environment, key included, to a temporary file of its home
    // before masking it; a turn ended meanwhile left the key there (contract suite, 0.171.0).
    args: ["-c", "features.shell_snapshot=false"],
    acp: false,
    verified: { kind: "lab", version: "0.171.0" },
  },
  searchDirs: [".npm-global/bin"],
  // Lab: it waits for the browser's redirect to localhost:1455; `--device-auth` shows a code instead.
  login: {
    kind: "command",
    args: ["login"],
    needs: "browser",
    deviceCode: ["--device-auth"],
    apiKey: CODEX_STORE,
    import: CODEX_IMPORT,
  },
  // Its text says "Not logged in", or which sign-in: "API key configured", "Logged in using ChatGPT".
  status: {
    kind: "command",
    args: ["login", "status"],
    summary: {
      kind: "words",
      signedOut: ["not logged in"],
      says: [
        { word: "api key", means: "API key" },
        { word: "chatgpt", means: "ChatGPT account" },
      ],
    },
  },
  // Signed out, `codex exec` retries the network for minutes; its auth.json tells at once.
  preflight: CODEX_STORE,
  logout: { kind: "command", args: ["logout"], needs: "nothing" },
  output: { kind: "codex-jsonl", args: ["--json"], lastMessageArgs: ["-o", "{file}"] },
  // The thread id arrives in `thread.started`; `exec resume` takes it positionally.
  resume: {
    kind: "supported",
    subcommand: ["resume"],
    options: [],
    positional: ["{session}"],
    idPattern: UUID,
    // Contract suite (0.171.0): `exec resume` of a thread that is gone.
    lost: /no rollout found for thread id/,
  },
  conversationFiles: { dir: "sessions", extension: "jsonl" },
  credentialFiles: ["auth.json"],
  retries: {
    kind: "config",
    file: "config.toml",
    setting: "model_providers.<id>.request_max_retries and stream_max_retries",
    note: "per provider table (defaults 4 and 5); CODEX_HOME is the agent home itself",
  },
  transport: "process",
  acp: {
    command: "codex-acp",
    args: [],
    package: "@agentclientprotocol/codex-acp",
    // Its startAcpServer(): spawns this path with `app-server`, else its own @openai/codex (^0.166.0).
    // The row removes CODEX_*: scv sets it back after the stripping.
    cliPathVariable: "CODEX_PATH",
    full: { kind: "mode", mode: "agent-full-access" },
    fullEnvironment: [["CODEX_CONFIG", '{"web_search":"live"}']],
    // Contract suite (test/real/acp.test.ts; the adapter is pinned beside the CLIs), driving Codex
    // 0.171.0 (CODEX_PATH; its own dependency is @openai/codex ^0.166.0).
    verified: { kind: "lab", version: "2.6.0" },
  },
  cliTurns: true,
  // Contract suite: `-c mcp_servers.<name>.…` made a real turn call the server's tool (for a model
  // it has no metadata for; for others it defers MCP tools behind its tool_search, lab/mcp).
  mcpPassing: {
    kind: "config-args",
    flag: "-c",
    table: "mcp_servers",
    verified: { kind: "lab", version: "0.171.0" },
  },
  // Checked against the pinned CLI; `codex mcp add` cannot set the tool-call limit.
  mcpHost: {
    kind: "command",
    add: ["mcp", "add", "{name}", "{env}", "--", "{command}", "{args}"],
    envFlag: "--env",
    remove: ["mcp", "remove", "{name}"],
    absent: /No MCP server named/i,
    timeout: {
      kind: "toml-key",
      dir: { variable: "CODEX_HOME", fallback: ".codex" },
      file: "config.toml",
      table: ["mcp_servers", "{name}"],
      key: "tool_timeout_sec",
      value: HOST_TOOL_TIMEOUT_SECONDS,
    },
    // test/real/mcp-install.test.ts, mcp-host.test.ts.
    verified: { kind: "lab", version: "0.171.0" },
  },
  takeover: {
    kind: "supported",
    args: ["resume", "{session}"],
    fullArgs: ["--dangerously-bypass-approvals-and-sandbox", "-c", 'web_search="live"'],
    verified: { kind: "lab", version: "0.171.0" },
  },
} as const satisfies AdapterDescriptor;
