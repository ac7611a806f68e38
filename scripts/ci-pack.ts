// The pack check (`npm run test:pack`, a step of .ci/run): proves the artifact users install rather
// than the tree. `npm pack` (prepack builds dist/ and its notices), then the tarball's file list and
// package.json (scripts/package-check.ts), then `npm install -g` of the tarball into an empty
// prefix, offline with an empty cache (the package needs nothing else), then through the installed
// `scv` — on PATH, started by its own shebang — `--version`, `agents list`, a sign-in and a turn
// with a fake agent and an `scv mcp` handshake, on the machine's Node, on the lowest one `engines`
// admits and on the pinned lines of scripts/install-node.mjs; last, the same through
// `npx <tarball>` from an empty npx cache. Exits 1 with one line per problem. SCV_PACK_KEEP=1 keeps
// the temp folder.

import { type SpawnSyncOptions, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { NOTICES_FILE, noticedPackages } from "./notices.js";
import { manifestProblems, packedFileProblems } from "./package-check.js";

const ROOT = join(import.meta.dirname, "..");
const FAKE_AGENT = join(ROOT, "test", "fake-agents", "agent.mjs");
const NODE_LINES = ["22", "24"];

class CheckFailed extends Error {}

function log(message: string): void {
  process.stderr.write(`pack-check: ${message}\n`);
}

interface Ran {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(file: string, args: readonly string[], options: SpawnSyncOptions = {}): Ran {
  const result = spawnSync(file, args, { encoding: "utf8", timeout: 300_000, ...options });
  if (result.error) throw new CheckFailed(`${file} ${args.join(" ")}: ${result.error.message}`);
  return { status: result.status, stdout: String(result.stdout), stderr: String(result.stderr) };
}

function must(ran: Ran, what: string): Ran {
  if (ran.status !== 0)
    throw new CheckFailed(`${what} exited ${ran.status}: ${(ran.stderr || ran.stdout).trim().slice(-2000)}`);
  return ran;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

/** The lowest version `engines.node` admits, for a range of the form ">=x[.y[.z]]". */
export function enginesFloor(range: unknown): string {
  const match = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(String(range).trim());
  if (match === null)
    throw new CheckFailed(`engines.node is '${String(range)}'; the check expects '>=x.y.z'`);
  return `${match[1]}.${match[2] ?? 0}.${match[3] ?? 0}`;
}

/** The bin directory of a Node from scripts/install-node.mjs (installed on first use). */
function nodeBin(spec: string): string {
  const ran = must(
    run(process.execPath, [join(ROOT, "scripts", "install-node.mjs"), spec]),
    `install-node ${spec}`,
  );
  return ran.stdout.trim().split("\n").at(-1) ?? "";
}

function checkTarball(work: string): { tarball: string; version: string; floor: string } {
  const started = Date.now();
  must(run("npm", ["pack", "--pack-destination", work, "--loglevel=warn"], { cwd: ROOT }), "npm pack");
  const tarball = readdirSync(work).find((name) => name.endsWith(".tgz"));
  if (tarball === undefined) throw new CheckFailed(`npm pack left no tarball in ${work}`);
  const unpacked = join(work, "unpacked");
  mkdirSync(unpacked);
  must(run("tar", ["-xzf", join(work, tarball), "-C", unpacked]), "tar");
  const pkg = join(unpacked, "package");
  const packed = filesUnder(pkg);
  const read = (path: string) => readFileSync(join(pkg, path), "utf8");
  const manifest = JSON.parse(read("package.json")) as Record<string, unknown>;
  const problems = [
    ...packedFileProblems({ packed, built: filesUnder(join(ROOT, "dist")).map((f) => `dist/${f}`), read }),
    ...manifestProblems(manifest),
  ];
  const notices = packed.includes(NOTICES_FILE) ? read(NOTICES_FILE) : "";
  for (const name of noticedPackages(join(ROOT, "src")))
    if (!notices.includes(`\n## ${name}@`)) problems.push(`${NOTICES_FILE} has no notice for ${name}`);
  const ownVersion = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string })
    .version;
  if (manifest.version !== ownVersion)
    problems.push(`packed version ${manifest.version}, package.json ${ownVersion}`);
  if (problems.length > 0) throw new CheckFailed(problems.join("\n"));
  const size = packed.reduce((sum, path) => sum + readFileSync(join(pkg, path)).length, 0);
  log(
    `${tarball}: ${packed.length} files, ${Math.round(size / 1024)} KB unpacked (${Date.now() - started} ms)`,
  );
  return {
    tarball: join(work, tarball),
    version: String(manifest.version),
    floor: enginesFloor((manifest.engines as { node?: unknown } | undefined)?.node),
  };
}

/** A user's world: HOME, SCV_HOME, a project, and the fake agent first on PATH as `claude`. */
function world(work: string, name: string, bins: readonly string[]): { env: NodeJS.ProcessEnv; cwd: string } {
  const root = join(work, name);
  for (const dir of ["home", "project", "fake-bin", "calls", "tmp"])
    mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(
    join(root, "fake-bin", "claude"),
    `#!${process.execPath}\nimport(${JSON.stringify(FAKE_AGENT)});\n`,
    {
      mode: 0o755,
    },
  );
  return {
    cwd: join(root, "project"),
    env: {
      PATH: [...bins, join(root, "fake-bin"), "/usr/bin", "/bin"].join(":"),
      HOME: join(root, "home"),
      SCV_HOME: join(root, "scv-home"),
      TMPDIR: join(root, "tmp"),
      FAKE_AGENT_DIR: join(root, "calls"),
      LANG: "C.UTF-8",
      TERM: "dumb",
    },
  };
}

/** An MCP client's first messages: initialize, initialized, tools/list. */
const MCP_HANDSHAKE = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "pack-check", version: "0" },
    },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/list" },
]
  .map((message) => `${JSON.stringify(message)}\n`)
  .join("");

