// Claude Code's two rows of the table (src/adapters.ts), one per way it signs in: an API key scv
// holds, or the owner's Claude subscription. src/descriptor/ says what each field means.

import type { AcpLaunch } from "../descriptor/acp.js";
import type { AdapterDescriptor } from "../descriptor/row.js";
import type { KeyStore } from "../descriptor/sign-in.js";
import { RESUME_BY_SESSION_ID } from "./shared.js";

/** Claude Code's own terminal asks before some actions even with its prompts off. */
const CLAUDE_TAKEOVER =
  "Claude Code's own terminal asks before some actions even with its prompts off (deleting files, " +
  "publishing), and keys typed there would answer those prompts instead of scv";

// The lab: with an `apiKeyHelper` in the settings Claude Code reads from its config folder
// (CLAUDE_CONFIG_DIR points there), `claude -p` and `claude auth status` use the key it prints, with
// no ANTHROPIC_* variable anywhere.
const CLAUDE_KEY_STORE = {
  kind: "key-helper",
  key: ".anthropic-api-key",
  settings: ".claude/settings.json",
  setting: "apiKeyHelper",
  // Claude Code uses the helper's key before a subscription sign-in, but the API-key agent must not
  // bill the subscription.
  other: { file: ".claude/.credentials.json", holds: "a Claude subscription sign-in" },
} as const satisfies KeyStore;

// Its `/login` or `auth login`: `claudeAiOauth` in `.credentials.json`. On macOS Claude Code keeps the
// tokens in the keychain (an entry per config folder), and `oauthAccount` in its config file is what
// the sign-in leaves on disk; with CLAUDE_CONFIG_DIR set, `.claude.json` lives inside that folder
// (lab: config-dir case). The access token lives hours; with a refresh token Claude Code renews it.
const CLAUDE_ACCOUNT_STORE = {
  kind: "oauth-file",
  file: ".claude/.credentials.json",
  path: ["claudeAiOauth"],
  fields: {
    access: "accessToken",
    refresh: "refreshToken",
    expiresAt: "expiresAt",
    plan: "subscriptionType",
  },
  is: "Claude subscription sign-in",
  keychain: { file: ".claude/.claude.json", path: ["oauthAccount"] },
} as const satisfies KeyStore;

const CLAUDE_BASE = {
  family: "claude",
  offers:
    "Anthropic's coding agent; it reads, edits, and runs code in a project and can search and fetch the web",
  packages: ["@anthropic-ai/claude-code"],
  verified: { kind: "lab", version: "2.1.332" },
  command: "claude",
  args: ["-p"],
  // `-p` is a boolean (`--print`); the prompt is positional and commander honours `--`. Given no
  // prompt, it reads piped stdin as the prompt, verbatim.
  prompt: {
    kind: "positional",
    endOfOptions: true,
    onStdin: { args: [], alters: "nothing" },
  },
  modelArgs: ["--model", "{model}"],
  effortArgs: ["--effort", "{effort}"],
  effortLevels: ["low", "medium", "high", "xhigh", "max"],
  modelHint: "Claude model alias or id, such as sonnet or opus.",
  // Today's CLI: scv sets CLAUDE_CONFIG_DIR per home (the seed set none). On macOS Claude Code keys
  // its keychain entry by this folder, so each scv home gets its own entry, never the user's.
  homeEnvironment: [["CLAUDE_CONFIG_DIR", ".claude"]],
  fixedEnvironment: [
    ["CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1"],
    ["DISABLE_AUTOUPDATER", "1"],
  ],
  removedEnvironment: [
    "ANTHROPIC_*",
    "CLAUDE_CODE_OAUTH_TOKEN",
    "CLAUDE_CONFIG_DIR",
    "CLAUDE_CODE_USE_BEDROCK",
    "CLAUDE_CODE_USE_VERTEX",
    // Set in a Claude Code session, they make a nested Claude Code refuse to start: no agent gets them.
    "CLAUDECODE",
    "CLAUDE_CODE_ENTRYPOINT",
  ],
  credentialWords: ["CLAUDE"],
  fullPermissionArgs: ["--permission-mode", "bypassPermissions"],
  // Lab (2.1.332): as uid 0 it exits "--dangerously-skip-permissions cannot be used with root/sudo
  // privileges" under bypassPermissions unless IS_SANDBOX is "1".
  rootSandboxEnvironment: ["IS_SANDBOX", "1"],
  // Its --help (2.1.332): `--permission-mode plan`; `--json-schema <schema>` validates the final
  // output (with -p), which its result carries as `structured_output`, and as its `result` text when
  // the model wrote no text of its own after it (its code).
  review: {
    readOnlyArgs: ["--permission-mode", "plan"],
    schema: { kind: "inline", args: ["--json-schema", "{schema}"] },
  },
  // Its `system/init` event carries `permissionMode`.
  modeReport: {
    kind: "stream",
    label: "permission mode",
    full: "bypassPermissions",
    settings: ".claude/settings.json",
  },
  searchDirs: [".claude/local", ".npm-global/bin"],
  ownConfig: { file: ".claude/settings.json", signsIn: false },
  endpoint: {
    kind: "supported",
    api: "anthropic-messages",
    url: { kind: "env", variable: "ANTHROPIC_BASE_URL" },
    key: "ANTHROPIC_API_KEY",
    // Lab (2.1.332): an `apiKeyHelper` in its settings (where scv keeps the key it holds) is sent
    // too, as a bearer token beside the variable's x-api-key; this empty one keeps it from the endpoint.
    args: ["--settings", '{"apiKeyHelper":""}'],
    // Its ACP adapter starts it with no arguments of scv's, so that helper would reach the endpoint.
    acp: false,
    verified: { kind: "lab", version: "2.1.332" },
  },
  output: { kind: "claude-stream-json", args: ["--output-format", "stream-json", "--verbose"] },
  // Contract suite (2.1.332): `--resume` of a session that is gone.
  resume: { ...RESUME_BY_SESSION_ID, lost: /No conversation found with session ID/ },
  conversationFiles: { dir: ".claude/projects", extension: "jsonl" },
  // Read from the environment as from its settings' `env` block (lab: honoured in the latter).
  retries: {
    kind: "env",
    variable: "CLAUDE_CODE_MAX_RETRIES",
    note: "default 10 retries, backing off to ~40 s apart (a 429 or 529 turn runs for minutes)",
  },
  transport: "process",
  cliTurns: true,
  // Contract suite (test/real/mcp-pass.test.ts): the real CLI called a stdio server's tool given
  // this way; --strict-mcp-config keeps out a project's approved .mcp.json, which it loads without.
  mcpPassing: {
    kind: "args-file",
    format: "mcp-servers",
    args: ["--mcp-config", "{file}"],
    isolate: ["--strict-mcp-config"],
    verified: { kind: "lab", version: "2.1.332" },
  },
  takeover: { kind: "refused", reason: CLAUDE_TAKEOVER },
} as const;

