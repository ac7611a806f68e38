// scv's one way to replace a file atomically: conversation records, running-turn records and
// results, and the credential and settings files of the key stores all go through here.
//
// The text goes into a temporary `<path>.<32-bit number>` beside the file (the name `scv agents gc`
// knows as a crashed write), created exclusively with the final mode, so it is never readable by
// others even for a moment; it is written whole (Node's writeFile loops over short writes: a disk
// that fills up or a file size limit takes part of a write without an error), flushed to disk
// unless the caller says it need not be, and renamed over the file. Anything failing removes the
// temporary file: a crash, a full disk or a failed write leaves the old file or the new one, never
// half of one. A symlink at `path` is replaced, never followed — scv writes secrets into its own
// files only, not wherever a link in an agent's home points — and the file belongs to the writing
// user, as a new file does. `createAtomicSync` does the same but links the file into place, so
// that it never replaces one: a first turn's record is created that way, without a lock.
//
// Not write-file-atomic, which scv used before: that library issues a single write and takes a
// short one for the whole text (test/home/atomic.test.ts shows a truncated record renamed over a
// good one), and loading it (worker_threads, signal-exit) cost every turn's start-up a few ms.

import { closeSync, fchmodSync, fsyncSync, linkSync, openSync, renameSync, writeFileSync } from "node:fs";
import { removeIfPresent } from "./remove.js";

export interface AtomicWriteOptions {
  /** The file's mode; 0600 unless given. */
  readonly mode?: number;
  /** Flush the text to disk before the rename (default true). Worth skipping only for files whose
   * loss in a power cut costs nothing more than the cut does: records of processes, which it ends,
   * and conversation records, whose agent sessions it can take too. */
  readonly fsync?: boolean;
}

/** `<path>.<32-bit number>`: beside the file, so the rename stays on one file system. The number
 * only has to differ from other writers' of the same file at the same moment (the file is created
 * exclusively, and another name tried if it exists), so it need not cost a call into the CSPRNG. */
export function temporaryPath(path: string): string {
  return `${path}.${Math.floor(Math.random() * 2 ** 32)}`;
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
