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
// Only Node built-ins are used.
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

/**
 * The CLIs and their exact versions (the lab's pins). `native` is the postinstall script, in the package
 * that owns the `cli` bin, which links the platform's native binary over the bin placeholder.
 */
export const PINS = [
  { cli: "claude", pkg: "@anthropic-ai/claude-code", version: "2.1.332", native: "install.cjs" },
  { cli: "codex", pkg: "@openai/codex", version: "0.171.0" },
  { cli: "pi", pkg: "@mariozechner/pi-coding-agent", version: "0.73.1" },
  { cli: "gemini", pkg: "@google/gemini-cli", version: "0.61.0" },
  { cli: "qwen", pkg: "@qwen-code/qwen-code", version: "0.24.4" },
  { cli: "opencode", pkg: "opencode-ai", version: "1.18.33", native: "postinstall.mjs" },
  { cli: "copilot", pkg: "@github/copilot", version: "1.0.102" },
  // @sourcegraph/amp@<v> depends on @ampcode/cli@<v>, whose postinstall links the native binary. The newest
  // @ampcode/cli (0.0.1790712063-gb89205) has no linux-x64 binary in the registry, so this version is pinned.
  { cli: "amp", pkg: "@sourcegraph/amp", version: "0.0.1790142911-g7618fb", native: "install.cjs" },
];

/**
 * The official ACP adapters of the CLIs that serve no ACP themselves (the `acp.package` of their rows in
 * src/adapters.ts, which `scv agents install <agent> --acp` installs), pinned beside the CLIs so the ACP
 * contract cases (test/real/acp.test.ts) drive them. `drives` is the pinned CLI each one runs (through
 * CLAUDE_CODE_EXECUTABLE / CODEX_PATH, which scv sets to the CLI it locates, here the pinned one on
 * PATH). Both answer `--version` and run on Node 22
 * (claude-agent-acp 0.101.0 declares node >= 22). codex-acp depends on @openai/codex ^0.166.0, so it
 * brings its own older codex (~400 MB) that the suite never runs.
 */
export const ADAPTER_PINS = [
  {
    cli: "claude-agent-acp",
    pkg: "@agentclientprotocol/claude-agent-acp",
    version: "0.101.0",
    drives: "claude",
  },
  { cli: "codex-acp", pkg: "@agentclientprotocol/codex-acp", version: "2.6.0", drives: "codex" },
];

/** Install scripts approved in the generated package.json (npm 11 `allowScripts`). */
export const ALLOW_SCRIPTS = {
  "@anthropic-ai/claude-code": true, // links the native claude binary over bin/claude.exe
  "opencode-ai": true, // links the native opencode binary over bin/opencode.exe
  "@ampcode/cli": true, // links the native amp binary over bin/amp.exe
  // Transitive ones a plain pre-npm-11 install would also have run (optional native modules of gemini and pi).
  "@github/keytar": true,
  "node-pty": true,
  "@google/genai": true,
  protobufjs: true,
  koffi: true,
};

const MARKER = ".scv-real-clis.json";
const PACKAGE_NAME = "scv-real-clis";

/** Short hash of everything that changes what gets installed. */
export function pinHash() {
  const input = JSON.stringify({
    PINS,
    ADAPTER_PINS,
    ALLOW_SCRIPTS,
    platform: process.platform,
    arch: process.arch,
  });
  return createHash("sha256").update(input).digest("hex").slice(0, 16);
}

/** The install folder: explicit dir, else $SCV_REAL_CACHE, else the per-user cache keyed by the pin hash. */
export function installDir(dir = process.env.SCV_REAL_CACHE) {
  if (dir) return resolve(dir);
  const cacheRoot = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(cacheRoot, "scv-real-clis", pinHash());
}

/** The bin directory of an install folder. */
export function binDir(dir = installDir()) {
  return join(dir, "node_modules", ".bin");
}

