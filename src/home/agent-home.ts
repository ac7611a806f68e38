// Private folders: `$SCV_HOME` and everything scv makes in it (agent homes `agents/<name>/`,
// `conversations/`, `turns/`, `tools/`, `cache/`, the folders of key files), 0700, re-tightened when
// found loosened. Nothing inside `$SCV_HOME` is followed when it is a symbolic link: a process of the
// same user (a delegated agent) could plant `agents/<agent>` → `/tmp/x`, and scv would chmod that
// folder and write the key there. `$SCV_HOME` itself may be a link: where it lives is the user's
// choice.

import { closeSync, constants, fchmodSync, fstatSync, lstatSync, mkdirSync, openSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { ScvError } from "../errors.js";
import { makeDirs } from "./make-dirs.js";
import { agentHome, type Env, scvHome } from "./paths.js";

const PRIVATE_DIR = 0o700;

/** Opens a folder itself, never a link's target (ELOOP, or ENOTDIR for a link to a file). */
const DIR_NO_FOLLOW = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
const DIR_FOLLOW = constants.O_RDONLY | constants.O_DIRECTORY;

/** What was found where scv keeps a private folder or file of its own. */
type Refused = "link" | "not-folder" | "not-file";

const REFUSED_AS: Record<Refused, string> = {
  link: "is a symbolic link, and scv never follows one inside its home",
  "not-folder": "is not a folder",
  "not-file": "is not a regular file",
};

/** The one-line refusal for a link (or anything else) where scv keeps a private folder or file. */
export function refusedPath(path: string, found: Refused = "link"): ScvError {
  const anew = found === "not-file" ? "scv makes the file anew" : "scv makes the folder anew";
  return new ScvError("IO", `${path} ${REFUSED_AS[found]} — move it away (${anew}) and run scv again`);
}

/** Creates `dir` (and its missing parents) 0700, or tightens it to 0700 when group or others can
 * reach it. With `root` (scv's home, or an agent home inside it), `dir` must be inside it and no
 * folder below `root` down to `dir` may be a symbolic link; `root` is made private too (following
 * a link there). Without it, `dir` itself must not be a link. */
export function ensurePrivateDir(dir: string, root?: string): string {
  if (root === undefined || dir === root) {
    makeDirs(dir, PRIVATE_DIR);
    tighten(dir, root === undefined ? DIR_NO_FOLLOW : DIR_FOLLOW);
    return dir;
  }
  const below = relative(root, dir);
  if (below === "" || below.startsWith("..") || isAbsolute(below)) {
    throw new Error(`${dir} is not inside ${root}`);
  }
  makeDirs(root, PRIVATE_DIR);
  tighten(root, DIR_FOLLOW);
  let current = root;
  for (const part of below.split(sep)) {
    current = join(current, part);
    makeOwnDir(current);
  }
  tighten(dir, DIR_NO_FOLLOW);
  return dir;
}

/** `path` as a folder of its own: made 0700 when absent; a link or anything else is refused. */
function makeOwnDir(path: string): void {
  let stats = lstatSync(path, { throwIfNoEntry: false });
  if (stats === undefined) {
    try {
      mkdirSync(path, { mode: PRIVATE_DIR });
      return;
    } catch (error) {
      // Made meanwhile by another scv, or something else was put there.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      stats = lstatSync(path);
    }
  }
  if (stats.isSymbolicLink()) throw refusedPath(path);
  if (!stats.isDirectory()) throw refusedPath(path, "not-folder");
}

/** Sets the folder's mode to 0700 through a descriptor of the folder itself, so no link swapped in
 * after a check is followed. */
function tighten(dir: string, flags: number): void {
  let fd: number;
  try {
    fd = openSync(dir, flags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP") throw refusedPath(dir);
    if (code === "ENOTDIR") throw refusedPath(dir, lstatSync(dir).isSymbolicLink() ? "link" : "not-folder");
    throw error;
  }
  try {
    if ((fstatSync(fd).mode & 0o777) !== PRIVATE_DIR) fchmodSync(fd, PRIVATE_DIR);
  } catch (error) {
    // Through a descriptor Node names no path: the one-line message needs it.
    throw Object.assign(error as NodeJS.ErrnoException, { path: dir });
  } finally {
    closeSync(fd);
  }
}

/** `$SCV_HOME/<segments>`, created 0700 (scv's home too), no link below scv's home followed. */
export function ensureScvDir(env: Env, ...segments: string[]): string {
  const root = scvHome(env);
  return ensurePrivateDir(join(root, ...segments), root);
}

/** The home of the agent's account (the default one unless named), created 0700 on first use (scv's
 * home too). */
export function ensureAgentHome(name: string, env: Env, account?: string): string {
  return ensurePrivateDir(agentHome(name, env, account), scvHome(env));
}

/** Opens a regular file of scv's own for appending (created 0600), never through a symbolic link
 * and never anything but a regular file (a FIFO would block the open). */
export function openOwnFileForAppend(path: string): number {
  let fd: number;
  try {
    fd = openSync(
      path,
      constants.O_WRONLY |
        constants.O_APPEND |
        constants.O_CREAT |
        constants.O_NOFOLLOW |
        constants.O_NONBLOCK,
      0o600,
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP") throw refusedPath(path);
    if (code === "ENXIO") throw refusedPath(path, "not-file");
    throw error;
  }
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    throw refusedPath(path, "not-file");
  }
  return fd;
}

/** Puts the agent's credential files (relative to `home`) back to 0600 where the CLI rewrote one
 * looser (one CLI rewrites the settings file that holds the key as 0644 on its first turn). Never a
 * symlink's target (the file is opened with O_NOFOLLOW, and changed through that descriptor); a file
 * that is not there is nothing to do. */
export function tightenCredentialFiles(home: string, files: readonly string[]): void {
  for (const file of files) {
    let fd: number | undefined;
    try {
      fd = openSync(join(home, file), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
      const stats = fstatSync(fd);
      if (stats.isFile() && (stats.mode & 0o077) !== 0) fchmodSync(fd, 0o600);
    } catch {
      // Absent, a link, or gone meanwhile.
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }
}
