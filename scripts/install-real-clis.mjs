#!/usr/bin/env node
// Installs the pinned real agent CLIs that the contract suite (test/real/) drives, into a cache folder
// outside the source tree, and prints that install's bin directory as the last line of stdout.
//
//   node scripts/install-real-clis.mjs              install if needed, verify, print the bin dir
//   node scripts/install-real-clis.mjs --bin-dir    print the bin dir of a finished install (exit 1 if none)
//   node scripts/install-real-clis.mjs --force      reinstall from scratch
//   node scripts/install-real-clis.mjs --dir D      install into D instead of the default
//
// Folder: --dir, else $SCV_REAL_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/scv-real-clis/<hash of the pins>.
// Idempotent: a marker file (.scv-real-clis.json) recording the pins is written only after every CLI
// answered `--version`; with a matching marker nothing is installed again. The install runs in a
// sibling folder that is renamed into place at the end, so a concurrent or interrupted run never leaves
// a half-installed folder behind a marker.
//
// npm 11 gates dependency install scripts behind the package.json `allowScripts` field
// (`npm warn install-scripts … Run npm install-scripts approve`), and `--allow-scripts` on the command
// line is an error for a project install. So the generated package.json approves the scripts the CLIs
// need: claude-code, opencode-ai and @ampcode/cli link their native binary over a placeholder in
// postinstall. If a placeholder is still there afterwards, the package's own postinstall is run here.
// Package scripts run with HOME and the XDG folders inside the install folder (`--script-shell`):
// some write into HOME (qodercli's appends a PATH block to ~/.bashrc and ~/.profile).
// The pins are scripts/real-clis.json; `--update` (npm run real:update, scripts/real-update.mjs)
// moves them to the newest versions that install and reports what changed.
// Only Node built-ins (and npm) are used.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ensureNode } from "./install-node.mjs";

/** The pins (scripts/real-clis.json: what each field means is said there). */
export const PINS_FILE = join(dirname(fileURLToPath(import.meta.url)), "real-clis.json");

function readPins() {
  const { clis, adapters } = JSON.parse(readFileSync(PINS_FILE, "utf8"));
  const plain = (pins) => pins.map(({ $comment: _, ...pin }) => pin);
  return { clis: plain(clis), adapters: plain(adapters) };
}

const PINNED = readPins();

/** The CLIs and their exact versions. */
export const PINS = PINNED.clis;

/**
 * The official ACP adapters of the CLIs that serve no ACP themselves (the `acp.package` of their rows,
 * which `scv agents install <agent> --acp` installs), pinned beside the CLIs so the ACP contract cases
 * (test/real/acp.test.ts) drive them. `drives` is the pinned CLI each one runs (through the row's
 * `acp.cliPathVariable`, which scv sets to the CLI it locates, here the pinned one on PATH).
 * codex-acp depends on @openai/codex ^0.166.0, so it brings its own older codex (~400 MB) that the
 * suite never runs.
 */
export const ADAPTER_PINS = PINNED.adapters;

/** The table row a pin verifies. */
export function pinAgent(pin) {
  return pin.agent ?? pin.cli;
}

/** A pin's platform package for this machine (`{platform}-{arch}` as Node names them), or undefined. */
export function platformPackage(pin, platform = process.platform, arch = process.arch) {
  return pin.platform?.pkg.replaceAll("{platform}", platform).replaceAll("{arch}", arch);
}

/** Install scripts approved in the generated package.json (npm 11 `allowScripts`). */
export const ALLOW_SCRIPTS = {
  "@anthropic-ai/claude-code": true, // links the native claude binary over bin/claude.exe
  "opencode-ai": true, // links the native opencode binary over bin/opencode.exe
  "@ampcode/cli": true, // links the native amp binary over bin/amp.exe
  cline: true, // hard-links its platform package's binary to bin/.cline
  "@kilocode/cli": true, // checks its platform package (runs `kilo --version`)
  "@factory/cli": true, // looks for its platform package
  "@qoder-ai/qodercli": true, // `qodercli configure-path`: writes ~/.qoder and the rc files (of the install's own HOME)
  // Transitive ones a plain pre-npm-11 install would also have run (optional native modules of gemini,
  // pi, auggie and qodercli).
  "@github/keytar": true,
  "node-pty": true,
  "@google/genai": true,
  protobufjs: true,
  koffi: true,
  sharp: true,
};