/** The marker of a finished install with the current pins, or undefined. */
export function readMarker(dir = installDir()) {
  try {
    const marker = JSON.parse(readFileSync(join(dir, MARKER), "utf8"));
    return marker.hash === pinHash() ? marker : undefined;
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

function packageJson() {
  return {
    name: PACKAGE_NAME,
    version: "0.0.0",
    private: true,
    description:
      "Pinned real agent CLIs for scv's contract suite (generated by scripts/install-real-clis.mjs)",
    dependencies: Object.fromEntries([...PINS, ...ADAPTER_PINS].map((p) => [p.pkg, p.version])),
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

/** Runs the native-binary postinstall of packages whose bin is still a placeholder (scripts were skipped). */
export function linkNativeBinaries(dir) {
  const bin = binDir(dir);
  for (const pin of PINS) {
    const target = join(bin, pin.cli);
    if (!existsSync(target) || isElf(realpathSync(target))) continue;
    const pkgDir = dirname(dirname(realpathSync(target)));
    const script = pin.native;
    if (!script || !existsSync(join(pkgDir, script))) continue;
    log(`${pin.cli}: bin is not a native binary yet, running ${script} in ${pkgDir}`);
    run(process.execPath, [script], { cwd: pkgDir });
  }
}

/** Runs `<cli> --version` for every pin (CLIs and adapters) in an empty environment; returns {cli: first
 * line}. Throws on a failure. */
export function verify(dir = installDir()) {
  const bin = binDir(dir);
  const home = mkdtempSync(join(dir, ".verify-home-"));
  const versions = {};
  const failures = [];
  try {
    for (const pin of [...PINS, ...ADAPTER_PINS]) {
      const started = Date.now();
      const result = spawnSync(join(bin, pin.cli), ["--version"], {
        cwd: home,
        encoding: "utf8",
        timeout: 120_000,
        stdio: ["ignore", "pipe", "pipe"],
        env: {
          PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`,
          HOME: home,
          LANG: "C.UTF-8",
          TERM: "dumb",
          NO_COLOR: "1",
        },
      });
      const out = `${result.stdout ?? ""}${result.stderr ?? ""}`.trim();
      const first = out.split("\n")[0] ?? "";
      const ok = result.status === 0 && out.includes(pin.version.split("-")[0]);
      if (!ok)
        failures.push(`${pin.cli} --version: exit ${result.status ?? result.signal}: ${out.slice(0, 300)}`);
      versions[pin.cli] = first;
      log(
        `${pin.cli.padEnd(16)} ${ok ? "ok " : "BAD"} ${String(Date.now() - started).padStart(5)} ms  ${first}`,
      );
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  if (failures.length > 0) throw new Error(`verification failed:\n  ${failures.join("\n  ")}`);
  return versions;
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
 * @param {{ dir?: string, force?: boolean }} [options]
 */
export function ensureInstalled({ dir = installDir(), force = false } = {}) {
  if (!force && readMarker(dir)) return binDir(dir);
  if (existsSync(dir) && !looksLikeOurs(dir)) {
    throw new Error(`${dir} exists and was not made by this script; pass another --dir or remove it`);
  }
  mkdirSync(dirname(dir), { recursive: true });
  const staging = `${dir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const started = Date.now();
  try {
    writeFileSync(join(staging, "package.json"), `${JSON.stringify(packageJson(), null, 2)}\n`);
    // Project-level npm settings, so the user's own config cannot turn scripts off or make the gate fatal.
    writeFileSync(
      join(staging, ".npmrc"),
      "ignore-scripts=false\nengine-strict=false\naudit=false\nfund=false\nupdate-notifier=false\n",
    );
    log(`installing ${[...PINS, ...ADAPTER_PINS].map((p) => `${p.pkg}@${p.version}`).join(" ")}`);
    log(`into ${staging} (renamed to ${dir} when done)`);
    run("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts=false", "--loglevel=warn"], {
      cwd: staging,
      env: { ...process.env, npm_config_update_notifier: "false" },
    });
    linkNativeBinaries(staging);
    if (existsSync(dir)) {
      if (!force && readMarker(dir)) {
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
  const versions = verify(dir);
  const marker = {
    hash: pinHash(),
    pins: PINS.map(({ cli, pkg, version }) => ({ cli, pkg, version })),
    adapters: ADAPTER_PINS.map(({ cli, pkg, version, drives }) => ({ cli, pkg, version, drives })),
    versions,
    installedAt: new Date().toISOString(),
    installMs: Date.now() - started,
    node: process.version,
  };
  writeFileSync(join(dir, MARKER), `${JSON.stringify(marker, null, 2)}\n`);
  log(`installed in ${Math.round((Date.now() - started) / 1000)} s`);
  return binDir(dir);
}

function main(argv) {
  let dir;
  let force = false;
  let printOnly = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--force") force = true;
    else if (arg === "--bin-dir") printOnly = true;
    else if (arg === "--dir") dir = argv[++i];
    else if (arg?.startsWith("--dir=")) dir = arg.slice("--dir=".length);
    else if (arg === "-h" || arg === "--help") {
      process.stdout.write(
        "usage: node scripts/install-real-clis.mjs [--dir D] [--force] [--bin-dir]\n" +
          "Installs the pinned agent CLIs for test/real and prints their bin directory.\n",
      );
      return 0;
    } else {
      log(`unknown argument: ${arg}`);
      return 2;
    }
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

if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    log(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  }
}

export const SCRIPT_PATH = fileURLToPath(import.meta.url);
