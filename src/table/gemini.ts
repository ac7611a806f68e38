// Gemini CLI's row of the table (src/adapters.ts); src/descriptor/ says what each field means.

import type { AdapterDescriptor } from "../descriptor/row.js";
import type { KeyStore } from "../descriptor/sign-in.js";
import { RESUME_BY_SESSION_ID } from "./shared.js";

// The lab's recipe: the key in ~/.gemini/.env, API-key auth selected in ~/.gemini/settings.json.
// Given as GEMINI_API_KEY too (contract suite, 0.61.0): the CLI loads the first .env it finds walking
// up from the project (a project's own .env hides ~/.gemini/.env: no key, exit 41), and in a folder it
// does not trust it skips ~/.gemini/.env (`scv run` asked for a key in its UI); a variable set wins.
const GEMINI_STORE = {
  kind: "selected-key",
  variable: "GEMINI_API_KEY",
  environment: true,
  dotenv: ".gemini/.env",
  settings: ".gemini/settings.json",
  selection: { path: ["security", "auth", "selectedType"], value: "gemini-api-key" },
} as const satisfies KeyStore;

export const gemini = {
  name: "gemini",
  product: "Gemini CLI",
  family: "gemini",
  offers: "Google's coding agent; it reads, edits, and runs code in a project and has Google Search",
  packages: ["@google/gemini-cli"],
  verified: { kind: "lab", version: "0.61.0" },
  command: "gemini",
  args: [],
  // Today's CLI silently drops `--yolo` and ignores `~/.gemini/.env` in an untrusted folder;
  // `--skip-trust` trusts the cwd for this run only.
  headlessArgs: ["--skip-trust"],
  // Without `-p` and with stdin piped it runs headless on stdin as the prompt, verbatim, cut after
  // 8 MiB (its readStdin's MAX_STDIN_SIZE, with only a debug-log warning).
  prompt: {
    kind: "flag",
    args: ["-p"],
    joined: "--prompt=",
    onStdin: { args: [], alters: "nothing", maxBytes: 8 * 1024 * 1024 },
  },
  modelArgs: ["-m", "{model}"],
  effortArgs: [],
  effortLevels: [],
  modelHint: "Gemini model id, such as gemini-2.5-pro.",
  homeEnvironment: [],
  fixedEnvironment: [["GEMINI_TELEMETRY_ENABLED", "false"]],
  removedEnvironment: [
    "GEMINI_*",
    "GOOGLE_GENAI_*",
    "GOOGLE_API_KEY",
    "GOOGLE_CLOUD_PROJECT",
    "GOOGLE_CLOUD_LOCATION",
    "GOOGLE_APPLICATION_CREDENTIALS",
    // Contract suite: an exported GOOGLE_GEMINI_BASE_URL beat the agent home's .env and sent the
    // turn, with the key scv holds, to that endpoint. Today's CLI also reads these two.
    "GOOGLE_GEMINI_BASE_URL",
    "GOOGLE_VERTEX_BASE_URL",
    "GOOGLE_CLOUD_ACCESS_TOKEN",
  ],
  credentialWords: ["GEMINI"],
  fullPermissionArgs: ["--yolo"],
  // Its --help (0.61.0): `--approval-mode plan` is "read-only mode"; no structured-output option.
  review: { readOnlyArgs: ["--approval-mode", "plan"], schema: { kind: "prompt" } },
  modeReport: { kind: "none" },
  ownConfig: { file: ".gemini/settings.json", signsIn: false },
  // Lab (0.61.0): the variables are read over its .env; its headless sign-in check refuses the
  // `gateway` sign-in GOOGLE_GEMINI_BASE_URL alone selects, so the API key's must be chosen.
  endpoint: {
    kind: "supported",
    api: "gemini",
    url: { kind: "env", variable: "GOOGLE_GEMINI_BASE_URL" },
    key: "GEMINI_API_KEY",
    args: [],
    requires: {
      file: ".gemini/settings.json",
      path: ["security", "auth", "selectedType"],
      value: "gemini-api-key",
    },
    acp: false,
    verified: { kind: "lab", version: "0.61.0" },
  },
  searchDirs: [".npm-global/bin"],
  login: {
    kind: "interactive",
    args: [],
    hint: "choose how to sign in (Login with Google, or a Gemini API key), then /quit",
    apiKey: GEMINI_STORE,
  },
  status: { kind: "unchecked" },
  logout: { kind: "interactive", args: [], hint: "sign out with its own command (/auth), then /quit" },
  // Today's CLI has structured output (the seed read text).
  output: { kind: "gemini-stream-json", args: ["--output-format", "stream-json"] },
  // Today's CLI starts a session under a given UUID and resumes it by that id (the seed had none).
  // Contract suite (0.61.0): `--resume` (and session/load) of a session that is gone; the second
  // when the project has none at all.
  resume: {
    ...RESUME_BY_SESSION_ID,
    lost: /Invalid session identifier|No previous sessions found for this project/,
  },
  // Lab: `.gemini/tmp/<project>/chats/session-<minute>-<first 8 of the id>.jsonl` (and a later
  // --resume or session/load begins another of that name under its own minute); a subagent's
  // `chats/<parent id>/<id>.jsonl`.
  conversationFiles: { dir: ".gemini/tmp", extension: "jsonl", idPrefix: 8 },
  credentialFiles: [".gemini/oauth_creds.json", ".gemini/.env"],
  homeSettings: {
    file: ".gemini/settings.json",
    values: [
      {
        // Lab 0.61.0 (its sessionCleanup.ts, on by default): every start deletes each session file
        // with nothing to resume, such as the stub a `--resume` or `session/load` begins under the
        // session's short id, and with it every other file of that short id but its own session's.
        path: ["general", "sessionRetention", "enabled"],
        value: false,
        why: "at every start it deletes each session file it could not resume — such as the one a --resume or ACP session/load of a conversation begins, named by the minute and the session id's first 8 characters — and with it every other file of that short id, the conversation's own among them, so a continued conversation was lost as soon as another Gemini CLI started (and every one after 30 days); scv's own gc removes old transcripts instead",
      },
    ],
  },
  retries: {
    kind: "config",
    file: ".gemini/settings.json",
    setting: "general.maxAttempts (attempts, retries included; at most 10)",
    note: "default 10 attempts, 5 s to 30 s apart: a 429 turn runs for about 5 minutes",
  },
  transport: "process",
  acp: {
    command: "gemini",
    // Today's flag is `--acp` (`--experimental-acp` is deprecated); `--skip-trust` as in `-p` turns.
    args: ["--acp", "--skip-trust"],
    full: { kind: "mode", mode: "yolo" },
    fullEnvironment: [],
    verified: { kind: "lab", version: "0.61.0" },
    // Lab 0.61.0: its session/load first begins a file for the session under the current minute
    // (`session-<minute>-<first 8 of the id>.jsonl`) whose opening lines set the history to none;
    // in the minute the session was saved that is the session's own file, and the load then finds
    // nothing, for good.
    known:
      '0.61.0\'s session/load of a session saved within the same UTC minute wipes its history ("No previous sessions found for this project", for that load and every later one): scv waits for the next minute before it loads such a session',
    loadAfterMinute: {
      dir: ".gemini/tmp",
      name: /^session-(?<minute>\d{4}-\d{2}-\d{2}T\d{2}-\d{2})-(?<session>[0-9A-Za-z_-]{8})\.jsonl?$/,
    },
  },
  cliTurns: true,
  // Contract suite (0.61.0): its one per-run settings file, GEMINI_CLI_SYSTEM_SETTINGS_PATH, is
  // skipped unless root owns it and no folder above it is writable by others.
  mcpPassing: {
    kind: "unsupported",
    reason:
      "it reads a per-run settings file only where root owns it and every folder above it, none writable by group or others, and scv writes a turn's files under TMPDIR (/tmp is writable by all); over ACP session/new takes them",
  },
  // Its help: `-r, --resume` takes a session; the lab resumed one by its init id (headless).
  mcpHost: {
    kind: "command",
    add: ["mcp", "add", "--scope", "user", "{env}", "{name}", "{command}", "{args}"],
    envFlag: "-e",
    remove: ["mcp", "remove", "--scope", "user", "{name}"],
    absent: /not found/i,
    timeout: { kind: "default-suffices", why: "Gemini CLI lets an MCP call run 10 minutes by default" },
    // test/real/mcp-install.test.ts.
    verified: { kind: "lab", version: "0.61.0" },
  },
  // `--skip-trust` as in the turns that made the conversation there (without it, it may ask to trust
  // the folder and restart).
  takeover: {
    kind: "supported",
    args: ["--skip-trust", "--resume", "{session}"],
    fullArgs: ["--yolo"],
    verified: { kind: "lab", version: "0.61.0" },
  },
} as const satisfies AdapterDescriptor;
