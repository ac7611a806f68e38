// The contract suite's side of scv: a temp lab per CLI (its own SCV_HOME, user HOME and git-initialised
// project folder), the BUILT scv (dist/scv.js) run as a user would run it, scv's config file, a shared
// copilot package cache, and a check that nothing a turn started is still running.
//
// Every scv call is bounded (its own timeout, then SIGKILL of its whole process group), and scv's
// environment carries a tag variable no isolation rule removes, so a process the CLI left behind is
// found by that tag in /proc/<pid>/environ, or by a cwd inside the lab.
import { spawn, spawnSync } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

let snapshot: string | undefined;

/**
 * The built scv every lab runs: `$SCV_REAL_SCV`, else a private copy of dist/ (the bundle has no external
 * imports). Several engineers build in one working tree and the build starts by deleting dist/, so a
 * suite running from dist/ itself lost it mid-run. The copy is keyed by the bundle's hash in
 * `$TMPDIR/scv-contract-dist/<hash>` (shared by the run's test files); copies unused for a day are pruned.
 */
export function scvEntry(): string {
  if (process.env.SCV_REAL_SCV) return process.env.SCV_REAL_SCV;
  if (snapshot !== undefined) return snapshot;
  const dist = join(REPO, "dist");
  const until = Date.now() + 60_000;
  // A build in progress (dist/ deleted, not yet written) finishes within seconds.
  while (!existsSync(join(dist, "scv.js"))) {
    if (Date.now() > until) throw new Error(`${dist}/scv.js is missing — run npm run build first`);
    spawnSync("sleep", ["0.5"]);
  }
  const hash = createHash("sha256")
    .update(readFileSync(join(dist, "scv.js")))
    .digest("hex")
    .slice(0, 16);
  const root = join(tmpdir(), "scv-contract-dist");
  const dir = join(root, hash);
  mkdirSync(root, { recursive: true });
  if (!existsSync(join(dir, "scv.js"))) {
    const staging = mkdtempSync(join(root, ".staging-"));
    cpSync(dist, staging, { recursive: true });
    try {
      renameSync(staging, dir);
    } catch {
      // Another test file copied the same build first.
      rmSync(staging, { recursive: true, force: true });
    }
  }
  const dayAgo = Date.now() - 86_400_000;
  for (const name of readdirSync(root)) {
    const path = join(root, name);
    if (name !== hash && (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0) < dayAgo) {
      rmSync(path, { recursive: true, force: true });
    }
  }
  snapshot = join(dir, "scv.js");
  return snapshot;
}

/** A loopback port nothing listens on (discard): proxied connections are refused at once. */
const DEAD_PROXY = "http://127.0.0.1:9";

/** The variable that marks every process started from a lab (no isolation rule removes it). */
export const TAG_VARIABLE = "CONTRACT_LAB_TAG";

export interface ScvRun {
  readonly args: readonly string[];
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** scv itself outlived the harness's limit and was killed. */
  readonly killed: boolean;
  readonly stdout: string;
  readonly stderr: string;
  readonly durationMs: number;
}

/** A one-paragraph account of a run, for assertion messages. */
export function describeRun(run: ScvRun): string {
  return [
    `scv ${run.args.join(" ")} → exit ${run.code ?? run.signal}${run.killed ? " (killed by the harness)" : ""} in ${run.durationMs} ms`,
    `stdout: ${run.stdout.trim().slice(-3000) || "(empty)"}`,
    `stderr: ${run.stderr.trim().slice(-3000) || "(empty)"}`,
  ].join("\n");
}

export interface LabOptions {
  /** The pinned CLIs' bin folder (first on PATH). */
  readonly bin: string;
  /** Extra variables in scv's own environment (and so, unless isolation removes them, the agent's). */
  readonly env?: Record<string, string>;
}

/** One temp SCV_HOME + user HOME + project folder. */
export class Lab implements AsyncDisposable {
  readonly root: string;
  /** The user's HOME (never written by a turn). */
  readonly home: string;
  readonly scvHome: string;
  /** The project the agents work in: its own git repository. */
  readonly cwd: string;
  readonly tag = randomUUID();
  readonly env: Record<string, string>;

