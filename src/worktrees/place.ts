// Where a worktree's folder goes: `$SCV_HOME/worktrees/<repo-id>/<handle>`, every folder 0700 and
// none followed when it is a symbolic link (src/home/agent-home.ts), or `<worktree_dir>/<handle>`
// when the config names a folder (relative to the repository's top level: `.worktrees` puts them in
// the project, which is then the user's choice). A folder on the way that another user owns is
// refused: whoever owns it could read the code, or swap what the agent works on.
//
// API: `worktreeFolder(repo, handle, options)` (pure: where it would go) and
// `prepareWorktreeFolder(...)`, which makes the handle's folder, empty and 0700, for git to fill.

import { lstatSync, mkdirSync, rmdirSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { ScvError } from "../errors.js";
import { ensurePrivateDir, refusedPath } from "../home/agent-home.js";
import { makeDirs } from "../home/make-dirs.js";
import { type Env, scvHome } from "../home/paths.js";
import type { Repository } from "./repo.js";

export interface PlaceOptions {
  readonly env: Env;
  /** The config's `worktree_dir`: absolute, or relative to the repository's top level. */
  readonly worktreeDir?: string;
}

/** The folder holding the repository's worktrees, and the handle's own. Pure but for `SCV_HOME`. */
export function worktreeFolder(
  repo: Repository,
  handle: string,
  options: PlaceOptions,
): { readonly parent: string; readonly dir: string } {
  const parent =
    options.worktreeDir === undefined
      ? join(scvHome(options.env), "worktrees", repo.id)
      : resolve(repo.root, options.worktreeDir);
  return { parent, dir: join(parent, handle) };
}

function foreignOwner(path: string): ScvError {
  return new ScvError(
    "IO",
    `${path} belongs to another user, so scv will not put a worktree there — remove it (or set worktree_dir to a folder you own) and run scv again`,
  );
}

/** Refuses `path` when it is not the current user's own (root's folders are root's). */
function ownFolder(path: string): void {
  const uid = process.getuid?.();
  const stats = lstatSync(path);
  if (stats.isSymbolicLink()) throw refusedPath(path);
  if (uid !== undefined && stats.uid !== uid) throw foreignOwner(path);
}

/** Makes the handle's folder (empty, 0700) and its parents, refusing a link or another user's
 * folder on the way; a folder already there is refused (another worktree's, or left by one). */
export function prepareWorktreeFolder(repo: Repository, handle: string, options: PlaceOptions): string {
  const { parent, dir } = worktreeFolder(repo, handle, options);
  if (options.worktreeDir === undefined) {
    const home = scvHome(options.env);
    ensurePrivateDir(parent, home);
    // Below scv's home: `worktrees/` and `<repo-id>/`, each the user's own (ensurePrivateDir refused
    // links and made them 0700; a folder another user made there keeps its owner).
    const below = relative(home, parent).split(sep);
    for (let depth = 1; depth <= below.length; depth += 1) ownFolder(join(home, ...below.slice(0, depth)));
  } else {
    // The user's own folder: made private when scv makes it, left as it is when it exists.
    makeDirs(parent, 0o700);
    ownFolder(parent);
  }
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    throw new ScvError(
      "IO",
      `${dir} already exists, so scv will not make ${handle}'s worktree there — move it away and run scv again`,
    );
  }
  return dir;
}

/** Removes the handle's folder scv made when git could not fill it (empty: nothing is lost). */
export function removeEmptyFolder(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // Not empty (git wrote something: `git worktree prune` and gc deal with it), or gone.
  }
}
