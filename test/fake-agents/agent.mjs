// A stand-in for every agent CLI scv drives, for end-to-end tests. Installed under each real
// command name (claude, codex, pi, …; see install.ts), it parses its argv with that CLI's grammar as
// recorded in the lab's help texts (unknown option → exit 1 like the real one), records what it was
// given (argv, environment, cwd, stdin, pid) as JSON in $FAKE_AGENT_DIR, and replays a real capture
// from test/fixtures/<cli>/ with the session id it was given. Like the real pi, the fake pi reads
// piped stdin as its prompt (trimmed, its message argument appended) and an `@file` argument as a
// file to attach; claude, codex, gemini, qwen, opencode and copilot read it as their prompt when given
// no prompt argument (codex: `-`), as the real ones do; the record keeps what came on stdin
// (`stdinText`). $FAKE_AGENT_MODE picks a
// behaviour:
//   ok (default)        replay turn1, or turn2-resume when continuing
//   echo                print "REPLY: <prompt>" as plain text
//   fixture:<case>      replay test/fixtures/<cli>/<case> (stdout, stderr, exit code)
//   fixture-hang:<case>:<n>  replay that capture's stderr and first <n> stdout lines, write
//                       pids.json, then wait forever (a CLI waiting to retry)
//   exit:<code>         print "fake failure" on stderr and exit with <code>
//   long-failure:<n>    one stderr line "fatal: " and <n> x, then exit 1
//   slow:<ms>           wait (scaled by $FAKE_AGENT_TIME_SCALE), then behave as ok
//   gate[:<name>]       write pids.json, wait until the file <name> (default "open") is in
//                       $FAKE_AGENT_DIR, then behave as ok: a turn that runs until the test lets it end
//   hang                write pids.json ($FAKE_AGENT_PIDS names it otherwise), then wait forever
//   grandchild          start a grandchild, write both pids to pids.json, wait forever
//   answer-term         write pids.json, wait; on SIGTERM replay turn1 (a success) and exit 0
//   ignore-term         ignore SIGTERM (noting it in got-sigterm), write pids.json, wait forever
//   start-hang          replay turn1's first two lines (Claude's init, Codex's thread.started and
//                       turn.started, with its rollout file written), write pids.json, wait forever
//   tools:<n>           (claude) replay turn1 with n Bash tool calls after its init line; each
//                       call's output is $FAKE_AGENT_TOOL_OUTPUT_BYTES x's when that is set
//   tool-hang[:<n>]     (claude) replay turn1's init, n - 1 Bash calls (1 by default) and the start
//                       of call n, write pids.json, wait forever
//   escape              like grandchild, plus one more that leaves the group with setsid; all three
//                       pids to pids.json
//   steps:<n>           (claude) replay turn1's init, then n Bash tool calls (`$ echo step <i>`), each
//                       ending only once the file step-<i> exists in $FAKE_AGENT_DIR, then the rest
//                       of turn1: a turn a test moves on step by step
//   drip                (claude) replay turn1's init, write pids.json, then a Bash tool call every
//                       50 ms forever: a turn whose events never stop
//   reply               replay turn1 with its reply replaced by "REPLY <prompt>", so that turns
//                       running at once can each be checked for their own reply
//   reply-file:<path>   replay turn1 with its reply replaced by the file's text (replies of MiBs)
//   reply-latin1:<text> replay turn1 with its reply replaced by <text> written as Latin-1 bytes
//                       (`café` is 63 61 66 e9: not UTF-8), raw inside the JSON string as a CLI
//                       that does not check its output would write it; a CLI with no capture
//                       prints them as its plain-text reply
//   login-prompt        (amp) write pids.json, replay its signed-out capture (a plain-text login
//                       prompt with a one-time URL), then wait forever for a code, as the real one
//   review-grep:<word>:<if>:<else>  a reviewer: reply with the text of file <if> when the prompt
//                       (the diff under review) holds <word>, else with file <else>, as reply-file
// With --json-schema (claude) a reply that is a JSON object is also the result's
// `structured_output`, as the real CLI's StructuredOutput tool makes it (review-structured capture);
// with --output-schema (codex) the reply is the JSON text itself, as the real one's final message is.
//   write:<path>[=<text>]  write <path> (relative to its cwd, folders made) as an agent's edit
//                       tool would: <text> with a newline, else "<cli> wrote this in <cwd's name>\n"
//                       (so attempts differ) or $FAKE_AGENT_WRITE_TEXT; then behave as ok
//   write-hang:<path>   write <path> as above, write pids.json, then wait forever (a turn killed
//                       mid-way that has written something)
// A file .fake-mode in the agent's HOME (one account's home) holds a mode for that home only;
// .fake-mode-once one for its next run only (removed as it is read).
// $FAKE_AGENT_LINGER (self | child | escaped-child) keeps something running after a replayed capture
// (see linger()); $FAKE_AGENT_PAUSE_AFTER and $FAKE_AGENT_PAUSE_MS pause a replay after the line
// that holds a marker, as a CLI waits before its retry (see writePaused()). $FAKE_AGENT_TIME_SCALE,
// which the test helpers set to the factor they give scv's SCV_TEST_TIME_SCALE, scales every such wait
// the way scv's own graces are scaled.
// Like the real CLIs, the fake reports the permission mode it was given: claude's init says the
// --permission-mode value (else "default"), codex writes a rollout file under $CODEX_HOME/sessions
// whose turn_context has sandbox_policy danger-full-access under
// --dangerously-bypass-approvals-and-sandbox, else read-only. $FAKE_AGENT_PERMISSION_MODE overrides
// the reported value (a settings file in its home would do that to the real one).