/** Claude Code has no ACP server of its own; its official adapter drives it. */
const CLAUDE_ACP = {
  command: "claude-agent-acp",
  args: [],
  package: "@agentclientprotocol/claude-agent-acp",
  // Its claudeCliPath(): this variable, else the native CLI of its own SDK dependency.
  cliPathVariable: "CLAUDE_CODE_EXECUTABLE",
  full: { kind: "mode", mode: "bypassPermissions" },
  fullEnvironment: [],
  // Contract suite (test/real/acp.test.ts; the adapter is pinned beside the CLIs), driving Claude Code
  // 2.1.332 on Node 22 (0.101.0 declares node >= 22). It runs `claude auth status --json` at each prompt.
  verified: { kind: "lab", version: "0.101.0" },
} as const satisfies AcpLaunch;

export const claude = {
  ...CLAUDE_BASE,
  name: "claude",
  product: "Claude Code (API key)",
  offers: `${CLAUDE_BASE.offers}; billed per token to the Anthropic API key scv holds for it`,
  login: { kind: "api-key", store: CLAUDE_KEY_STORE },
  status: { kind: "stored", store: CLAUDE_KEY_STORE },
  logout: { kind: "stored", store: CLAUDE_KEY_STORE },
  credentialFiles: [".anthropic-api-key", ".claude/.credentials.json"],
  // Checked against the pinned CLI (`mcp add --help` in a throwaway HOME, and test/real).
  mcpHost: {
    kind: "command",
    add: ["mcp", "add", "--scope", "user", "{name}", "{env}", "--", "{command}", "{args}"],
    envFlag: "-e",
    remove: ["mcp", "remove", "--scope", "user", "{name}"],
    absent: /No MCP server named/i,
    taken: /already exists/i,
    timeout: {
      kind: "default-suffices",
      why: "Claude Code lets a tool call run 27 hours by default (MCP_TOOL_TIMEOUT)",
    },
    // test/real/mcp-install.test.ts, mcp-host.test.ts.
    verified: { kind: "lab", version: "2.1.332" },
  },
  acp: CLAUDE_ACP,
} as const satisfies AdapterDescriptor;

export const claudeAi = {
  ...CLAUDE_BASE,
  name: "claude-ai",
  product: "Claude Code (Claude subscription)",
  offers: `${CLAUDE_BASE.offers}; runs on the owner's Claude subscription`,
  // Lab: it opens a browser, and without one asks for a pasted code.
  login: { kind: "command", args: ["auth", "login", "--claudeai"], needs: "browser" },
  status: { kind: "stored", store: CLAUDE_ACCOUNT_STORE },
  logout: { kind: "command", args: ["auth", "logout"], needs: "nothing" },
  credentialFiles: [".claude/.credentials.json"],
  // Its CLI and the user configuration it registers in are the claude row's.
  mcpHost: {
    kind: "unsupported",
    reason: "the same CLI as claude: scv mcp install claude registers scv with it",
  },
  acp: CLAUDE_ACP,
} as const satisfies AdapterDescriptor;