/** `scv --version`, `agents list` (a `--version` probe), a sign-in, a turn and an `scv mcp`
 * handshake through `command` (the installed `scv`, or npx). */
function smoke(
  label: string,
  command: readonly string[],
  version: string,
  w: ReturnType<typeof world>,
): void {
  const started = Date.now();
  const [file, ...pre] = command as [string, ...string[]];
  const scv = (args: readonly string[], input?: string) =>
    run(file, [...pre, ...args], { cwd: w.cwd, env: w.env, ...(input === undefined ? {} : { input }) });
  const problems: string[] = [];
  const shown = scv(["--version"]);
  if (shown.status !== 0 || shown.stdout !== `${version}\n`)
    problems.push(`scv --version: exit ${shown.status}, '${shown.stdout.trim()}' (expected ${version})`);
  // The version comes from the CLI's own `--version`, which scv runs (src/process/helpers.ts).
  const list = scv(["agents", "list"]);
  if (list.status !== 0 || !/^claude +.*fake-bin\/claude +0\.0\.0-fake /m.test(list.stdout))
    problems.push(
      `scv agents list: exit ${list.status}, no installed claude 0.0.0-fake in: ${list.stdout}${list.stderr}`,
    );
  const login = scv(["agents", "login", "claude", "--with-api-key"], "sk-pack-check\n");
  if (login.status !== 0)
    problems.push(`scv agents login claude: exit ${login.status}: ${login.stderr.trim()}`);
  const turn = scv(["delegate", "claude", "Say hi"]);
  if (turn.status !== 0 || turn.stdout !== "MOCK-REPLY-1\n")
    problems.push(`scv delegate claude: exit ${turn.status}, '${turn.stdout.trim()}': ${turn.stderr.trim()}`);
  // scv mcp loads the MCP server SDK from dist/vendor/mcp-server.js: initialize, then its tools.
  const mcp = scv(["mcp"], MCP_HANDSHAKE);
  const answers = mcp.stdout.split("\n").filter((line) => line !== "");
  if (mcp.status !== 0 || answers.length !== 2 || !answers[1]?.includes('"name":"delegate"'))
    problems.push(`scv mcp: exit ${mcp.status}, '${mcp.stdout.slice(0, 300)}': ${mcp.stderr.trim()}`);
  const node = run("node", ["--version"], { env: w.env }).stdout.trim();
  if (problems.length > 0)
    throw new CheckFailed(problems.map((p) => `${label} on Node ${node}: ${p}`).join("\n"));
  log(`${label} on Node ${node}: --version, agents list, login, a turn, mcp (${Date.now() - started} ms)`);
}

function main(): void {
  const work = mkdtempSync(join(tmpdir(), "scv-pack-"));
  try {
    const { tarball, version, floor } = checkTarball(work);
    const prefix = join(work, "prefix");
    const npmEnv = {
      ...process.env,
      npm_config_cache: join(work, "npm-cache"),
      npm_config_update_notifier: "false",
    };
    const started = Date.now();
    const install = must(
      run("npm", ["install", "-g", "--offline", "--no-audit", "--no-fund", "--prefix", prefix, tarball], {
        env: npmEnv,
      }),
      "npm install -g <tarball>",
    );
    if (/install-scripts/.test(install.stderr))
      throw new CheckFailed(`npm install: ${install.stderr.trim()}`);
    log(`npm install -g --offline into an empty prefix (${Date.now() - started} ms)`);
    const scvBin = join(prefix, "bin");
    if (!existsSync(join(scvBin, "scv"))) throw new CheckFailed(`no scv in ${scvBin} after the install`);
    const nodes: Array<readonly [string, string]> = [
      ["machine", dirname(process.execPath)],
      ["floor", nodeBin(floor)],
      ...NODE_LINES.map((line) => [line, nodeBin(line)] as const),
    ];
    for (const [name, bin] of nodes)
      smoke("installed scv", ["scv"], version, world(work, `world-${name}`, [scvBin, bin]));
    // npx: the same package from a fresh npx cache, which it runs from a path of its own.
    const npx = world(work, "world-npx", [dirname(process.execPath)]);
    npx.env = { ...npx.env, npm_config_cache: join(work, "npx-cache"), npm_config_offline: "true" };
    smoke("npx file:<tarball>", ["npx", "--yes", `file:${tarball}`], version, npx);
    if (!existsSync(join(work, "npx-cache", "_npx")))
      throw new CheckFailed(`npx did not install into its cache (${join(work, "npx-cache", "_npx")})`);
  } finally {
    if (process.env.SCV_PACK_KEEP === "1") log(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.filename === process.argv[1]) {
  const started = Date.now();
  try {
    main();
    log(`passed (${Math.round((Date.now() - started) / 1000)} s)`);
  } catch (error) {
    if (!(error instanceof CheckFailed)) throw error;
    for (const line of error.message.split("\n")) log(line);
    process.exitCode = 1;
  }
}