import { spawn, spawnSync } from "node:child_process";
import {
  appendFileSync,
  chmodSync,
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { basename, join, resolve as resolvePath } from "node:path";
import { fileURLToPath } from "node:url";

const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));
/** $FAKE_AGENT_TIME_SCALE within (0, 1]: how much shorter than asked this fake waits. */
const TIME_SCALE = (() => {
  const scale = Number(process.env.FAKE_AGENT_TIME_SCALE);
  return Number.isFinite(scale) && scale > 0 && scale < 1 ? scale : 1;
})();
const scaled = (ms) => Math.round(Number(ms) * TIME_SCALE);
/** Stands for the raw bytes of `reply-latin1` until the replay is written. */
const RAW_REPLY = "@@RAW-REPLY@@";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Each CLI's grammar: boolean options, options taking a value (with allowed values or a check),
 * leading subcommands, and how many positionals it takes. */
const GRAMMARS = {
  claude: {
    bools: ["-p", "--print", "--verbose", "--dangerously-skip-permissions", "--strict-mcp-config"],
    values: {
      "--mcp-config": null,
      "--settings": null,
      "--output-format": ["text", "json", "stream-json"],
      "--model": null,
      "--effort": ["low", "medium", "high", "xhigh", "max"],
      "--session-id": UUID,
      "--resume": null,
      "-r": null,
      "--permission-mode": ["acceptEdits", "auto", "bypassPermissions", "manual", "dontAsk", "plan"],
      "--json-schema": null,
    },
    dashDash: true,
  },
  codex: {
    subcommands: [["exec"], ["exec", "resume"]],
    bools: ["--json", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox"],
    values: {
      "-o": null,
      "--output-last-message": null,
      "-m": null,
      "--model": null,
      "-c": null,
      "--config": null,
      "--output-schema": null,
    },
    dashDash: true,
  },
  pi: {
    bools: ["-p", "--print", "--offline"],
    values: {
      "--mode": ["text", "json", "rpc"],
      "--model": null,
      "--thinking": ["off", "minimal", "low", "medium", "high", "xhigh"],
      "--session": null,
      "-e": null,
      "--extension": null,
    },
    // The real pi has no `--`: it reads it, and a dash prompt after it, as unknown options.
    dashDash: false,
    // pi 0.73.1 and 1.6.0: piped stdin is (the start of) the prompt, and `@path` attaches a file.
    readsStdin: true,
    atFiles: true,
  },
  gemini: {
    bools: ["--skip-trust", "--yolo", "-y"],
    values: {
      "-m": null,
      "--model": null,
      "-o": ["text", "json", "stream-json"],
      "--output-format": ["text", "json", "stream-json"],
      "--session-id": null,
      "--resume": null,
      "-r": null,
      "-p": null,
      "--prompt": null,
      // gemini 0.x help: `plan (read-only mode)`, a reviewer's turn.
      "--approval-mode": ["default", "auto_edit", "yolo", "plan"],
    },
    dashDash: true,
  },
  qwen: {
    bools: ["--yolo", "-y"],
    values: {
      "--auth-type": ["openai", "openai-responses", "anthropic", "qwen-oauth", "gemini", "vertex-ai"],
      "-m": null,
      "--model": null,
      "-o": ["text", "json", "stream-json"],
      "--output-format": ["text", "json", "stream-json"],
      "--session-id": null,
      "--resume": null,
      "-r": null,
      "-p": null,
      "--prompt": null,
      "--approval-mode": ["plan", "default", "auto-edit", "auto", "yolo"],
      // qwen help: a JSON literal or "@path/to/schema.json".
      "--json-schema": null,
    },
    dashDash: true,
  },
  opencode: {
    subcommands: [["run"]],
    bools: ["--auto", "--print-logs"],
    values: {
      "--format": ["default", "json"],
      "--log-level": ["DEBUG", "INFO", "WARN", "ERROR"],
      "-m": null,
      "--model": null,
      "--variant": null,
      "-s": null,
      "--session": null,
    },
    dashDash: true,
  },
  copilot: {
    bools: ["--allow-all-tools", "--no-auto-update", "--disable-client-telemetry", "--disable-builtin-mcps"],
    values: {
      "--additional-mcp-config": null,
      "-p": null,
      "--prompt": null,
      "--model": null,
      "--reasoning-effort": ["none", "minimal", "low", "medium", "high", "xhigh", "max"],
      "--output-format": ["text", "json"],
      "--session-id": null,
      "--resume": null,
      "-r": null,
    },
    dashDash: true,
  },
  "cursor-agent": {
    bools: ["-p", "--force"],
    values: { "--output-format": null, "--model": null, "--resume": null },
    dashDash: false,
  },
  amp: {
    bools: ["--stream-json", "--dangerously-allow-all"],
    values: { "-x": null, "--execute": null },
    dashDash: true,
  },
  grok: {
    bools: ["--always-approve"],
    values: { "-m": null, "--reasoning-effort": ["low", "medium", "high"], "-p": null, "--prompt": null },
    dashDash: true,
  },
  dsh: { bools: [], values: { "--profile": null }, dashDash: false },
  kimi: { bools: [], values: {}, dashDash: false },
  // Its --help (3.0.65); `--id` opens its interactive UI.
  cline: {
    bools: ["--json", "-p", "--plan", "--acp"],
    values: {
      "-m": null,
      "--model": null,
      "--thinking": ["none", "low", "medium", "high", "xhigh"],
      "--auto-approve": ["true", "false"],
      "-P": null,
      "--provider": null,
      "--id": null,
    },
    dashDash: true,
  },
  // OpenCode's `run`, forked.
  kilo: {
    subcommands: [["run"]],
    bools: ["--auto", "--print-logs"],
    values: {
      "--format": ["default", "json"],
      "-m": null,
      "--model": null,
      "--variant": null,
      "-s": null,
      "--session": null,
    },
    dashDash: true,
  },
  droid: {
    subcommands: [["exec"]],
    bools: ["--skip-permissions-unsafe", "--use-spec"],
    values: {
      "-o": ["text", "json", "stream-json", "acp"],
      "--output-format": ["text", "json", "stream-json", "acp"],
      "-m": null,
      "--model": null,
      "-r": null,
      "--reasoning-effort": null,
      "--auto": ["low", "medium", "high"],
      "-s": null,
      "--session-id": null,
      "--settings": null,
    },
    dashDash: true,
  },
  auggie: {
    bools: ["--print", "-p", "--quiet", "-q", "--ask", "-a", "--acp"],
    values: {
      "-m": null,
      "--model": null,
      "--reasoning-effort": null,
      "--output-format": ["text", "json"],
      "-r": null,
      "--resume": null,
    },
    dashDash: false,
  },
  qodercli: {
    bools: ["-p", "--print", "--dangerously-skip-permissions", "--acp"],
    values: {
      "-o": ["text", "json", "stream-json"],
      "--output-format": ["text", "json", "stream-json"],
      "-m": null,
      "--model": null,
      "--reasoning-effort": null,
      "--session-id": UUID,
      "-r": null,
      "--resume": null,
      "--permission-mode": ["default", "accept_edits", "bypass_permissions", "dont_ask", "auto"],
    },
    dashDash: true,
  },
  crush: {
    subcommands: [["run"]],
    bools: ["--quiet", "-q", "--yolo"],
    values: { "-m": null, "--model": null },
    dashDash: true,
  },
};

/** The session id each capture was made with, replaced by the one this run was given. */
const CAPTURED_SESSIONS = {
  claude: "3f0c9a52-6a53-4a8e-9c1e-2f7d5b8e4a10",
  gemini: "3df7c9fb-01d5-4918-ad13-9da397ec056e",
  qwen: "7db7d536-6945-47a5-b41b-98a8777cef2c",
  copilot: "6d2b8f0e-1c4a-4e7b-9a35-0f8e2c7d1b54",
};

/** Fixture folders not named after the command. */
const FIXTURE_DIRS = { "cursor-agent": "cursor", qodercli: "qoder" };

const cli = basename(process.argv[1] ?? "");
const argv = process.argv.slice(2);
const grammar = GRAMMARS[cli];
if (grammar === undefined) fail(`fake agent: no grammar for '${cli}'`, 2);

if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v" || argv[0] === "-V")) {
  process.stdout.write(`${cli} 0.0.0-fake\n`);
  process.exit(0);
}