export const MARKER = ".scv-real-clis.json";
const PACKAGE_NAME = "scv-real-clis";

/** Short hash of everything that changes what gets installed. */
export function pinHash(pins = PINNED) {
  const input = JSON.stringify({
    PINS: pins.clis,
    ADAPTER_PINS: pins.adapters,
    ALLOW_SCRIPTS,
    platform: process.platform,
    arch: process.arch,
  });
  return createHash("sha256").update(input).digest("hex").slice(0, 16);
}

/** The install folder: explicit dir, else $SCV_REAL_CACHE, else the per-user cache keyed by the pin hash. */
export function installDir(dir = process.env.SCV_REAL_CACHE, pins = PINNED) {
  if (dir) return resolve(dir);
  const cacheRoot = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(cacheRoot, "scv-real-clis", pinHash(pins));
}

/** The bin directory of an install folder. */
export function binDir(dir = installDir()) {
  return join(dir, "node_modules", ".bin");
}

/** The marker of a finished install with the current pins, or undefined. */
export function readMarker(dir = installDir(), pins = PINNED) {
  try {
    const marker = JSON.parse(readFileSync(join(dir, MARKER), "utf8"));
    return marker.hash === pinHash(pins) ? marker : undefined;
  } catch {
    return undefined;
  }
}

function log(message) {
  process.stderr.write(`install-real-clis: ${message}\n`);
}

