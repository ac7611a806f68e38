// mkdir -p. Not fs.mkdirSync({ recursive: true }): where mkdir(2) answers ENOENT although the parent
// exists (procfs: SCV_HOME=/proc/x), Node's loop retries the parent forever at full CPU, with the
// event loop blocked so that not even SIGINT ends scv. Here each missing folder is made once, and a
// second ENOENT is the error it is.

import { mkdirSync, statSync } from "node:fs";
import { dirname } from "node:path";

/** Creates `dir` and its missing parents with `mode` (before the umask); nothing when it exists. */
export function makeDirs(dir: string, mode: number): void {
  // Usually it is there already: a stat that finds it costs less than mkdir's EEXIST, for which
  // Node builds an error object, message and stack.
  if (statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return;
  try {
    mkdirSync(dir, { mode });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST" && statSync(dir).isDirectory()) return;
    const parent = dirname(dir);
    if (code !== "ENOENT" || parent === dir) throw error;
    makeDirs(parent, mode);
    mkdirSync(dir, { mode });
  }
}