const parsed = parse(grammar, argv);
const stdinText = grammar.readsStdin || promptOnStdin(parsed) ? await readStdin() : undefined;
record(parsed);
touchState();
await behave(parsed);

function parse(spec, args) {
  const options = {};
  const positionals = [];
  const files = [];
  let subcommand = [];
  let rest = [...args];
  for (const candidate of [...(spec.subcommands ?? [])].sort((a, b) => b.length - a.length)) {
    if (candidate.every((word, i) => rest[i] === word)) {
      subcommand = candidate;
      rest = rest.slice(candidate.length);
      break;
    }
  }
  if (spec.subcommands !== undefined && subcommand.length === 0)
    fail(`error: expected a subcommand, got '${rest[0]}'`);
  let afterDashDash = false;
  for (let i = 0; i < rest.length; i += 1) {
    const arg = rest[i];
    if (afterDashDash) {
      positionals.push(arg);
      continue;
    }
    if (arg === "--") {
      if (!spec.dashDash) fail("error: '--' is not understood");
      afterDashDash = true;
      continue;
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (spec.bools.includes(name) && eq === -1) {
      options[name] = true;
      continue;
    }
    if (Object.hasOwn(spec.values, name)) {
      let value;
      if (eq !== -1) value = arg.slice(eq + 1);
      else {
        value = rest[i + 1];
        i += 1;
        // Like yargs and commander for most options: a following flag is not a value.
        if (value === undefined || (value.startsWith("-") && value !== "-"))
          fail(`error: option '${name}' needs a value`);
      }
      check(name, value, spec.values[name]);
      options[name] = [...(options[name] ?? []), value];
      continue;
    }
    if (spec.atFiles && arg.startsWith("@")) {
      files.push(arg.slice(1));
      continue;
    }
    if (arg.startsWith("-") && arg !== "-") fail(`error: unknown option '${arg}'`);
    positionals.push(arg);
  }
  return { subcommand, options, positionals, files };
}

/** All of piped stdin; undefined for a terminal. */
function readStdin() {
  if (process.stdin.isTTY) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const chunks = [];
    process.stdin.on("data", (chunk) => chunks.push(chunk));
    process.stdin.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    process.stdin.on("error", () => resolve(undefined));
  });
}

function check(name, value, allowed) {
  if (allowed === null) return;
  if (allowed instanceof RegExp ? !allowed.test(value) : !allowed.includes(value)) {
    fail(`error: option '${name}' argument '${value}' is invalid`);
  }
}

function last(options, ...names) {
  for (const name of names) {
    const values = options[name];
    if (values !== undefined) return values.at(-1);
  }
  return undefined;
}

/** Whether this CLI reads its prompt from stdin with these arguments, as the real one does (checked
 * with the pinned CLIs, test/real/prompt-verbatim.test.ts): claude -p, opencode run and gemini, qwen
 * and copilot given no prompt argument, codex given `-` or no prompt. */
function promptOnStdin({ subcommand, options, positionals }) {
  switch (cli) {
    case "claude":
    case "opencode":
      return positionals.length === 0;
    case "codex":
      return positionals.length < subcommand.length || positionals.at(-1) === "-";
    case "gemini":
    case "qwen":
    case "copilot":
      return last(options, "-p", "--prompt") === undefined;
    default:
      return false;
  }
}

/** The prompt a CLI read from stdin: what each real one does to the text (qwen appends "\n\n",
 * copilot strips whitespace at the end), or its own error for an empty stdin. */