function isElf(file) {
  let fd;
  try {
    fd = openSync(file, "r");
    const head = Buffer.alloc(4);
    readSync(fd, head, 0, 4, 0);
    return head.equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Every package of the pins, with its version: each CLI, its explicit platform package, each adapter. */
export function packageVersions(pins = PINNED) {
  const entries = [];
  for (const pin of [...pins.clis, ...pins.adapters]) {
    entries.push([pin.pkg, pin.version]);
    const platform = platformPackage(pin);
    if (platform !== undefined) entries.push([platform, pin.platform.version]);
  }
  return Object.fromEntries(entries);
}

function packageJson(pins) {
  return {
    name: PACKAGE_NAME,
    version: "0.0.0",
    private: true,
    description:
      "Pinned real agent CLIs for scv's contract suite (generated by scripts/install-real-clis.mjs)",
    dependencies: packageVersions(pins),
    allowScripts: ALLOW_SCRIPTS,
  };
}

/** Runs a command with output to our stderr; throws on failure. */
function run(command, args, options) {
  const result = spawnSync(command, args, { stdio: ["ignore", 2, 2], ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} failed (exit ${result.status ?? result.signal})`);
  }
}

/** Single-quoted for /bin/sh. */
function shellQuote(text) {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * The shell npm runs install scripts with (`--script-shell`): /bin/sh with HOME and the XDG folders
 * inside `home`. Packages' postinstalls write into HOME (qodercli appends a PATH block to ~/.bashrc and
 * ~/.profile and creates ~/.qoder; kilo creates folders under ~/.config, ~/.local, ~/.cache), while npm
 * itself keeps the user's config, registry and cache.
 */
export function writeScriptShell(file, home) {
  const variables = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_STATE_HOME: join(home, ".local", "state"),
  };
  const lines = Object.entries(variables).map(([name, value]) => `${name}=${shellQuote(value)}`);
  mkdirSync(home, { recursive: true, mode: 0o700 });
  writeFileSync(
    file,
    `#!/bin/sh\n# npm's script shell for this install: package scripts get a HOME of their own.\n${lines.join("\n")}\nexport ${Object.keys(variables).join(" ")}\nexec /bin/sh "$@"\n`,
    { mode: 0o700 },
  );
  return file;
}

/** `npm install` of the generated package.json in `dir`, its package scripts in a HOME inside `dir`. */
export function npmInstall(dir) {
  const shell = writeScriptShell(join(dir, ".script-shell"), join(dir, ".install-home"));
  run(
    "npm",
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts=false",
      `--script-shell=${shell}`,
      "--loglevel=warn",
    ],
    { cwd: dir, env: { ...process.env, npm_config_update_notifier: "false" } },
  );
}

/** Runs the native-binary postinstall of packages whose bin is still a placeholder (scripts were skipped). */
export function linkNativeBinaries(dir, pins = PINNED) {
  const bin = binDir(dir);
  for (const pin of pins.clis) {
    const target = join(bin, pin.cli);
    if (!existsSync(target) || isElf(realpathSync(target))) continue;
    const pkgDir = dirname(dirname(realpathSync(target)));
    const script = pin.native;
    if (!script || !existsSync(join(pkgDir, script))) continue;
    log(`${pin.cli}: bin is not a native binary yet, running ${script} in ${pkgDir}`);
    run(process.execPath, [script], { cwd: pkgDir });
  }
}

/** The Node bin folder a pin's CLI runs with: the pinned line it needs, else this Node's. */
function nodeFor(pin) {
  return pin.node === undefined ? dirname(process.execPath) : ensureNode(pin.node);
}

/** What a pin's executable answers for its version: `--version`'s first line, or its package.json's. */
export function askVersion(dir, pin, home) {
  if (pin.versionFrom === "package") {
    const { version } = JSON.parse(readFileSync(join(dir, "node_modules", pin.pkg, "package.json"), "utf8"));
    return { ok: version === pin.version, first: version, out: version };
  }
  const bin = binDir(dir);
  const result = spawnSync(join(bin, pin.cli), ["--version"], {
    cwd: home,
    encoding: "utf8",
    timeout: 120_000,
    stdio: ["ignore", "pipe", "pipe"],
    env: cleanEnv(bin, pin, home),
  });
  const out = `${result.stdout ?? ""}${result.stderr ?? ""}`.trim();
  const first = out.split("\n")[0] ?? "";
  const expected = (pin.reports ?? pin.version).split("-")[0];
  return {
    ok: result.status === 0 && out.includes(expected),
    first,
    out,
    status: result.status ?? result.signal,
  };
}

/** An empty environment for a pin's executable: its bin folder and Node on PATH, HOME `home`. */
function cleanEnv(bin, pin, home) {
  return {
    PATH: `${bin}:${nodeFor(pin)}:/usr/bin:/bin`,
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
  };
}

/** Runs `<cli> --version` for every pin (CLIs and adapters) in an empty environment; returns {cli: first
 * line}. Throws on a failure. Each pin's help texts are kept in `<dir>/help/` for `--update`'s report. */
export function verify(dir = installDir(), pins = PINNED) {
  const home = mkdtempSync(join(dir, ".verify-home-"));
  const versions = {};
  const failures = [];
  try {
    for (const pin of [...pins.clis, ...pins.adapters]) {
      const started = Date.now();
      const answer = askVersion(dir, pin, home);
      if (!answer.ok)
        failures.push(`${pin.cli} --version: exit ${answer.status}: ${answer.out.slice(0, 300)}`);
      versions[pin.cli] = answer.first;
      log(
        `${pin.cli.padEnd(16)} ${answer.ok ? "ok " : "BAD"} ${String(Date.now() - started).padStart(5)} ms  ${answer.first}`,
      );
      if (answer.ok) keepHelp(dir, pin, home);
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  if (failures.length > 0) throw new Error(`verification failed:\n  ${failures.join("\n  ")}`);
  return versions;
}

/** `<dir>/help/<cli>.txt`: each of the pin's help texts, as its CLI prints them. */
function keepHelp(dir, pin, home) {
  if (pin.help === undefined) return;
  const bin = binDir(dir);
  const texts = pin.help.map((args) => {
    const result = spawnSync(join(bin, pin.cli), args, {
      cwd: home,
      encoding: "utf8",
      timeout: 60_000,
      stdio: ["ignore", "pipe", "pipe"],
      env: cleanEnv(bin, pin, home),
    });
    return `$ ${pin.cli} ${args.join(" ")}\n${result.stdout ?? ""}${result.stderr ?? ""}`;
  });
  mkdirSync(join(dir, "help"), { recursive: true });
  writeFileSync(join(dir, "help", `${pin.cli}.txt`), `${texts.join("\n")}\n`);
}

function looksLikeOurs(dir) {
  try {
    return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).name === PACKAGE_NAME;
  } catch {
    return readdirSync(dir).length === 0;
  }
}

/**
 * Installs (unless a matching marker exists) and verifies the pinned CLIs; returns the bin directory.
 * @param {{ dir?: string, force?: boolean, pins?: { clis: object[], adapters: object[] } }} [options]
 */
export function ensureInstalled({ pins = PINNED, dir = installDir(undefined, pins), force = false } = {}) {
  if (!force && readMarker(dir, pins)) return binDir(dir);
  if (existsSync(dir) && !looksLikeOurs(dir)) {
    throw new Error(`${dir} exists and was not made by this script; pass another --dir or remove it`);
  }
  mkdirSync(dirname(dir), { recursive: true });
  const staging = `${dir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const started = Date.now();
  try {
    writeFileSync(join(staging, "package.json"), `${JSON.stringify(packageJson(pins), null, 2)}\n`);
    // Project-level npm settings, so the user's own config cannot turn scripts off or make the gate fatal.
    writeFileSync(
      join(staging, ".npmrc"),
      "ignore-scripts=false\nengine-strict=false\naudit=false\nfund=false\nupdate-notifier=false\n",
    );
    log(
      `installing ${Object.entries(packageVersions(pins))
        .map(([pkg, version]) => `${pkg}@${version}`)
        .join(" ")}`,
    );
    log(`into ${staging} (renamed to ${dir} when done)`);
    npmInstall(staging);
    linkNativeBinaries(staging, pins);
    if (existsSync(dir)) {
      if (!force && readMarker(dir, pins)) {
        log("another run finished first; keeping its install");
        return binDir(dir);
      }
      rmSync(dir, { recursive: true, force: true });
    }
    renameSync(staging, dir);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  const versions = verify(dir, pins);
  const marker = {
    hash: pinHash(pins),
    pins: pins.clis.map(({ cli, agent, pkg, version, reports }) => ({ cli, agent, pkg, version, reports })),
    adapters: pins.adapters.map(({ cli, pkg, version, drives }) => ({ cli, pkg, version, drives })),
    versions,
    installedAt: new Date().toISOString(),
    installMs: Date.now() - started,
    node: process.version,
  };
  writeFileSync(join(dir, MARKER), `${JSON.stringify(marker, null, 2)}\n`);
  log(`installed in ${Math.round((Date.now() - started) / 1000)} s`);
  return binDir(dir);
}

const USAGE =
  "usage: node scripts/install-real-clis.mjs [--dir D] [--force] [--bin-dir] [--update [--agents A,B] [--keep-pins] [--report F] [--no-suite]]\n" +
  "Installs the pinned agent CLIs for test/real and prints their bin directory.\n" +
  "--update moves every pin to the newest published version that installs (scripts/real-clis.json),\n" +
  "reruns the contract suite and writes what changed to a report (npm run real:update);\n" +
  "--agents moves only those rows' pins and runs only their contract cases, --keep-pins writes the\n" +
  "report without changing scripts/real-clis.json.\n";

async function main(argv) {
  let dir;
  let force = false;
  let printOnly = false;
  let update = false;
  let report;
  let suite = true;
  let agents;
  let keepPins = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--force") force = true;
    else if (arg === "--bin-dir") printOnly = true;
    else if (arg === "--update") update = true;
    else if (arg === "--no-suite") suite = false;
    else if (arg === "--keep-pins") keepPins = true;
    else if (arg === "--agents" || arg?.startsWith("--agents=")) {
      const value = arg === "--agents" ? argv[++i] : arg.slice("--agents=".length);
      agents = (value ?? "").split(",").filter((name) => name !== "");
    } else if (arg === "--report") report = argv[++i];
    else if (arg === "--dir") dir = argv[++i];
    else if (arg?.startsWith("--dir=")) dir = arg.slice("--dir=".length);
    else if (arg === "-h" || arg === "--help") {
      process.stdout.write(USAGE);
      return 0;
    } else {
      log(`unknown argument: ${arg}`);
      return 2;
    }
  }
  if (update) {
    const { updatePins } = await import("./real-update.mjs");
    return updatePins({ report, suite, agents, keepPins, log });
  }
  const target = installDir(dir);
  if (printOnly) {
    if (!readMarker(target)) {
      log(`no finished install in ${target}; run: node scripts/install-real-clis.mjs`);
      return 1;
    }
    process.stdout.write(`${binDir(target)}\n`);
    return 0;
  }
  const bin = ensureInstalled({ dir: target, force });
  process.stdout.write(`${bin}\n`);
  return 0;
}

// Not awaited at the top level: `--update` imports real-update.mjs, which imports this module, whose
// evaluation must finish first (awaiting here deadlocked that import: Node exited 13 saying nothing).
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      log(error instanceof Error ? error.message : String(error));
      process.exitCode = 1;
    },
  );
}

export const SCRIPT_PATH = fileURLToPath(import.meta.url);
