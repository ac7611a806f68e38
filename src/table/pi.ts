// pi's row of the table (src/adapters.ts); src/descriptor/ says what each field means.

import type { AdapterDescriptor } from "../descriptor/row.js";
import type { KeyStore } from "../descriptor/sign-in.js";
import { HOST_TOOL_TIMEOUT_SECONDS } from "./shared.js";

// Its agent directory (PI_CODING_AGENT_DIR): auth.json holds its own sign-ins (`/login`: an entry per
// provider; created as `{}` on first run), models.json custom providers with an `apiKey` (the lab's
// OpenAI-compatible endpoint).
const PI_STORE = {
  kind: "provider-keys",
  auth: ".pi/agent/auth.json",
  models: ".pi/agent/models.json",
} as const satisfies KeyStore;

export const pi = {
  name: "pi",
  product: "pi",
  // The models are the user's choice among makers'.
  family: null,
  offers:
    "a minimal coding agent (read, write, edit, bash) that runs on many model providers; it has no web search",
  packages: ["@earendil-works/pi-coding-agent"],
  // Its engines (1.6.0): node >= 22.19.0; on Node 20 npm installs 0.74.2, which pi-acp cannot drive.
  nodeFloor: "22.19.0",
  verified: { kind: "lab", version: "1.6.0" },
  command: "pi",
  args: ["-p"],
  // Checked with the real CLI: an argument beginning with `@` is a file to attach and one
  // beginning with `-` an option, even after `--`. Piped stdin is read as the prompt, trimmed
  // (`data.trim()`), with the first message argument appended to it unchanged.
  prompt: { kind: "stdin", trims: true },
  modelArgs: ["--model", "{model}"],
  effortArgs: ["--thinking", "{effort}"],
  effortLevels: ["off", "minimal", "low", "medium", "high", "xhigh"],
  modelHint: "pi model pattern or provider/id, such as openai/gpt-5.5.",
  modelsMayHaveSlash: true,
  homeEnvironment: [["PI_CODING_AGENT_DIR", ".pi/agent"]],
  fixedEnvironment: [
    ["PI_SKIP_VERSION_CHECK", "1"],
    ["PI_TELEMETRY", "0"],
  ],
  removedEnvironment: ["PI_*"],
  credentialWords: ["PI"],
  // pi has no approval prompts or sandbox.
  fullPermissionArgs: [],
  // Its --help (0.73.1, 1.6.0): "Read-only mode (no file modifications possible)" is this tool list.
  review: { readOnlyArgs: ["--tools", "read,grep,find,ls"], schema: { kind: "prompt" } },
  modeReport: { kind: "none" },
  // Checked in its code (getSettingsPath); custom providers and their keys go in models.json beside it.
  ownConfig: { file: ".pi/agent/settings.json", signsIn: false },
  // Its models.json is the user's; an extension (`-e`, pi.registerProvider) adds the provider for
  // one turn, reading its API key from the variable it names.
  endpoint: {
    kind: "supported",
    api: "openai-chat",
    url: {
      kind: "extension-file",
      args: ["-e", "{file}"],
      provider: "endpoint",
      // Its name of the Chat Completions API.
      api: "openai-completions",
    },
    key: "SCV_ENDPOINT_API_KEY",
    args: [],
    acp: false,
    verified: { kind: "lab", version: "1.6.0" },
  },
  searchDirs: [".npm-global/bin"],
  login: { kind: "interactive", args: [], hint: "run /login and choose a provider, then /quit" },
  status: { kind: "stored", store: PI_STORE },
  logout: { kind: "stored", store: PI_STORE },
  output: { kind: "pi-json", args: ["--mode", "json"] },
  // Today's CLI has no `--session-id` (seed): it reports its id on its first `session` line and
  // resumes with `--session <id>`, matched in the session folder of the same cwd.
  resume: {
    kind: "supported",
    options: ["--session", "{session}"],
    idPattern: /^[0-9a-zA-Z][0-9a-zA-Z_-]{7,127}$/,
  },
  conversationFiles: { dir: ".pi/agent/sessions", extension: "jsonl" },
  credentialFiles: [".pi/agent/auth.json", ".pi/agent/models.json"],
  retries: {
    kind: "config",
    file: ".pi/agent/settings.json",
    setting: "retry.maxRetries (and retry.provider.maxRetries for the provider SDK's own)",
    note: "default 3 agent-level retries, 2 s then 4 s apart",
  },
  transport: "process",
  acp: {
    command: "pi-acp",
    args: [],
    package: "pi-acp",
    // It runs `pi --mode rpc` (pi 0.81+: older pi leaves session/new unanswered), this variable's
    // command instead of PATH's pi. The row removes PI_*: scv sets it back after the stripping.
    cliPathVariable: "PI_ACP_PI_COMMAND",
    // pi asks for no approvals.
    full: { kind: "none" },
    fullEnvironment: [],
    homeSettings: {
      file: ".pi/agent/settings.json",
      values: [
        {
          path: ["quietStartup"],
          value: true,
          why: "without it the adapter sends a startup summary (pi's version, context files, skills) as message text of the session",
        },
      ],
    },
    // Captured (test/fixtures/acp/pi-acp/retry-recovered): pi's retries and compactions come as
    // message text, each a chunk of its own, the end of a retry after the reply's text. Its words
    // (pi-acp 0.0.34's formatAutoRetryMessage and the compaction notices).
    textNotices: {
      info: /^(?:Retrying(?: \(attempt (?<attempt>\d+)\/(?<maxAttempts>\d+), waiting (?<delaySeconds>\d+)s\))?\.\.\.|Retry finished, resuming\.|Context nearing limit, running automatic compaction\.\.\.|Automatic compaction finished; context was summarized to continue the session\.)$/,
    },
    // Captured (test/fixtures/acp/pi-acp/): a 401 or 429 from the model is answered end_turn with
    // no text and no error (it ignores pi's failed message_end).
    emptyTurnFails:
      "its ACP server ended the turn with nothing said (pi-acp passes on no model error, such as a 401 or a 429) — rerun with --transport process to see pi's error",
    known: "pi-acp 0.0.34 passes on no model error: a failed model call is a turn with nothing said (exit 1)",
    // Contract suite (test/real/acp.test.ts; the adapter is pinned beside the CLIs), driving pi 1.6.0
    // on Node 22.
    verified: { kind: "lab", version: "0.0.34" },
  },
  cliTurns: true,
  // Its docs/mcp.md (1.6.0): servers come from mcp.json in its agent directory and a trusted project's
  // .pi/mcp.json — no flag or variable names another file. An extension (`-e`) can register servers
  // for one run (pi.registerMcpServer), but a server of the same name in those files wins over it.
  mcpPassing: {
    kind: "unsupported",
    reason:
      "pi reads MCP servers only from mcp.json in its agent home, which concurrent turns share (an extension could register a turn's own with -e; not built)",
  },
  // Checked against the pinned CLI (1.6.0, its docs/mcp.md and `pi mcp --help`): `mcp add` writes the
  // entry to mcp.json in its agent directory, replacing one of the same name; `remove` exits 1 when
  // there is none. Its default exposure (codemode) declares no MCP tool to the model, only its
  // codemode script tool; `direct` declares each of scv's tools as a tool of its own.
  mcpHost: {
    kind: "command",
    add: ["mcp", "add", "{name}", "--exposure", "direct", "{env}", "--", "{command}", "{args}"],
    envFlag: "--env",
    remove: ["mcp", "remove", "{name}"],
    absent: /No global MCP server named/,
    // Its runtime.js: DEFAULT_TIMEOUT_SECONDS = 60 a request (progress restarts it); `mcp add` has no
    // flag for the entry's `timeout`.
    timeout: {
      kind: "json-key",
      dir: { variable: "PI_CODING_AGENT_DIR", fallback: ".pi/agent" },
      file: "mcp.json",
      path: ["mcpServers", "{name}", "timeout"],
      value: HOST_TOOL_TIMEOUT_SECONDS,
    },
    // pi-mcp's MCP_OUTPUT_MAX_BYTES: the text of a result over 20 KiB reaches the model with its middle
    // cut out (test/real/mcp-host.test.ts).
    shownBytes: 20 * 1024,
    // test/real/mcp-install.test.ts, mcp-host-pi.test.ts.
    verified: { kind: "lab", version: "1.6.0" },
  },
  takeover: {
    kind: "supported",
    args: ["--session", "{session}"],
    fullArgs: [],
    verified: { kind: "lab", version: "1.6.0" },
  },
} as const satisfies AdapterDescriptor;