function stdinPrompt() {
  if (stdinText === undefined || stdinText.trim() === "") {
    fail(
      cli === "codex"
        ? "No prompt provided via stdin."
        : "Error: Input must be provided either through stdin or as a prompt argument",
    );
  }
  return { qwen: `${stdinText}\n\n`, copilot: stdinText.trimEnd() }[cli] ?? stdinText;
}

/** The prompt and session as this CLI's grammar places them. */
function interpret({ subcommand, options, positionals, files }) {
  const onStdin = promptOnStdin({ subcommand, options, positionals });
  switch (cli) {
    case "claude":
      if (!options["-p"] && !options["--print"]) fail("fake claude: interactive mode is not faked");
      if (last(options, "--output-format") === "stream-json" && !options["--verbose"]) {
        fail("Error: When using --print, --output-format=stream-json requires --verbose");
      }
      return {
        prompt: onStdin ? stdinPrompt() : only(positionals),
        start: last(options, "--session-id"),
        resume: last(options, "--resume", "-r"),
      };
    case "codex":
      if (subcommand.length === 2) {
        if (positionals.length === 0 || positionals.length > 2)
          fail("error: exec resume takes SESSION_ID and PROMPT here");
        return { prompt: onStdin ? stdinPrompt() : positionals[1], resume: positionals[0] };
      }
      return { prompt: onStdin ? stdinPrompt() : only(positionals) };
    case "pi": {
      if (!options["-p"] && !options["--print"]) fail("fake pi: interactive mode is not faked");
      // As pi's buildInitialMessage: trimmed stdin, then the attached files, then the first message
      // (pi would send any further message as a turn of its own; scv never passes one).
      if (positionals.length > 1) fail(`fake pi: ${positionals.length} messages, each a turn of its own`);
      const parts = [];
      const piped = stdinText?.trim();
      if (piped) parts.push(piped);
      for (const file of files) parts.push(attach(file));
      if (positionals[0] !== undefined) parts.push(positionals[0]);
      return { prompt: parts.length > 0 ? parts.join("") : undefined, resume: last(options, "--session") };
    }
    case "gemini":
    case "qwen":
    case "copilot":
    case "grok":
      if (positionals.length > 0) fail(`fake ${cli}: a positional prompt would start interactive mode`);
      return {
        prompt: onStdin ? stdinPrompt() : last(options, "-p", "--prompt"),
        start: last(options, "--session-id"),
        resume: last(options, "--resume", "-r"),
      };
    case "opencode":
    case "kilo":
      return {
        prompt: onStdin ? stdinPrompt() : only(positionals),
        resume: last(options, "-s", "--session"),
      };
    case "cline":
      if (!options["--json"]) fail("fake cline: only --json is faked");
      if (last(options, "--id") !== undefined)
        fail("error: interactive mode requires a TTY (stdin/stdout must both be terminals)");
      return { prompt: only(positionals) };
    case "droid":
      return { prompt: only(positionals), resume: last(options, "-s", "--session-id") };
    case "qodercli":
      if (!options["-p"] && !options["--print"]) fail("fake qodercli: interactive mode is not faked");
      return {
        prompt: only(positionals),
        start: last(options, "--session-id"),
        resume: last(options, "-r", "--resume"),
      };
    case "cursor-agent":
      return { prompt: only(positionals), resume: last(options, "--resume") };
    case "amp":
      return { prompt: last(options, "-x", "--execute") };
    default:
      return { prompt: only(positionals) };
  }
}

/** pi's text for an `@file` argument. */
function attach(file) {
  const path = resolvePath(file);
  if (!existsSync(path)) fail(`Error: File not found: ${path}`);
  return `<file name="${path}">\n${readFileSync(path, "utf8")}\n</file>\n`;
}

function only(positionals) {
  if (positionals.length !== 1) fail(`error: expected one prompt, got ${positionals.length} positionals`);
  return positionals[0];
}

function record(parsedArgs) {
  const dir = process.env.FAKE_AGENT_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  let stdin = "unknown";
  try {
    const stat = fstatSync(0);
    stdin = stat.isCharacterDevice()
      ? process.stdin.isTTY
        ? "tty"
        : "null"
      : stat.isFIFO() || stat.isSocket()
        ? "pipe"
        : "file";
  } catch {
    stdin = "closed";
  }
  const entry = {
    cli,
    argv,
    subcommand: parsedArgs.subcommand,
    env: process.env,
    cwd: process.cwd(),
    pid: process.pid,
    stdin,
    ...(stdinText === undefined ? {} : { stdinText }),
    tmpMode: tmpMode(),
    mcpFiles: mcpFiles(parsedArgs),
    extensions: extensionFiles(parsedArgs),
    settingsFiles: settingsFiles(parsedArgs),
  };
  writeFileSync(join(dir, `${cli}-${Date.now()}-${process.pid}.json`), JSON.stringify(entry, null, 2));
}

/** The extension files it was told to load (pi's `-e`), each one's text and permissions, read while
 * they exist, as the real pi loads them. */
function extensionFiles(parsedArgs) {
  const paths = [...(parsedArgs.options["-e"] ?? []), ...(parsedArgs.options["--extension"] ?? [])];
  return paths.map((path) => {
    try {
      return { path, text: readFileSync(path, "utf8"), mode: (statSync(path).mode & 0o777).toString(8) };
    } catch {
      return { path, text: null, mode: null };
    }
  });
}

/** The settings files it was told to read for this run (droid's `--settings`, cline's
 * CLINE_PROVIDER_SETTINGS_PATH): each one's text and permissions, read while they exist. */
