// Each turn's own temporary folder, the agent's TMPDIR while the turn runs.
//
// Agents and their tools write into TMPDIR and do not always clean up or keep it private: one (on
// Bun) unpacks a 5.5 MB native library there on every run and leaves it; another writes its
// error reports (the prompt included) there as 0644, readable by every user of a shared /tmp. So a
// turn's agent gets `<the user's TMPDIR>/scv-<handle>-XXXXXX`: created 0700 by mkdtemp, inside the
// user's own temporary folder (the same file system, a short path for the Unix sockets tools create
// there), and removed with all it holds once the turn's processes are gone. A turn whose scv died
// records the folder, and the reaper removes it.

import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmdirSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, isAbsolute, join } from "node:path";
import type { Env } from "./paths.js";

const PREFIX = "scv-";

/** The folder temporary folders go in, as the user's environment says (relative values ignored). */
function temporaryParent(env: Env): string {
  const named = env.TMPDIR;
  return named !== undefined && isAbsolute(named) ? named : tmpdir();
}

/** Creates the turn's folder; undefined when it cannot be (a missing or read-only TMPDIR), and the
 * agent then gets the user's TMPDIR, as it would without scv. */
export function createTurnTemp(handle: string, env: Env): string | undefined {
  try {
    return mkdtempSync(join(temporaryParent(env), `${PREFIX}${handle}-`));
  } catch {
    return undefined;
  }
}

/** Whether `path` is a folder `createTurnTemp` made for `handle`: a record names the folder the reaper
 * removes, and nothing else is ever removed on a record's word. */
export function isTurnTemp(path: string, handle: string): boolean {
  const name = basename(path);
  return (
    isAbsolute(path) &&
    name.startsWith(`${PREFIX}${handle}-`) &&
    /^[A-Za-z0-9]{6}$/.test(name.slice(PREFIX.length + handle.length + 1))
  );
}

/** Removes the turn's folder and everything in it. Never throws: what cannot be removed stays in a
 * folder only its owner can read. */
export function removeTurnTemp(path: string): void {
  try {
    // Most agents leave the folder empty, and rmdir(2) removes only an empty folder, never what a
    // symlink points to.
    rmdirSync(path);
    return;
  } catch {
    // Not empty, not a folder, already gone: looked at below.
  }
  try {
    removeTree(path);
  } catch {
    // Left for the user; it is 0700.
  }
}

/** rm -rf, by hand rather than fs.rmSync: Node's recursive removal is loaded on every turn, and
 * tools leave read-only folders behind (a Go module cache, a `chmod -w` test fixture), which are
 * made writable first. lstat: a symlink is removed, never followed out of the folder. */
function removeTree(path: string): void {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (stat === undefined) return;
  if (!stat.isDirectory()) {
    unlinkSync(path);
    return;
  }
  if ((stat.mode & 0o700) !== 0o700) chmodSync(path, 0o700);
  for (const name of readdirSync(path)) removeTree(join(path, name));
  rmdirSync(path);
}
