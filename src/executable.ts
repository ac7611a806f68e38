// Finding a command's executable the way a shell does: the first regular file in the search
// directories that this process may execute.
//
// Not the `which` package, which scv used before: its isexe loads node:fs/promises at require time
// (on every turn's start-up, for one synchronous lookup), and it works the permission out
// from the mode bits itself where access(2) asks the kernel, which also knows ACLs and read-only
// mounts.

import { accessSync, constants, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";

function isExecutableFile(path: string): boolean {
  try {
    // Most places searched have no such file: answered without building an exception.
    if (!statSync(path, { throwIfNoEntry: false })?.isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The absolute path of `command` in the first of `dirs` that has it as an executable file; a
 * command containing `/` is that path itself (against `cwd` when relative). Empty entries of a
 * search path are not the current folder here: scv never runs an agent from wherever it stands. */
export function findExecutable(command: string, dirs: readonly string[], cwd?: string): string | undefined {
  if (command.includes("/")) {
    const path = absolute(command, cwd);
    return path !== undefined && isExecutableFile(path) ? path : undefined;
  }
  for (const dir of dirs) {
    if (dir === "") continue;
    const path = absolute(join(dir, command), cwd);
    if (path !== undefined && isExecutableFile(path)) return path;
  }
  return undefined;
}

/** `path` made absolute; undefined for a relative one when the current folder has been deleted. */
function absolute(path: string, cwd: string | undefined): string | undefined {
  if (isAbsolute(path)) return path;
  try {
    return resolve(cwd ?? process.cwd(), path);
  } catch {
    return undefined;
  }
}