function settingsFiles(parsedArgs) {
  const paths = [
    ...(parsedArgs.options["--settings"] ?? []),
    ...(process.env.CLINE_PROVIDER_SETTINGS_PATH === undefined
      ? []
      : [process.env.CLINE_PROVIDER_SETTINGS_PATH]),
  ];
  return paths.map((path) => {
    try {
      return { path, text: readFileSync(path, "utf8"), mode: (statSync(path).mode & 0o777).toString(8) };
    } catch {
      return { path, text: null, mode: null };
    }
  });
}

/** The MCP files scv rendered for this turn (named by an option or a variable), and the variable
 * files their servers are started with: each one's text and permissions, read while they exist.
 * With $FAKE_AGENT_MCP_START, each stdio server is started as the real CLI would, its stdout kept
 * under `started`; with `stay`, left running instead. */
function mcpFiles(parsedArgs) {
  const paths = [
    ...(parsedArgs.options["--mcp-config"] ?? []),
    ...(parsedArgs.options["--additional-mcp-config"] ?? []).map((value) => value.replace(/^@/, "")),
    ...(process.env.OPENCODE_CONFIG === undefined ? [] : [process.env.OPENCODE_CONFIG]),
  ];
  const files = {};
  const started = {};
  for (const path of paths) {
    if (!existsSync(path)) continue;
    const text = readFileSync(path, "utf8");
    files[path] = { text, mode: (statSync(path).mode & 0o777).toString(8).padStart(4, "0") };
    const servers = JSON.parse(text).mcpServers ?? {};
    for (const [name, server] of Object.entries(servers)) {
      if (server.command === undefined) continue;
      if (server.command === "/bin/sh" && existsSync(server.args[2])) {
        const envFile = server.args[2];
        files[envFile] = { mode: (statSync(envFile).mode & 0o777).toString(8).padStart(4, "0") };
      }
      if (process.env.FAKE_AGENT_MCP_START === "stay") {
        // Left running, in the agent's process group, its pid in $FAKE_AGENT_DIR/mcp-server.pid.
        const child = spawn(server.command, server.args, {
          env: { ...process.env, ...server.env },
          stdio: "ignore",
        });
        if (process.env.FAKE_AGENT_DIR)
          writeFileSync(join(process.env.FAKE_AGENT_DIR, "mcp-server.pid"), String(child.pid));
      } else if (process.env.FAKE_AGENT_MCP_START) {
        const run = spawnSync(server.command, server.args, { env: { ...process.env, ...server.env } });
        started[name] = run.stdout.toString("utf8");
      }
    }
  }
  return { files, started };
}

/** The permissions of the TMPDIR it was given, as "0700" (null when it has none or it is not there). */
function tmpMode() {
  try {
    return (statSync(process.env.TMPDIR).mode & 0o777).toString(8).padStart(4, "0");
  } catch {
    return null;
  }
}

/** Writes where the real CLI keeps its state: its dot-folder in HOME and the folders its variables
 * name. A HOME or variable leaking the user's own folders would show up there. */
function touchState() {
  const home = process.env.HOME;
  if (!home) return;
  const dirs = new Set([join(home, `.${cli}`)]);
  for (const name of [
    "CODEX_HOME",
    "CLAUDE_CONFIG_DIR",
    "PI_CODING_AGENT_DIR",
    "COPILOT_HOME",
    "GROK_HOME",
    "DSH_HOME",
  ]) {
    if (process.env[name]) dirs.add(process.env[name]);
  }
  if (process.env.XDG_CONFIG_HOME) dirs.add(join(process.env.XDG_CONFIG_HOME, cli));
  for (const dir of dirs) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "fake-state"), `${Date.now()}\n`);
  }
  // And what real CLIs leave in TMPDIR: OpenCode a native library per run, Gemini an error report
  // readable by all, some tool a folder it made read-only.
  if (process.env.TMPDIR) {
    try {
      writeFileSync(join(process.env.TMPDIR, `fake-${cli}-${process.pid}.so`), "fake library", {
        mode: 0o644,
      });
      const frozen = join(process.env.TMPDIR, `fake-${cli}-${process.pid}-frozen`);
      mkdirSync(frozen);
      writeFileSync(join(frozen, "file"), "");
      chmodSync(frozen, 0o555);
    } catch {
      // A TMPDIR that cannot be written is the test's to notice.
    }
  }
}

