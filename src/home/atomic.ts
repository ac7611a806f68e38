// scv's one way to replace a file atomically: conversation records, running-turn records and
// results, and the credential and settings files of the key stores all go through here.
//
// write-file-atomic creates a temporary `<path>.<32-bit number>` beside the file (the name
// `scv agents gc` knows as a crashed write) with the final mode, so the text is never readable by
// others even for a moment; flushes it to disk; renames it over the file; and removes it when
// anything fails. A crash, a full disk or a failed write leaves the old file or the new one, never
// half of one. (It names its temporary files after CommonJS's `__filename`, which scripts/build.mjs
// defines for the ESM bundle.)
//
// The text itself is written here, in its `tmpfileCreated` hook, with Node's own writeFile, which
// writes until all of it is on disk or fails. write-file-atomic (6.0.0, and its newer releases)
// issues one write and ignores how much of it the kernel took: when a disk fills up or a file size
// limit is reached, write(2) first takes part of the text without an error, and the truncated file
// was renamed over the good one (test/home/atomic.test.ts shows it).
//
// Around it: a symlink at `path` is replaced, never followed — scv writes secrets into its own
// files only, not wherever a link in an agent's home points — and the file is owned by the writing
// user, not by whoever owned the file it replaces.

import { lstatSync, rmSync, writeFileSync } from "node:fs";
import { lstat, rm, writeFile } from "node:fs/promises";
import writeFileAtomic from "write-file-atomic";

export interface AtomicWriteOptions {
  /** The file's mode; 0600 unless given. */
  readonly mode?: number;
  /** Flush the text to disk before the rename (default true). Worth skipping only for files that
   * describe processes, which a power cut ends anyway. */
  readonly fsync?: boolean;
}

export function writeAtomicSync(path: string, text: string, options: AtomicWriteOptions = {}): void {
  if (isSymlinkSync(path)) rmSync(path, { force: true });
  writeFileAtomic.sync(path, "", {
    ...libraryOptions(options),
    tmpfileCreated: (temporary) => writeFileSync(temporary, text, "utf8"),
  });
}

export async function writeAtomic(
  path: string,
  text: string,
  options: AtomicWriteOptions = {},
): Promise<void> {
  if (await isSymlink(path)) await rm(path, { force: true });
  await writeFileAtomic(path, "", {
    ...libraryOptions(options),
    tmpfileCreated: (temporary) => writeFile(temporary, text, "utf8"),
  });
}

function libraryOptions(options: AtomicWriteOptions): writeFileAtomic.Options {
  const owner =
    process.getuid !== undefined && process.getgid !== undefined
      ? { chown: { uid: process.getuid(), gid: process.getgid() } }
      : {};
  return { mode: options.mode ?? 0o600, fsync: options.fsync ?? true, encoding: "utf8", ...owner };
}

function isSymlinkSync(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

async function isSymlink(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isSymbolicLink();
  } catch {
    return false;
  }
}
