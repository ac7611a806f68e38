#!/usr/bin/env node
// `acme`: a CLI scv does not ship, for the end-to-end test of an agent defined in scv's config. Its
// grammar is its own: `acme run --stream [--model <m>] [--sid <uuid> | --resume <uuid>] -- <prompt>`
// (anything else exits 1, as a real CLI's parser does). It speaks Claude Code's stream-json: it
// replays the real captures test/fixtures/claude/turn1 (first turn) and turn2-resume (continued)
// with the session id it was given, and a session it is asked to resume must have been started in
// this HOME. It records its call in $FAKE_AGENT_DIR like agent.mjs. With `--tui` (`acme --tui
// [--resume <uuid>]`) it is the interactive UI: it prints a prompt on its terminal, echoes each line
// it reads, writes a file in its working folder on "/write <path>" (as its edit tool would), and
// exits on "/quit".

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const FIXTURES = fileURLToPath(new URL("../fixtures/claude/", import.meta.url));
const CAPTURED_SESSION = "3f0c9a52-6a53-4a8e-9c1e-2f7d5b8e4a10";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const argv = process.argv.slice(2);

function fail(message) {
  process.stderr.write(`acme: ${message}\n`);
  process.exit(1);
}

function record(kind) {
  const dir = process.env.FAKE_AGENT_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const entry = {
    cli: "acme",
    kind,
    argv,
    env: process.env,
    cwd: process.cwd(),
    pid: process.pid,
    stdin: process.stdin.isTTY ? "tty" : "other",
    tmpMode: null,
  };
  writeFileSync(join(dir, `acme-${Date.now()}-${process.pid}.json`), JSON.stringify(entry, null, 2));
}

const options = {};
const positionals = [];
let rest = false;
const tui = argv[0] === "--tui";
for (let i = 1; i < argv.length; i += 1) {
  const arg = argv[i] ?? "";
  if (rest || !arg.startsWith("-")) {
    positionals.push(arg);
    continue;
  }
  if (arg === "--") rest = true;
  else if (arg === "--stream") options.stream = true;
  else if (arg === "--model" || arg === "--sid" || arg === "--resume" || arg === "--tag") {
    const value = argv[i + 1];
    if (value === undefined) fail(`${arg} needs a value`);
    options[arg.slice(2)] = value;
    i += 1;
  } else fail(`unknown option ${arg}`);
}

const sessions = join(process.env.HOME ?? "/nonexistent", ".acme-sessions");
if (options.resume !== undefined && !existsSync(join(sessions, options.resume))) {
  fail(`no session ${options.resume}`);
}

if (tui) {
  record("tui");
  if (!process.stdin.isTTY || !process.stdout.isTTY) fail("the interactive UI needs a terminal");
  process.stdout.write(`ACME UI${options.resume ? ` session ${options.resume}` : ""}\n> `);
  const lines = createInterface({ input: process.stdin });
  lines.on("line", (line) => {
    if (line.trim() === "/quit") {
      process.stdout.write("bye\n");
      process.exit(0);
    }
    const write = /^\/write (\S+)$/.exec(line.trim());
    if (write !== null) {
      writeFileSync(join(process.cwd(), write[1]), "written in the UI\n");
      process.stdout.write(`wrote ${write[1]}\n> `);
      return;
    }
    process.stdout.write(`you said: ${line}\n> `);
  });
} else {
  if (argv[0] !== "run") fail(`unknown command ${argv[0] ?? "(none)"}`);
  if (!options.stream) fail("only --stream output is supported");
  if (positionals.length !== 1) fail(`expected one prompt, got ${positionals.length}`);
  const session = options.sid ?? options.resume;
  if (session === undefined || !UUID.test(session)) fail("a session id is required (--sid or --resume)");
  record("turn");
  const name = options.resume === undefined ? "turn1" : "turn2-resume";
  const stdout = readFileSync(join(FIXTURES, `${name}.stdout`), "utf8").replaceAll(CAPTURED_SESSION, session);
  mkdirSync(sessions, { recursive: true });
  writeFileSync(join(sessions, session), "");
  process.stdout.write(stdout);
}