/** The mode a test gave this home (one account of an agent) in $HOME/.fake-mode, over FAKE_AGENT_MODE. */
function modeOfHome() {
  const home = process.env.HOME ?? "/nonexistent";
  try {
    const once = readFileSync(join(home, ".fake-mode-once"), "utf8").trim();
    rmSync(join(home, ".fake-mode-once"), { force: true });
    if (once !== "") return once;
  } catch {
    // none
  }
  try {
    return readFileSync(join(process.env.HOME ?? "/nonexistent", ".fake-mode"), "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

async function behave(parsedArgs) {
  const turn = interpret(parsedArgs);
  if (turn.prompt === undefined) fail("error: no prompt");
  // The real Copilot CLI makes a session's folder as it starts, and names the session on stdout only
  // in its last line.
  if (cli === "copilot" && turn.start !== undefined && process.env.HOME)
    mkdirSync(join(process.env.HOME, ".copilot", "session-state", turn.start), { recursive: true });
  const mode = modeOfHome() ?? process.env.FAKE_AGENT_MODE ?? "ok";
  const [kind, arg] = mode.split(/:(.*)/s);
  switch (kind) {
    case "echo":
      process.stdout.write(`REPLY: ${turn.prompt}\n`);
      return;
    case "exit":
      process.stderr.write("fake failure\n");
      process.exit(Number(arg));
      return;
    case "long-failure":
      // One stderr line of `arg` characters, as a CLI that dumps a whole response body.
      process.stderr.write(`fatal: ${"x".repeat(Number(arg))}\n`);
      process.exit(1);
      return;
    case "slow":
      await new Promise((resolve) => setTimeout(resolve, scaled(arg)));
      return replay(turn, turn.resume === undefined ? "turn1" : "turn2-resume");
    case "hang":
      writePids([process.pid]);
      return forever();
    case "gate":
      writePids([process.pid]);
      await gateOpen(arg || "open");
      return replay(turn, turn.resume === undefined ? "turn1" : "turn2-resume");
    case "grandchild": {
      const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
      writePids([process.pid, child.pid]);
      return forever();
    }
    case "answer-term":
      // As Copilot CLI does: answers SIGTERM with its whole successful turn, then exits 0.
      process.on("SIGTERM", () => replay(turn, "turn1"));
      writePids([process.pid]);
      return forever();
    case "ignore-term":
      // Ignored, but noted, so a test can tell that scv has passed its signal on.
      process.on("SIGTERM", () => {
        if (process.env.FAKE_AGENT_DIR) writeFileSync(join(process.env.FAKE_AGENT_DIR, "got-sigterm"), "");
      });
      writePids([process.pid]);
      return forever();
    case "fixture":
      return replay(turn, arg);
    case "fixture-hang": {
      // The first <n> stdout lines of a capture (and its stderr), then forever: a CLI waiting to retry.
      const [name, lines] = arg.split(":");
      return replay(turn, name, { hangAfter: Number(lines) });
    }
    case "start-hang":
      return replay(turn, "turn1", { hangAfter: cli === "codex" ? 2 : 1 });
    case "tools":
      return replay(turn, "turn1", { tools: Number(arg) });
    case "tool-hang": {
      // The init line, then two lines a call: the last one shown is call n's tool_use.
      const calls = arg === undefined ? 1 : Number(arg);
      return replay(turn, "turn1", { tools: calls, hangAfter: 2 * calls });
    }
    case "steps":
      return steps(turn, Number(arg));
    case "drip":
      replay(turn, "turn1", { hangAfter: 1 });
      return drip(turn.start ?? turn.resume ?? "");
    case "reply":
      return replay(turn, "turn1", { reply: `REPLY ${turn.prompt}` });
    case "reply-file":
      return replay(turn, "turn1", { reply: readFileSync(arg, "utf8") });
    case "review-grep": {
      const [word, ifFile, elseFile] = arg.split(":");
      return replay(turn, "turn1", {
        reply: readFileSync(turn.prompt.includes(word) ? ifFile : elseFile, "utf8"),
      });
    }
    case "reply-latin1":
      return replay(turn, "turn1", { reply: RAW_REPLY, rawReply: Buffer.from(arg, "latin1") });
    case "usage-numbers":
      // The capture with every token count and cost replaced by `arg` (1e308, -5, 2.5).
      return replay(turn, turn.resume === undefined ? "turn1" : "turn2-resume", { usageNumbers: arg });
    case "write":
      writeInCwd(arg);
      return replay(turn, turn.resume === undefined ? "turn1" : "turn2-resume");
    case "write-hang":
      writeInCwd(arg);
      return replay(turn, "turn1", { hangAfter: cli === "codex" ? 2 : 1 });
    case "login-prompt":
      // Byte for byte, and then forever: the lab killed that capture at its timeout.
      writePids([process.pid]);
      return replay(turn, "signed-out");
    case "escape": {
      const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
      // detached: a new session and so a new process group; only the environment still names the turn.
      const escaped = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], {
        stdio: "ignore",
        detached: true,
      });
      writePids([process.pid, child.pid, escaped.pid]);
      return forever();
    }
    default:
      return replay(turn, turn.resume === undefined ? "turn1" : "turn2-resume");
  }
}

/** `write:<path>[=<text>]`: a file in the agent's working folder, as its edit tool would write it. */
function writeInCwd(arg) {
  const at = arg.indexOf("=");
  const file = resolvePath(process.cwd(), at === -1 ? arg : arg.slice(0, at));
  mkdirSync(resolvePath(file, ".."), { recursive: true });
  const text =
    at === -1
      ? (process.env.FAKE_AGENT_WRITE_TEXT ?? `${cli} wrote this in ${basename(process.cwd())}\n`)
      : `${arg.slice(at + 1)}\n`;
  writeFileSync(file, text);
}

/** Replays a capture; a session it was told to resume must have been started in this HOME.
 * `hangAfter` lines, it waits forever instead; `tools` Bash calls go after Claude's init. */
/** `text` as bytes, with `raw` in place of each RAW_REPLY. */
function withRawBytes(text, raw) {
  const parts = text.split(RAW_REPLY).map((part) => Buffer.from(part, "utf8"));
  return Buffer.concat(parts.flatMap((part, index) => (index === 0 ? [part] : [raw, part])));
}

function replay(turn, name, { hangAfter, tools = 0, reply, usageNumbers, rawReply } = {}) {
  const base = join(FIXTURES, FIXTURE_DIRS[cli] ?? cli, name);
  if (!existsSync(`${base}.json`)) {
    // No capture of this CLI (not on npm): a plain-text reply.
    if (rawReply !== undefined) process.stdout.write(Buffer.concat([rawReply, Buffer.from("\n")]));
    else process.stdout.write(`FAKE-REPLY from ${cli}: ${turn.prompt}\n`);
    return;
  }
  const sessions = join(process.env.HOME ?? "/nonexistent", ".fake-sessions");
  const session = turn.start ?? turn.resume;
  if (turn.resume !== undefined && !existsSync(join(sessions, turn.resume))) {
    process.stderr.write(`No conversation found with session ID: ${turn.resume}\n`);
    process.exit(1);
  }
  const meta = JSON.parse(readFileSync(`${base}.json`, "utf8"));
  const captured = CAPTURED_SESSIONS[cli];
  const withSession = (text) =>
    captured !== undefined && session !== undefined ? text.replaceAll(captured, session) : text;
  // The reply sits inside JSON strings: it goes in escaped.
  const fill = (text) =>
    reply === undefined
      ? withSession(text)
      : withSession(text).replaceAll("MOCK-REPLY-1", JSON.stringify(reply).slice(1, -1));
  let stdout = fill(readFileSync(`${base}.stdout`, "utf8"));
  if (usageNumbers !== undefined)
    stdout = stdout.replace(
      /"(\w*(?:token|cost|input|output|cache|reasoning|total)\w*)":(-?[0-9][0-9.eE+-]*)/gi,
      (_, key) => `"${key}":${usageNumbers}`,
    );
  if (cli === "claude") {
    stdout = stdout.replaceAll(/"permissionMode":"[^"]*"/g, `"permissionMode":"${claudeMode()}"`);
    if (reply !== undefined && parsed.options["--json-schema"] !== undefined)
      stdout = withStructured(stdout, reply);
    if (tools > 0) stdout = withToolCalls(stdout, tools);
  }
  if (hangAfter !== undefined) stdout = `${stdout.split("\n").slice(0, hangAfter).join("\n")}\n`;
  process.stderr.write(fill(readFileSync(`${base}.stderr`, "utf8")));
  const outFile = lastMessageFile();
  // Codex writes it at shutdown, after a turn that ended: never for a turn that hangs.
  if (outFile !== undefined && hangAfter === undefined && existsSync(`${base}.last-message.txt`)) {
    writeFileSync(outFile, rawReply ?? reply ?? readFileSync(`${base}.last-message.txt`));
  }
  // Remember the session this turn reported, as the real CLI keeps its transcript in its home.
  const reported = session ?? /"(?:thread_id|id|sessionID)":"([^"]+)"/.exec(stdout)?.[1];
  if (reported !== undefined && meta.exit_code === 0) {
    mkdirSync(sessions, { recursive: true });
    writeFileSync(join(sessions, reported), "");
  }
  // Before anything scv could react to: it may stop this process at once.
  if (hangAfter !== undefined) writePids([process.pid]);
  const thread = /"thread_id":"([^"]+)"/.exec(stdout)?.[1];
  if (cli === "codex" && thread !== undefined) writeRollout(thread);
  const lingering = linger();
  // $FAKE_AGENT_FILL: as an agent that fills the disk before its last word.
  if (process.env.FAKE_AGENT_FILL) fillDisk(process.env.FAKE_AGENT_FILL);
  const finish = () => {
    if (hangAfter !== undefined || lingering) return forever();
    // The lab killed a capture that never ended (exit 124): so does this one, by waiting.
    if (meta.exit_code === 124 || meta.timed_out) return forever();
    process.exit(meta.exit_code ?? 0);
  };
  if (rawReply !== undefined) process.stdout.write(withRawBytes(stdout, rawReply), finish);
  else writePaused(stdout, finish);
}

