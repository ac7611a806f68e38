// GitHub Copilot CLI's row of the table (src/adapters.ts); src/descriptor/ says what each field means.

import type { AdapterDescriptor } from "../descriptor/row.js";
import { HOST_TOOL_TIMEOUT_SECONDS, RESUME_BY_SESSION_ID } from "./shared.js";

export const copilot = {
  name: "copilot",
  product: "GitHub Copilot CLI",
  // The models are the user's choice among makers'.
  family: null,
  offers: "GitHub's coding agent; it reads, edits, and runs code in a project and knows GitHub",
  packages: ["@github/copilot"],
  verified: { kind: "lab", version: "1.0.102" },
  command: "copilot",
  args: [],
  headlessArgs: ["--no-auto-update", "--disable-client-telemetry"],
  // Without `-p` and with stdin piped it runs headless on stdin as the prompt, stripped of
  // whitespace at its end.
  prompt: { kind: "flag", args: ["-p"], joined: "--prompt=", onStdin: { args: [], alters: "strips-end" } },
  modelArgs: ["--model", "{model}"],
  // Today's CLI has `--reasoning-effort` (the seed had none).
  effortArgs: ["--reasoning-effort", "{effort}"],
  effortLevels: ["none", "minimal", "low", "medium", "high", "xhigh", "max"],
  modelHint: "a model Copilot CLI offers, such as claude-sonnet-4.5 or gpt-5.",
  homeEnvironment: [["COPILOT_HOME", ".copilot"]],
  fixedEnvironment: [["COPILOT_AUTO_UPDATE", "false"]],
  // Copilot CLI 1.0.102 signs in with the first of COPILOT_GITHUB_TOKEN, GH_TOKEN, GITHUB_TOKEN it
  // finds (its README and its code), and reads GITHUB_COPILOT_*_GITHUB_TOKEN under Actions: all
  // are its credentials, so no agent gets them from the user's shell.
  removedEnvironment: [
    "COPILOT_*",
    "GH_COPILOT_TOKEN",
    "COPILOT_GITHUB_TOKEN",
    "GH_TOKEN",
    "GITHUB_TOKEN",
    "GITHUB_COPILOT_*",
  ],
  credentialWords: ["COPILOT"],
  // Without it a prompt run denies every tool that needs approval.
  fullPermissionArgs: ["--allow-all-tools"],
  // Its --help (1.0.102): `--deny-tool` takes tools it may not use, `write` and `shell` among them.
  review: { readOnlyArgs: ["--deny-tool=write", "--deny-tool=shell"], schema: { kind: "prompt" } },
  modeReport: { kind: "none" },
  // Checked in its code: user settings in $COPILOT_HOME/settings.json (MCP servers in mcp-config.json).
  ownConfig: { file: ".copilot/settings.json", signsIn: false },
  searchDirs: [".npm-global/bin"],
  login: { kind: "interactive", args: [], hint: "run /login, then /exit" },
  // Its README: COPILOT_PROVIDER_BASE_URL and COPILOT_PROVIDER_API_KEY select bring-your-own-key
  // mode, needing no GitHub sign-in (the contract suite's sign-in, over ACP too).
  endpoint: {
    kind: "supported",
    api: "openai-chat",
    url: { kind: "env", variable: "COPILOT_PROVIDER_BASE_URL" },
    key: "COPILOT_PROVIDER_API_KEY",
    args: [],
    acp: true,
    verified: { kind: "lab", version: "1.0.102" },
  },
  status: { kind: "unchecked" },
  // Today's CLI has no `logout` command.
  logout: { kind: "interactive", args: [], hint: "run /logout, then /exit" },
  // Today's CLI has `--output-format json` (the seed read text).
  output: { kind: "copilot-json", args: ["--output-format", "json"] },
  // Today's CLI sets a new session's UUID with `--session-id` and resumes with `--resume`.
  resume: {
    ...RESUME_BY_SESSION_ID,
    // Its JSON stream names the session only in its last line, which a stopped turn never prints.
    sessionPath: ".copilot/session-state/{session}",
  },
  // Lab: a folder per session, `.copilot/session-state/<id>/`, holding events.jsonl beside
  // workspace.yaml, checkpoints and locks; removing only the .jsonl would leave half a session, so
  // `conversations rm --transcript` and gc remove the whole folder (`sessionPath`).
  conversationFiles: null,
  credentialFiles: [],
  retries: { kind: "none", note: "none: 5 retries honouring retry-after, 8-15 s" },
  transport: "process",
  acp: {
    command: "copilot",
    // As in `-p` turns: no update check, no telemetry.
    args: ["--acp", "--no-auto-update", "--disable-client-telemetry"],
    // Contract suite: with a provider of the user's own it exits before `initialize` without one
    // ("BYOK providers require an explicit model").
    modelArgs: ["--model", "{model}"],
    // Lab: a `permissions` option, not a mode (its `autopilot` mode also makes it go on by itself).
    full: { kind: "option", option: "allow_all", value: "on" },
    fullEnvironment: [],
    // Lab: 10144 → 20331 → 30561 input tokens over three prompts of one session.
    cumulativeUsage: true,
    // Lab: a failed prompt is answered end_turn after a chunk `Error: …`; retries say `Info: …`.
    textNotices: { error: /^Error: /, info: /^Info: / },
    verified: { kind: "lab", version: "1.0.102" },
  },
  cliTurns: true,
  // Its --help (1.0.102): `--additional-mcp-config @<file>` adds servers for the session, and
  // `--disable-builtin-mcps` turns off its own GitHub MCP servers, which carry the GitHub sign-in.
  // Contract suite: the file's servers were offered to the mock.
  mcpPassing: {
    kind: "args-file",
    format: "mcp-servers-typed",
    args: ["--additional-mcp-config", "@{file}"],
    isolate: ["--disable-builtin-mcps"],
    verified: { kind: "lab", version: "1.0.102" },
  },
  // Its help: `-r, --resume [<value>]` resumes a session by id in its interactive UI.
  // Checked against the pinned CLI (1.0.102).
  mcpHost: {
    kind: "command",
    add: [
      "mcp",
      "add",
      "--timeout",
      String(HOST_TOOL_TIMEOUT_SECONDS * 1000),
      "{env}",
      "{name}",
      "--",
      "{command}",
      "{args}",
    ],
    envFlag: "--env",
    remove: ["mcp", "remove", "{name}"],
    absent: /not found/i,
    taken: /already exists/i,
    timeout: { kind: "in-add", why: "Copilot CLI cuts an MCP call at 60 s unless --timeout says otherwise" },
    // test/real/mcp-install.test.ts.
    verified: { kind: "lab", version: "1.0.102" },
  },
  takeover: {
    kind: "supported",
    args: ["--resume", "{session}"],
    fullArgs: ["--allow-all-tools"],
    verified: { kind: "lab", version: "1.0.102" },
  },
} as const satisfies AdapterDescriptor;
