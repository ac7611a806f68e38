// How the `scv` executable (launcher.ts) runs the bundled CLI (dist/app.js): through V8's code cache,
// since compiling scv's own code is the largest part of its start-up and Node 20 has no compile
// cache of its own (module.enableCompileCache is Node ≥ 22.1). The first run of a command (and
// variant: `variant` below) keeps what V8 compiled for it in $SCV_HOME/cache/v8 (private, like the
// rest of scv's home); later runs of that command start from it. V8 trusts a cache's bytes — one
// flipped byte crashes the process — so each file carries a CRC-32 of them, and a cache that fails it,
// or is missing, unreadable or rejected by V8 (another Node, other flags), is compiled afresh and
// rewritten: the CLI runs the same either way. The checksum catches corruption, not an attacker: a
// process that can write scv's home as its user can as well change scv itself.

import {
  closeSync,
  constants,
  existsSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { Script } from "node:vm";
import { crc32 } from "node:zlib";
import { makeDirs } from "../home/make-dirs.js";
import { configCandidates, scvHome } from "../home/paths.js";
import { readStateBytes } from "../home/state-file.js";

const NEW_FILE_NO_FOLLOW = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;

export interface CompileCache {
  readonly dir: string;
  readonly file: string;
  /** Files in `dir` with this prefix belong to this build on this Node; others are stale. */
  readonly prefix: string;
}

/** Where the code cache of `argv`'s command lives; undefined when scv's home does not exist yet (a
 * first `scv --help` leaves nothing behind). */
export function compileCache(
  env: NodeJS.ProcessEnv,
  argv: readonly string[],
  buildId: string,
): CompileCache | undefined {
  // zlib.crc32 is Node ≥ 20.15; an unchecked cache is not worth its risk.
  if (typeof crc32 !== "function") return undefined;
  let home: string;
  try {
    // A home that cannot be used is the command's to report; this run goes without the cache.
    home = scvHome(env);
    if (!statSync(home).isDirectory()) return undefined;
  } catch {
    return undefined;
  }
  const dir = join(home, "cache", "v8");
  const prefix = `${buildId}-${process.version}-${process.arch}-`;
  // Each command compiles different code; its own cache holds exactly that.
  const command = /^[a-z][a-z-]{0,30}$/.test(argv[0] ?? "") ? argv[0] : "scv";
  return { dir, prefix, file: join(dir, `${prefix}${command}${variant(env, argv)}.bin`) };
}

/** Besides the command, what decides the code a run compiles: continuing a conversation (its record,
 * read with zod, and its lock) and a config file (TOML and its schema). V8 compiles on every run
 * whatever the cache lacks, and a cache holds what the run that wrote it compiled, so each
 * combination has its own. */
function variant(env: NodeJS.ProcessEnv, argv: readonly string[]): string {
  // Options end at `--`: a prompt "-c" continues nothing.
  const end = argv.indexOf("--");
  const options = end === -1 ? argv : argv.slice(0, end);
  // Help runs none of the command: written by `scv delegate --help`, the command's cache would leave
  // every later turn compiling its code.
  if (options.some((arg) => arg === "--help" || arg === "-h")) return "-help";
  const continuing = options.some(
    (arg) => arg === "-c" || arg === "--continue" || arg.startsWith("--continue="),
  );
  const configured = configCandidates(env).some((path) => existsSync(path));
  return `${continuing ? "-continue" : ""}${configured ? "-config" : ""}`;
}

/** V8's data for scv's whole bundle is a few MiB. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/** A cache file: the CRC-32 of V8's data (4 bytes, little-endian), then the data. */
const HEADER_BYTES = 4;

/** V8's data from the cache file when its checksum holds; undefined otherwise. */
export function readCache(file: string): Buffer | undefined {
  // A FIFO or a link there is skipped (and replaced by the next write), never waited on.
  const bytes = readStateBytes(file, { maxBytes: MAX_CACHE_BYTES });
  if (bytes === undefined || bytes.length <= HEADER_BYTES) return undefined;
  const data = bytes.subarray(HEADER_BYTES);
  return crc32(data) === bytes.readUInt32LE(0) ? data : undefined;
}

function cacheFile(data: Buffer): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt32LE(crc32(data));
  return Buffer.concat([header, data]);
}

/** Another build's cache is pruned once written that long ago: two installs of scv (a global one
 * and a project's) may share one home, and must not delete each other's cache on every run. */
export const STALE_CACHE_MS = 7 * 24 * 3600 * 1000;

/** Writes the cache with a temp file and a rename, so that turns started together never read a
 * half-written one, and prunes other builds' caches written over a week ago. */
function writeCache(cache: CompileCache, data: Buffer): void {
  try {
    // Never through a link planted inside scv's home (docs/files.md: nothing there is followed): no cache then.
    if (lstatSync(dirname(cache.dir), { throwIfNoEntry: false })?.isSymbolicLink()) return;
    makeDirs(cache.dir, 0o700);
    if (lstatSync(cache.dir).isSymbolicLink()) return;
    const now = Date.now();
    for (const name of readdirSync(cache.dir)) {
      const path = join(cache.dir, name);
      if (!name.startsWith(cache.prefix) && now - statSync(path).mtimeMs > STALE_CACHE_MS)
        rmSync(path, { force: true });
    }
    const temp = `${cache.file}.${process.pid}.tmp`;
    try {
      const fd = openSync(temp, NEW_FILE_NO_FOLLOW, 0o600);
      try {
        writeFileSync(fd, cacheFile(data));
      } finally {
        closeSync(fd);
      }
      renameSync(temp, cache.file);
    } catch (error) {
      // A full disk leaves part of a file; it must not stay behind, one per run.
      rmSync(temp, { force: true });
      throw error;
    }
  } catch {
    // A cache that cannot be written costs the next run its compile time, nothing more.
  }
}

/** Runs the CLI bundle at `appPath` (CommonJS, already wrapped in its module function) as Node would,
 * with the code cache when there is one; `buildId` names that bundle's build, so a cache never
 * outlives it. `require` resolves the bundle's own requires (its vendored libraries beside it): the
 * launcher's, which lives in the same folder — `createRequire` would load node:module for it. */
export function launch(appPath: string, buildId: string, require: NodeJS.Require): void {
  // The launcher runs before the program and its CliIo exist: it reads its own environment.
  const cache = compileCache(process.env, process.argv.slice(2), buildId);
  const cachedData = cache === undefined ? undefined : readCache(cache.file);
  // scripts/build.mjs wrote the bundle as CommonJS's module function, so it compiles as read.
  const script = new Script(readFileSync(appPath, "utf8"), { filename: appPath, cachedData });
  if (cache !== undefined && (cachedData === undefined || script.cachedDataRejected)) {
    // At exit V8 has compiled everything this command ran; only a run that went well is kept.
    process.once("exit", (code) => {
      if (code === 0) writeCache(cache, script.createCachedData());
    });
  }
  const module = { exports: {} };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, require, module, appPath, dirname(appPath));
}