/** Writes `text`, pausing $FAKE_AGENT_PAUSE_MS after the first line that contains
 * $FAKE_AGENT_PAUSE_AFTER (a CLI's backoff before a retry), then calls `done`. */
function writePaused(text, done) {
  const marker = process.env.FAKE_AGENT_PAUSE_AFTER;
  const at = marker ? text.indexOf(marker) : -1;
  if (at === -1) return process.stdout.write(text, done);
  const cut = text.indexOf("\n", at) + 1;
  process.stdout.write(text.slice(0, cut), () =>
    setTimeout(
      () => process.stdout.write(text.slice(cut), done),
      scaled(process.env.FAKE_AGENT_PAUSE_MS ?? 0),
    ),
  );
}

/** $FAKE_AGENT_LINGER: what stays after the capture is printed. `self`: this process, which never
 * exits; `child`: a child in its process group holding stdout, this process exits as captured;
 * `escaped-child`: the same child in a session of its own. Their pids go to pids.json first.
 * Returns whether this process stays. */
function linger() {
  const how = process.env.FAKE_AGENT_LINGER;
  if (how === undefined || how === "") return false;
  if (how === "self") {
    writePids([process.pid]);
    return true;
  }
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], {
    stdio: ["ignore", "inherit", "inherit"],
    detached: how === "escaped-child",
  });
  child.unref();
  writePids([process.pid, child.pid]);
  return false;
}

/** Writes `path` until the file system has no room left. */
function fillDisk(path) {
  const fd = openSync(path, "a");
  const chunk = Buffer.alloc(64 * 1024, 120);
  try {
    for (;;) writeSync(fd, chunk);
  } catch {
    // Full. Then the last few bytes, in smaller writes.
    try {
      for (;;) writeSync(fd, chunk.subarray(0, 512));
    } catch {
      // Full to the byte.
    }
  } finally {
    closeSync(fd);
  }
}

/** Claude's result line with `structured_output` (the reply as an object, where it is one). */
function withStructured(stdout, reply) {
  let object;
  try {
    object = JSON.parse(reply);
  } catch {
    return stdout;
  }
  if (object === null || typeof object !== "object" || Array.isArray(object)) return stdout;
  return stdout
    .split("\n")
    .map((line) => {
      if (!line.startsWith("{") || !line.includes('"type":"result"')) return line;
      const event = JSON.parse(line);
      return JSON.stringify({ ...event, structured_output: object });
    })
    .join("\n");
}

/** The permission mode claude reports in its init event. */
function claudeMode() {
  if (process.env.FAKE_AGENT_PERMISSION_MODE) return process.env.FAKE_AGENT_PERMISSION_MODE;
  if (parsed.options["--dangerously-skip-permissions"]) return "bypassPermissions";
  return last(parsed.options, "--permission-mode") ?? "default";
}