  constructor(name: string, options: LabOptions) {
    this.root = mkdtempSync(join(tmpdir(), `scv-contract-${name}-`));
    this.home = join(this.root, "home");
    this.scvHome = join(this.root, "scv");
    this.cwd = join(this.root, "work");
    for (const dir of [this.home, this.cwd, this.tmp]) mkdirSync(dir, { recursive: true });
    const git = spawnSync("git", ["init", "-q", this.cwd], { stdio: "ignore" });
    if (git.status !== 0) throw new Error(`git init ${this.cwd} failed`);
    this.env = {
      PATH: [options.bin, dirname(process.execPath), "/usr/bin", "/bin"].join(":"),
      HOME: this.home,
      SCV_HOME: this.scvHome,
      LANG: "C.UTF-8",
      TERM: "dumb",
      NO_COLOR: "1",
      USER: "scv-contract",
      LOGNAME: "scv-contract",
      SHELL: "/bin/bash",
      TMPDIR: this.tmp,
      DO_NOT_TRACK: "1",
      // Outbound traffic a CLI routes through a proxy fails at once on a closed loopback port; the mocks
      // on 127.0.0.1 are reached directly.
      HTTP_PROXY: DEAD_PROXY,
      HTTPS_PROXY: DEAD_PROXY,
      ALL_PROXY: DEAD_PROXY,
      http_proxy: DEAD_PROXY,
      https_proxy: DEAD_PROXY,
      NO_PROXY: "127.0.0.1,localhost",
      no_proxy: "127.0.0.1,localhost",
      [TAG_VARIABLE]: this.tag,
      ...options.env,
    };
  }

  /** The user's TMPDIR. */
  get tmp(): string {
    return join(this.root, "tmp");
  }

  agentHome(agent: string): string {
    return join(this.scvHome, "agents", agent);
  }

  get configPath(): string {
    return join(this.scvHome, "config.toml");
  }

  /** Writes scv's config file (the TOML text as given). */
  writeConfig(toml: string): void {
    mkdirSync(this.scvHome, { recursive: true, mode: 0o700 });
    writeFileSync(this.configPath, toml, { mode: 0o600 });
  }

  /** Runs the built scv; never longer than `limitMs` (then its process group is SIGKILLed). */
  scv(args: readonly string[], options: { input?: string; limitMs?: number } = {}): Promise<ScvRun> {
    return runBounded(process.execPath, [scvEntry(), ...args], {
      cwd: this.cwd,
      env: this.env,
      input: options.input,
      limitMs: options.limitMs ?? 120_000,
    }).then((run) => ({ ...run, args }));
  }

  /** Runs another program in the lab's project (an MCP host CLI that starts scv itself), with `env`
   * as its whole environment (default: the lab's); bounded like `scv`. */
  run(
    file: string,
    args: readonly string[],
    options: { env?: Record<string, string>; input?: string; limitMs?: number } = {},
  ): Promise<ScvRun> {
    return runBounded(file, args, {
      cwd: this.cwd,
      env: options.env ?? this.env,
      input: options.input,
      limitMs: options.limitMs ?? 120_000,
    }).then((run) => ({ ...run, args }));
  }

  /** Processes still alive that were started from this lab. */
  leftovers(): LeftProcess[] {
    return processesOf(this.tag, this.root);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    // Whatever a failed assertion left running must not outlive the test.
    for (const left of this.leftovers()) {
      try {
        process.kill(left.pid, "SIGKILL");
      } catch {
        // gone
      }
    }
    if (!process.env.SCV_REAL_KEEP) rmSync(this.root, { recursive: true, force: true });
  }
}

function runBounded(
  file: string,
  args: readonly string[],
  options: { cwd: string; env: Record<string, string>; input?: string; limitMs: number },
): Promise<Omit<ScvRun, "args">> {
  const started = Date.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(file, [...args], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let killed = false;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.stdin.on("error", () => {});
    child.stdin.end(options.input ?? "");
    const timer = setTimeout(() => {
      killed = true;
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }, options.limitMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, killed, stdout, stderr, durationMs: Date.now() - started });
    });
  });
}

export interface LeftProcess {
  readonly pid: number;
  readonly command: string;
  readonly why: string;
}

