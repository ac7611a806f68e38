// Removing one file that may already be gone: fs.rmSync({ force: true }) does it too, but loads
// Node's rimraf and lstats the path first, on every turn, for the two files a turn removes.
// A file that is not there is seen by lstat without an exception: Node builds an error (message,
// stack) for each failed call, and most turns look for files that are absent (a `scv kill` request).

import { lstatSync, unlinkSync } from "node:fs";

export function removeIfPresent(path: string): void {
  try {
    if (lstatSync(path, { throwIfNoEntry: false }) === undefined) return;
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