/** `count` Bash tool calls (each a tool_use and its tool_result) after the init line. */
function withToolCalls(stdout, count) {
  const [init, ...rest] = stdout.split("\n");
  const session = /"session_id":"([^"]+)"/.exec(init ?? "")?.[1] ?? "";
  const calls = [];
  for (let i = 1; i <= count; i += 1) calls.push(...toolCall(i, session));
  return [init, ...calls, ...rest].join("\n");
}

/** turn1's init, `count` Bash calls each held open until its step file exists, then the rest. */
async function steps(turn, count) {
  const stdout = readFileSync(join(FIXTURES, "claude", "turn1.stdout"), "utf8")
    .replaceAll(CAPTURED_SESSIONS.claude, turn.start ?? "")
    .replaceAll(/"permissionMode":"[^"]*"/g, `"permissionMode":"${claudeMode()}"`);
  const [init, ...rest] = stdout.split("\n");
  const write = (text) => new Promise((resolve) => process.stdout.write(text, resolve));
  writePids([process.pid]);
  await write(`${init}\n`);
  for (let i = 1; i <= count; i += 1) {
    const [use, result] = toolCall(i, turn.start ?? "");
    await write(`${use}\n`);
    const step = join(process.env.FAKE_AGENT_DIR ?? ".", `step-${i}`);
    while (!existsSync(step)) await new Promise((resolve) => setTimeout(resolve, 20));
    await write(`${result}\n`);
  }
  if (turn.start !== undefined) {
    const sessions = join(process.env.HOME ?? "/nonexistent", ".fake-sessions");
    mkdirSync(sessions, { recursive: true });
    writeFileSync(join(sessions, turn.start), "");
  }
  await write(rest.join("\n"));
  process.exit(0);
}

/** One Bash tool call every 50 ms, forever. */
function drip(session) {
  // A reader that went away (its scv killed) does not end it: it goes on working until something
  // ends it, as a CLI busy in a tool does, not at its next write.
  process.stdout.on("error", () => {});
  let i = 0;
  setInterval(() => {
    i += 1;
    process.stdout.write(`${toolCall(i, session).join("\n")}\n`);
  }, 50);
}

/** Claude's two lines for Bash call `i`: its tool_use and its tool_result. */
function toolCall(i, session) {
  const id = `toolu_fake_${i}`;
  return [
    JSON.stringify({
      type: "assistant",
      message: {
        id: `msg_fake_${i}`,
        type: "message",
        role: "assistant",
        content: [
          {
            type: "tool_use",
            id,
            name: "Bash",
            input: { command: process.env.FAKE_AGENT_TOOL_COMMAND ?? `echo step ${i}` },
          },
        ],
      },
      parent_tool_use_id: null,
      session_id: session,
    }),
    JSON.stringify({
      type: "user",
      message: {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: id, content: toolOutput(i) }],
      },
      parent_tool_use_id: null,
      session_id: session,
    }),
  ];
}

function toolOutput(i) {
  const bytes = Number(process.env.FAKE_AGENT_TOOL_OUTPUT_BYTES ?? 0);
  return bytes > 0 ? "x".repeat(bytes) : `step ${i}`;
}

/** Codex's rollout file for `thread` in $CODEX_HOME/sessions/YYYY/MM/DD, as codex exec writes it:
 * a session_meta line when it starts the thread, a turn_context line per turn. */
function writeRollout(thread) {
  const home = process.env.CODEX_HOME;
  if (!home) return;
  const sessions = join(home, "sessions");
  const now = new Date();
  const existing = existsSync(sessions)
    ? readdirSync(sessions, { recursive: true, encoding: "utf8" }).find((name) =>
        name.endsWith(`-${thread}.jsonl`),
      )
    : undefined;
  let path;
  if (existing !== undefined) path = join(sessions, existing);
  else {
    const day = now.toISOString().slice(0, 10).split("-");
    const dir = join(sessions, ...day);
    mkdirSync(dir, { recursive: true });
    const stamp = now.toISOString().slice(0, 19).replaceAll(":", "-");
    path = join(dir, `rollout-${stamp}-${thread}.jsonl`);
    const meta = {
      id: thread,
      session_id: thread,
      cwd: process.cwd(),
      originator: "codex_exec",
      source: "exec",
    };
    writeFileSync(
      path,
      `${JSON.stringify({ timestamp: now.toISOString(), type: "session_meta", payload: meta })}\n`,
    );
  }
  const sandbox =
    process.env.FAKE_AGENT_PERMISSION_MODE ??
    (parsed.options["--dangerously-bypass-approvals-and-sandbox"] ? "danger-full-access" : "read-only");
  const context = {
    timestamp: now.toISOString(),
    type: "turn_context",
    payload: {
      cwd: process.cwd(),
      approval_policy: "never",
      sandbox_policy: { type: sandbox },
      model: "fake",
    },
  };
  appendFileSync(path, `${JSON.stringify(context)}\n`);
}

function lastMessageFile() {
  const values = parsed.options["-o"] ?? parsed.options["--output-last-message"];
  return values?.at(-1);
}

/** Written whole and renamed into place, so a test polling for it never reads half of it; the
 * temporary file is this process's own, since the turns of a fan-out write theirs at once. */
function writePids(pids) {
  const dir = process.env.FAKE_AGENT_DIR;
  if (!dir) return;
  const name = process.env.FAKE_AGENT_PIDS ?? "pids.json";
  const temporary = join(dir, `${name}.${process.pid}.tmp`);
  writeFileSync(temporary, JSON.stringify(pids));
  renameSync(temporary, join(dir, name));
}

/** Resolves once $FAKE_AGENT_DIR/<name> exists. */
async function gateOpen(name) {
  const path = join(process.env.FAKE_AGENT_DIR ?? "/nonexistent", name);
  while (!existsSync(path)) await new Promise((resolve) => setTimeout(resolve, 20));
}

function forever() {
  setInterval(() => {}, 1 << 30);
  return new Promise(() => {});
}

function fail(message, code = 1) {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}
