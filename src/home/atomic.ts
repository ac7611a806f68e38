// scv's one way to replace a file atomically: conversation records, running-turn records and
// results, and the credential and settings files of the key stores all go through here.
//
// The text goes into a temporary `<path>.<pid>-<random>.tmp` beside the file, created exclusively
// with the final mode, so it is never readable by
// others even for a moment; it is written whole (Node's writeFile loops over short writes: a disk
// that fills up or a file size limit takes part of a write without an error), flushed to disk
// unless the caller says it need not be, and renamed over the file. Anything failing removes the
// temporary file: a crash, a full disk or a failed write leaves the old file or the new one, never
// half of one. Only a SIGKILL mid-write leaves the temporary file; it names the pid that wrote it,
// so what a dead writer left is told from a write in progress: every scv start sweeps those in
// `$SCV_HOME/turns` (src/cli/main.ts), `scv agents gc` those of scv's folders. A symlink at `path` is replaced, never followed — scv writes secrets into its own
// files only, not wherever a link in an agent's home points — and the file belongs to the writing
// user, as a new file does. `createAtomicSync` does the same but links the file into place, so
// that it never replaces one: a first turn's record is created that way, without a lock.
//
// Not write-file-atomic, which scv used before: that library issues a single write and takes a
// short one for the whole text (test/home/atomic.test.ts shows a truncated record renamed over a
// good one), and loading it (worker_threads, signal-exit) cost every turn's start-up a few ms.

import { closeSync, fchmodSync, fsyncSync, linkSync, openSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeIfPresent } from "./remove.js";

export interface AtomicWriteOptions {
  /** The file's mode; 0600 unless given. */
  readonly mode?: number;
  /** Flush the text to disk before the rename (default true). Worth skipping only for files whose
   * loss in a power cut costs nothing more than the cut does: records of processes, which it ends,
   * and conversation records, whose agent sessions it can take too. */
  readonly fsync?: boolean;
}

/** `<path>.<pid>-<random>.tmp`: beside the file, so the rename stays on one file system; the pid
 * tells a sweeper whether its writer still lives. The random part only has to differ from this
 * process's other writes of the same file (the file is created exclusively, and another name tried
 * if it exists), so it need not cost a call into the CSPRNG. */
export function temporaryPath(path: string): string {
  return `${path}.${process.pid}-${Math.floor(Math.random() * 2 ** 32).toString(36)}.tmp`;
}

/** A temporary file's name: the pid of the scv that wrote it. */
const TEMPORARY_NAME = /\.(\d{1,10})-[0-9a-z]{1,7}\.tmp$/;

/** The pid that wrote the temporary file `name`; undefined when `name` is not one. */
export function temporaryWriter(name: string): number | undefined {
  const pid = TEMPORARY_NAME.exec(name)?.[1];
  return pid === undefined ? undefined : Number(pid);
}

/** Whether a process `pid` exists (signal 0: EPERM is another user's, alive). */
export function pidExists(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes, among `names` in `dir`, the temporary files whose writer is gone (SIGKILLed mid-write):
 * never one a live process may still rename. Returns the names removed. */
export function sweepDeadTemporaries(dir: string, names: readonly string[]): string[] {
  const removed: string[] = [];
  for (const name of names) {
    const pid = temporaryWriter(name);
    if (pid === undefined || pid === process.pid || pidExists(pid)) continue;
    try {
      removeIfPresent(join(dir, name));
      removed.push(name);
    } catch {
      // Not a file (nothing scv wrote), or not removable now: the next sweep tries again.
    }
  }
  return removed;
}

/** Tries a few temporary names, in case one is another writer's right now. */
const NAME_ATTEMPTS = 8;

function isNameTaken(error: unknown, attempt: number): boolean {
  return (error as NodeJS.ErrnoException).code === "EEXIST" && attempt < NAME_ATTEMPTS - 1;
}

export function writeAtomicSync(
  path: string,
  text: string | Uint8Array,
  options: AtomicWriteOptions = {},
): void {
  const temporary = writeTemporary(path, text, options);
  try {
    // rename(2) replaces a symlink itself, never its target.
    renameSync(temporary, path);
  } catch (error) {
    removeIfPresent(temporary);
    throw error;
  }
}

/** Creates `path` with `text`, whole, unless it exists: false then (EEXIST), and nothing changed.
 * The text is written beside it as for `writeAtomicSync` and hard-linked into place, which fails
 * rather than replace anything, so no reader ever sees the file partly written and no two writers
 * both create it. Throws on any other failure, a file system without hard links included. */
export function createAtomicSync(path: string, text: string, options: AtomicWriteOptions = {}): boolean {
  const temporary = writeTemporary(path, text, options);
  try {
    linkSync(temporary, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    removeIfPresent(temporary);
  }
}

/** Writes `text` whole into a new temporary file beside `path`, with the mode exactly, flushed to
 * disk unless `options.fsync` is false; returns its name. */
function writeTemporary(path: string, text: string | Uint8Array, options: AtomicWriteOptions): string {
  const mode = options.mode ?? 0o600;
  let temporary = "";
  let fd: number | undefined;
  for (let attempt = 0; fd === undefined; attempt += 1) {
    temporary = temporaryPath(path);
    try {
      fd = openSync(temporary, "wx", mode);
    } catch (error) {
      if (!isNameTaken(error, attempt)) throw error;
    }
  }
  try {
    // The mode exactly, whatever the umask.
    fchmodSync(fd, mode);
    writeFileSync(fd, text, typeof text === "string" ? "utf8" : undefined);
    if (options.fsync ?? true) fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    removeIfPresent(temporary);
    throw error;
  }
  closeSync(fd);
  return temporary;
}
