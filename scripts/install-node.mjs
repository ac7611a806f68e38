#!/usr/bin/env node
// Installs a Node.js binary from npm (the `node-<platform>-<arch>` packages) into a cache folder
// outside the source tree, so CI can run the suites on the Node lines users run besides the
// machine's own, and prints its bin directory as the last line of stdout.
//
//   node scripts/install-node.mjs 22                  the pinned Node 22 (a line in NODE_PINS)
//   node scripts/install-node.mjs 20.5.0              that exact version (the engines floor check)
//   node scripts/install-node.mjs 24 -- <command…>    runs the command with that Node first on PATH
//
// Folder: ${XDG_CACHE_HOME:-~/.cache}/scv-node/<version>-<platform>-<arch>, or $SCV_NODE_CACHE/<…>.
// Idempotent: a finished install has bin/node answering its version; it is unpacked in a sibling
// folder renamed into place, so an interrupted or concurrent run never leaves half a binary behind.
// The tarball is fetched with `npm pack` (the registry's integrity is checked by npm; a pinned
// line's own integrity is checked here too). Only Node built-ins, npm and tar are used.
import { spawnSync } from "node:child_process";
import { mkdirSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

/** The Node lines CI runs besides the machine's own, at their newest release when pinned. */
export const NODE_PINS = [
  {
    line: "22",
    version: "22.23.5",
    integrity: {
      "linux-x64":
        "sha512-3jhC+wcoWxKZxcRqF2sUSl0c9HEXFnur/nuIPx6O6CWKV0jOUWQm7Htw5SuXqqlMCEhi0cJqybFPEb5hhcBiMw==",
    },
  },
  {
    line: "24",
    version: "24.22.3",
    integrity: {
      "linux-x64":
        "sha512-KHsob+Fv9YerATvYujMbiyJqnRCvLtrcr/eTNqRqiOSGp97EOiRP1yP47+knGgQ/xnc3XY8xzkW587dlZzNqRA==",
    },
  },
  {
    line: "26",
    version: "26.12.1",
    integrity: {
      "linux-x64":
        "sha512-jk5LMAmgHlPlPMWpsUrSOqNaEZG+11UNd35hWQ+p5/XGaelWuTqJ69IcAy/5xtPPN4d5ZRBNOGB6gLMCh2kL9A==",
    },
  },
];

const PLATFORM = `${process.platform}-${process.arch}`;

function log(message) {
  process.stderr.write(`install-node: ${message}\n`);
}

/** The exact version and (when pinned for this platform) integrity an argument names. */
export function resolveVersion(spec) {
  const pin = NODE_PINS.find((p) => p.line === spec || p.version === spec);
  if (pin) return { version: pin.version, integrity: pin.integrity[PLATFORM] };
  if (/^\d+\.\d+\.\d+$/.test(spec)) return { version: spec, integrity: undefined };
  throw new Error(
    `'${spec}' is neither a pinned line (${NODE_PINS.map((p) => p.line).join(", ")}) nor an exact version`,
  );
}

export function installDir(version) {
  const root = process.env.SCV_NODE_CACHE
    ? resolve(process.env.SCV_NODE_CACHE)
    : join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "scv-node");
  return join(root, `${version}-${PLATFORM}`);
}

function nodeAnswers(node, version) {
  const result = spawnSync(node, ["--version"], { encoding: "utf8", timeout: 30_000 });
  return result.status === 0 && result.stdout.trim() === `v${version}`;
}

function run(command, args, options) {
  const result = spawnSync(command, args, {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    ...options,
  });
  if (result.error) throw result.error;
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(" ")} failed (exit ${result.status}): ${result.stderr.trim()}`);
  return result.stdout;
}

/** Installs the version unless it is there already; returns its bin directory. */
export function ensureNode(spec) {
  const { version, integrity } = resolveVersion(spec);
  const dir = installDir(version);
  const bin = join(dir, "bin");
  if (nodeAnswers(join(bin, "node"), version)) return bin;
  const pkg = `node-${PLATFORM}`;
  const staging = `${dir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const started = Date.now();
  try {
    log(`fetching ${pkg}@${version}`);
    const [packed] = JSON.parse(
      run("npm", ["pack", `${pkg}@${version}`, "--json", "--loglevel=error"], { cwd: staging }),
    );
    if (integrity !== undefined && packed.integrity !== integrity)
      throw new Error(`${pkg}@${version}: integrity ${packed.integrity}, pinned ${integrity}`);
    const tarball = join(staging, packed.filename);
    run("tar", [
      "-xzf",
      tarball,
      "-C",
      staging,
      "--strip-components=1",
      "package/bin/node",
      "package/LICENSE",
    ]);
    rmSync(tarball);
    if (!nodeAnswers(join(staging, "bin", "node"), version))
      throw new Error(`${pkg}@${version}: bin/node does not answer v${version}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dirname(dir), { recursive: true });
    renameSync(staging, dir);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    // Another run may have finished the same install meanwhile.
    if (nodeAnswers(join(bin, "node"), version)) return bin;
    throw error;
  }
  log(`Node ${version} in ${dir} (${Math.round((Date.now() - started) / 1000)} s)`);
  return bin;
}

function main(argv) {
  const split = argv.indexOf("--");
  const [spec, ...rest] = split === -1 ? argv : argv.slice(0, split);
  const command = split === -1 ? [] : argv.slice(split + 1);
  if (spec === undefined || spec === "-h" || spec === "--help" || rest.length > 0) {
    process.stdout.write(
      "usage: node scripts/install-node.mjs <line | x.y.z> [-- command…]\n" +
        `Installs Node from npm (pinned lines: ${NODE_PINS.map((p) => `${p.line} = ${p.version}`).join(", ")})\n` +
        "and prints its bin directory, or runs the command with it first on PATH.\n",
    );
    return spec === undefined || rest.length > 0 ? 2 : 0;
  }
  const bin = ensureNode(spec);
  if (command.length === 0) {
    process.stdout.write(`${bin}\n`);
    return 0;
  }
  const [file, ...args] = command;
  log(`Node ${readVersion(bin)}: ${command.join(" ")}`);
  const result = spawnSync(file, args, {
    stdio: "inherit",
    env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ""}` },
  });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function readVersion(bin) {
  return spawnSync(join(bin, "node"), ["--version"], { encoding: "utf8" }).stdout.trim();
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    log(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  }
}
