// A temporary index that starts as a copy of the user's, for gathering the work tree's state
// (`git add -A` into it) without touching their own index: its stat cache spares reading the files
// that did not change. The copy keeps the index's modification time, which git reads to tell a
// racily clean entry (a file changed in the same second the index was written, its size unchanged)
// from a clean one: a copy stamped "now" would make such a change look clean, and it would be missed.
// A repository without an index starts from HEAD's tree, or empty before the first commit.
//
// API: `scratchIndex(cwd, env, scratch)` → the temporary index's path.

import { copyFileSync, statSync, utimesSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Env } from "../home/paths.js";
import { git, gitLine, gitOk } from "./git.js";

/** A copy of the index of the work tree at `cwd`, as `<scratch>/index`. */
export async function scratchIndex(cwd: string, env: Env, scratch: string): Promise<string> {
  const index = join(scratch, "index");
  const own = resolve(cwd, await gitLine(["rev-parse", "--git-path", "index"], { cwd, env }));
  const stats = statSync(own, { throwIfNoEntry: false });
  if (stats !== undefined) {
    copyFileSync(own, index);
    utimesSync(index, stats.atime, stats.mtime);
    return index;
  }
  const head = await git(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], { cwd, env });
  if (head.code === 0) await gitOk(["read-tree", "HEAD"], { cwd, env, index });
  return index;
}
