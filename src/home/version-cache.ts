// What an agent CLI answered to `--version`, kept in $SCV_HOME/cache/versions.json by the
// executable's path, modification time and size: asking a CLI that is not an npm install takes a
// second or more each time (`scv agents list` with `command` overrides took 3 s on every run). A
// reinstall changes the file, and with it the key; a cache that cannot be read is no cache, and the
// file is safe to delete.

import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { ensurePrivateDir } from "./agent-home.js";
import { writeAtomicSync } from "./atomic.js";
import { cacheDir, type Env, scvHome } from "./paths.js";
import { readStateText, SMALL_STATE_BYTES } from "./state-file.js";

/** More than any listing has agents; older entries go first. */
const MAX_ENTRIES = 64;

interface Entry {
  readonly mtimeMs: number;
  readonly size: number;
  readonly version: string | null;
}

/** The executable's identity now, or undefined when it cannot be read. */
function identity(executable: string): { mtimeMs: number; size: number } | undefined {
  try {
    const stat = statSync(executable);
    return { mtimeMs: stat.mtimeMs, size: stat.size };
  } catch {
    return undefined;
  }
}

function cacheFile(env: Env): string {
  return join(cacheDir(env), "versions.json");
}

function readEntries(env: Env): Record<string, Entry> {
  try {
    const text = readStateText(cacheFile(env), { maxBytes: SMALL_STATE_BYTES });
    if (text === undefined) return {};
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, Entry>)
      : {};
  } catch {
    return {};
  }
}

function isEntry(value: unknown): value is Entry {
  if (typeof value !== "object" || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.mtimeMs === "number" &&
    typeof entry.size === "number" &&
    (entry.version === null || typeof entry.version === "string")
  );
}

/** The answer kept for `executable` as it is now: a version, null (it answered without one), or
 * undefined when nothing is kept for this file. */
export function cachedVersion(executable: string, env: Env): string | null | undefined {
  const now = identity(executable);
  const entry = readEntries(env)[executable];
  if (now === undefined || !isEntry(entry)) return undefined;
  return entry.mtimeMs === now.mtimeMs && entry.size === now.size ? entry.version : undefined;
}

/** Keeps `version` as `executable`'s answer, once scv's home exists (a listing does not create it,
 * as the code cache does not). Never throws: without a cache the CLI is asked again. */
export function keepVersion(executable: string, version: string | null, env: Env): void {
  const now = identity(executable);
  if (now === undefined) return;
  try {
    if (!existsSync(scvHome(env))) return;
    const entries = Object.entries(readEntries(env)).filter(
      ([path, entry]) => path !== executable && isEntry(entry),
    );
    entries.push([executable, { ...now, version }]);
    ensurePrivateDir(cacheDir(env), scvHome(env));
    writeAtomicSync(cacheFile(env), `${JSON.stringify(Object.fromEntries(entries.slice(-MAX_ENTRIES)))}\n`, {
      fsync: false,
    });
  } catch {
    // A home that cannot take it (full, read-only): the CLI is asked again next time.
  }
}
