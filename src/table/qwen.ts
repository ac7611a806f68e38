// Qwen Code's row of the table (src/adapters.ts); src/descriptor/ says what each field means.

import type { AdapterDescriptor } from "../descriptor/row.js";
import type { KeyStore } from "../descriptor/sign-in.js";
import { RESUME_BY_SESSION_ID } from "./shared.js";

// The lab's recipe: an OpenAI-compatible key in the `env` block of ~/.qwen/settings.json.
const QWEN_STORE = {
  kind: "selected-key",
  variable: "OPENAI_API_KEY",
  settings: ".qwen/settings.json",
  selection: { path: ["security", "auth", "selectedType"], value: "openai" },
} as const satisfies KeyStore;

export const qwen = {
  name: "qwen",
  product: "Qwen Code",
  family: "qwen",
  offers: "Alibaba's coding agent on Qwen models; it reads, edits, and runs code in a project",
  packages: ["@qwen-code/qwen-code"],
  verified: { kind: "lab", version: "0.24.4" },
  command: "qwen",
  args: [],
  // Today's CLI deprecates `-p` in favour of the positional prompt. Without either and with stdin
  // piped it runs headless on stdin as the prompt, followed by "\n\n" (`${stdinData}\n\n${input}`).
  prompt: {
    kind: "flag",
    args: ["-p"],
    joined: "--prompt=",
    onStdin: { args: [], alters: "appends-two-newlines" },
  },
  modelArgs: ["-m", "{model}"],
  effortArgs: [],
  effortLevels: [],
  modelHint: "Qwen model id, such as qwen3-coder-plus.",
  // OpenAI-compatible providers name models like `Qwen/Qwen3-Coder-480B-A35B-Instruct` (ModelScope).
  modelsMayHaveSlash: true,
  homeEnvironment: [],
  fixedEnvironment: [["QWEN_TELEMETRY_ENABLED", "false"]],
  removedEnvironment: ["QWEN_*", "DASHSCOPE_*"],
  credentialWords: ["QWEN"],
  fullPermissionArgs: ["--yolo"],
  // Its --help (0.24.4): `--approval-mode plan` ("Analyze only, do not modify files or execute
  // commands"); `--json-schema` takes "@path", and its stream's `result` is then the JSON.
  review: {
    readOnlyArgs: ["--approval-mode", "plan"],
    schema: { kind: "file", args: ["--json-schema", "@{file}"] },
  },
  modeReport: { kind: "none" },
  ownConfig: { file: ".qwen/settings.json", signsIn: false },
  // Lab (0.24.4): the variables win over its settings' `env` block, `--auth-type` over its chosen
  // sign-in.
  endpoint: {
    kind: "supported",
    api: "openai-chat",
    url: { kind: "env", variable: "OPENAI_BASE_URL" },
    key: "OPENAI_API_KEY",
    args: ["--auth-type", "openai"],
    acp: false,
    verified: { kind: "lab", version: "0.24.4" },
  },
  searchDirs: [".npm-global/bin"],
  login: {
    kind: "interactive",
    args: [],
    hint: "choose how to sign in (Qwen OAuth, or an OpenAI-compatible key), then /quit",
    apiKey: QWEN_STORE,
  },
  status: { kind: "unchecked" },
  logout: { kind: "interactive", args: [], hint: "sign out with its own command (/auth), then /quit" },
  // Today's CLI has Claude-shaped stream-json (the seed read text).
  output: { kind: "qwen-stream-json", args: ["--output-format", "stream-json"] },
  // Contract suite (0.24.4): `--resume` of a session that is gone (its ACP server's session/load
  // answers resource-not-found).
  resume: { ...RESUME_BY_SESSION_ID, lost: /No saved session found with ID/ },
  // Lab: `.qwen/projects/<cwd slug>/chats/<session-id>.jsonl`; memory beside it is `.md`.
  conversationFiles: { dir: ".qwen/projects", extension: "jsonl" },
  credentialFiles: [".qwen/oauth_creds.json", ".qwen/.env", ".qwen/settings.json"],
  retries: {
    kind: "config",
    file: ".qwen/settings.json",
    setting: "model.generationConfig.maxRetries",
    note: "default 10 retries, 60 s apart, each a run of 7 quick attempts that no setting changes",
  },
  transport: "process",
  acp: {
    command: "qwen",
    // Today's flag is `--acp`; `--experimental-acp` is gone.
    args: ["--acp"],
    full: { kind: "mode", mode: "yolo" },
    fullEnvironment: [],
    homeSettings: {
      file: ".qwen/settings.json",
      values: [
        {
          // Its settings schema: "Show context-aware follow-up suggestions after task completion".
          path: ["ui", "enableFollowupSuggestions"],
          value: false,
          why: "after each turn its ACP server asks the model for a follow-up suggestion (one more request on the conversation), which scv never shows",
        },
      ],
    },
    verified: { kind: "lab", version: "0.24.4" },
  },
  cliTurns: true,
  // Contract suite (0.24.4): a settings file named by QWEN_CODE_SYSTEM_SETTINGS_PATH gave the
  // mock no server.
  mcpPassing: {
    kind: "unsupported",
    reason: "no per-run settings file it reads was found; over ACP (--transport acp) session/new takes them",
  },
  // Its help: `-r, --resume <id>` resumes a specific session, interactively without -p.
  // Its `mcp` commands are Gemini CLI's (a fork of it).
  mcpHost: {
    kind: "command",
    add: ["mcp", "add", "--scope", "user", "{env}", "{name}", "{command}", "{args}"],
    envFlag: "-e",
    remove: ["mcp", "remove", "--scope", "user", "{name}"],
    absent: /not found/i,
    timeout: { kind: "default-suffices", why: "Qwen Code lets an MCP call run 10 minutes by default" },
    // test/real/mcp-install.test.ts.
    verified: { kind: "lab", version: "0.24.4" },
  },
  takeover: {
    kind: "supported",
    args: ["--resume", "{session}"],
    fullArgs: ["--yolo"],
    verified: { kind: "lab", version: "0.24.4" },
  },
} as const satisfies AdapterDescriptor;
