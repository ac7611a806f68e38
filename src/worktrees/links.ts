// What a fresh checkout lacks because git ignores it — node_modules, a .env, a build cache — linked
// into a new worktree from the user's repository (`worktree_links` in scv's config): the agent and
// its check find them as in the user's tree, with nothing to install or copy. A link is never
// committed on the branch (recordTurn leaves the worktree's links out; a folder-only pattern like
// `node_modules/` would not ignore a link of that name), and it is unlinked before the worktree
// goes, so removing a worktree never reaches what a link points at. A path the checkout already has
// (git tracks it) is refused: the link would replace the branch's own files.
//
// API: `linkIgnored(worktree, paths)` → `{ linked, missing }` (throws a one-line usage error for a
// path that is absolute, leaves the repository, or is in the checkout); `unlinkAll(worktree)`;
// `linkPathspecs(worktree)` → the pathspecs that take them out of the index again.

import { existsSync, lstatSync, mkdirSync, symlinkSync, unlinkSync } from "node:fs";
import { dirname, isAbsolute, join, normalize, sep } from "node:path";
import { ScvError } from "../errors.js";
import type { Worktree } from "./record.js";

export interface Linked {
  /** The paths linked, relative to the repository's top level. */
  readonly linked: readonly string[];
  /** The paths the user's repository does not have: nothing to link. */
  readonly missing: readonly string[];
}

/** A path as the config gives it, checked: relative, inside the repository, not `.git`. Pure. */
export function linkPath(given: string): string {
  const path = normalize(given).replace(/\/+$/, "");
  const first = path.split(sep)[0];
  if (isAbsolute(given) || path === "." || path === "" || first === ".." || first === ".git") {
    throw new ScvError(
      "USAGE",
      `worktree_links: '${given}' is not a path inside the repository — give one relative to its top level, like node_modules or .env`,
    );
  }
  return path;
}

/** Whether anything is at `path`, a dangling link too. */
function present(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Links each path of the user's repository (`worktree.repoRoot`) into the worktree. Every path is
 * checked before any link is made. */
export function linkIgnored(worktree: Pick<Worktree, "repoRoot" | "dir">, paths: readonly string[]): Linked {
  const checked = paths.map(linkPath);
  for (const path of checked) {
    if (present(join(worktree.dir, path))) {
      throw new ScvError(
        "USAGE",
        `worktree_links: ${path} is in the checkout (git tracks it, or --with-changes carried it), so a link would replace the branch's own files — link only what git ignores, like node_modules or .env`,
      );
    }
  }
  const linked: string[] = [];
  const missing: string[] = [];
  for (const path of checked) {
    const source = join(worktree.repoRoot, path);
    if (!existsSync(source)) {
      missing.push(path);
      continue;
    }
    const target = join(worktree.dir, path);
    mkdirSync(dirname(target), { recursive: true });
    symlinkSync(source, target);
    linked.push(path);
  }
  return { linked, missing };
}

/** Unlinks the worktree's links (only where a link still is: what the agent put there instead is
 * its work, and stays). */
export function unlinkAll(worktree: Pick<Worktree, "dir" | "links">): void {
  for (const path of worktree.links ?? []) {
    const target = join(worktree.dir, path);
    try {
      if (lstatSync(target).isSymbolicLink()) unlinkSync(target);
    } catch {
      // Gone already.
    }
  }
}

/** The worktree's links as literal pathspecs, for `git rm --cached` after `git add -A`: a pathspec
 * that names an ignored path (`.env`) makes `git add` fail, exclude or not. Pure. */
export function linkPathspecs(worktree: Pick<Worktree, "links">): string[] {
  return (worktree.links ?? []).map((path) => `:(literal)${path}`);
}