/** Live processes whose environment carries `tag` or whose cwd is inside `root` (zombies excluded). */
export function processesOf(tag: string, root: string): LeftProcess[] {
  const found: LeftProcess[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      if (state === "Z" || state === "X") continue;
      const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
      let why: string | undefined;
      if (readFileSync(`/proc/${pid}/environ`, "utf8").includes(`${TAG_VARIABLE}=${tag}`)) why = "tagged";
      else {
        const cwd = readlinkSync(`/proc/${pid}/cwd`);
        if (cwd === root || cwd.startsWith(`${root}/`)) why = `cwd ${cwd}`;
      }
      if (why !== undefined) found.push({ pid, command: command.slice(0, 200), why });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/** Waits (up to `ms`) until no process of the lab is left; returns those still there. */
export async function settle(lab: Lab, ms = 5_000): Promise<LeftProcess[]> {
  const until = Date.now() + ms;
  for (;;) {
    const left = lab.leftovers();
    if (left.length === 0 || Date.now() >= until) return left;
    await new Promise((done) => setTimeout(done, 100));
  }
}

/** Sets the mtime (and atime) of every file below `dir` (and the folders) `ageMs` into the past. */
export function ageTree(dir: string, ageMs: number): string[] {
  const when = new Date(Date.now() - ageMs);
  const touched: string[] = [];
  const visit = (path: string) => {
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats === undefined) return;
    if (stats.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
    utimesSync(path, when, when);
    if (stats.isFile()) touched.push(path);
  };
  visit(dir);
  return touched;
}

/** Makes scv's conversation records look unused for `ageMs`: `updatedAt` and mtime in the past. */
export function ageRecords(scvHome: string, ageMs: number): void {
  const dir = join(scvHome, "conversations");
  if (!existsSync(dir)) return;
  const when = new Date(Date.now() - ageMs);
  for (const name of readdirSync(dir)) {
    if (!name.endsWith(".json")) continue;
    const path = join(dir, name);
    const record = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
    record.updatedAt = when.toISOString();
    writeFileSync(path, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
    utimesSync(path, when, when);
  }
}

/** Every file below `dir` with `extension`, relative to `dir`. */
export function filesBelow(dir: string, extension: string): string[] {
  const out: string[] = [];
  const visit = (path: string, rel: string) => {
    let names: string[];
    try {
      names = readdirSync(path);
    } catch {
      return;
    }
    for (const name of names) {
      const child = join(path, name);
      const childRel = rel === "" ? name : `${rel}/${name}`;
      const stats = statSync(child, { throwIfNoEntry: false });
      if (stats?.isDirectory()) visit(child, childRel);
      else if (stats?.isFile() && name.endsWith(`.${extension}`)) out.push(childRel);
    }
  };
  visit(dir, "");
  return out.sort();
}

// ---------------------------------------------------------------------------------------------
// Copilot's package cache
//
// On its first run Copilot CLI unpacks ~235 MB into `$XDG_CACHE_HOME/copilot/pkg/<platform>/<version>`
// (2–5 s, more under load), and scv points XDG_CACHE_HOME into each agent home, so every fresh lab would
// pay for it again. The suite unpacks it once into `<install dir>/.shared-cache/` (outside the tree,
// beside the pinned CLIs, keyed by the same pin hash) and symlinks `<agent home>/.cache/copilot/pkg`
// to it before the lab's first copilot call. Copilot only reads an unpacked version it finds there
// (auto-update is off), the symlink goes with the lab, and the shared copy is built in a staging
// folder renamed into place, so an interrupted unpack never leaves a half-filled cache behind.

/** The shared `copilot/pkg` folder, unpacked on first use. */
export function sharedCopilotPkg(bin: string, version: string): string {
  const installRoot = dirname(dirname(bin));
  const shared = join(installRoot, ".shared-cache");
  const pkg = join(shared, "copilot", "pkg");
  const ready = join(shared, `copilot-${version}.ready`);
  if (existsSync(ready)) return pkg;
  const staging = mkdtempSync(join(installRoot, ".shared-cache-staging-"));
  try {
    const scratchHome = join(staging, "home");
    mkdirSync(scratchHome);
    const result = spawnSync(join(bin, "copilot"), ["--version"], {
      cwd: scratchHome,
      encoding: "utf8",
      timeout: 120_000,
      env: {
        PATH: [bin, dirname(process.execPath), "/usr/bin", "/bin"].join(":"),
        HOME: scratchHome,
        XDG_CACHE_HOME: join(staging, "cache"),
        COPILOT_AUTO_UPDATE: "false",
        LANG: "C.UTF-8",
      },
    });
    if (result.status !== 0 || !result.stdout.includes(version)) {
      throw new Error(
        `copilot --version while unpacking the shared cache: exit ${result.status ?? result.signal}: ${result.stdout}${result.stderr}`,
      );
    }
    rmSync(shared, { recursive: true, force: true });
    mkdirSync(join(shared, "copilot"), { recursive: true });
    renameSync(join(staging, "cache", "copilot", "pkg"), pkg);
    writeFileSync(ready, `${new Date().toISOString()}\n`);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return pkg;
}

/** Links `<agentHome>/.cache/copilot/pkg` to the shared unpacked package. */
export function linkCopilotCache(agentHome: string, sharedPkg: string): void {
  const dir = join(agentHome, ".cache", "copilot");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const link = join(dir, "pkg");
  if (!existsSync(link)) symlinkSync(sharedPkg, link, "dir");
}
