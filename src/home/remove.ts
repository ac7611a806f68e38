// Removing one file that may already be gone: fs.rmSync({ force: true }) does it too, but loads
// Node's rimraf and lstats the path first, ~1 ms of every turn for the two files a turn removes.

import { unlinkSync } from "node:fs";

export function removeIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
