// `--with-changes`: the user's uncommitted changes — tracked and untracked files, not ignored ones —
// carried into a new worktree as one commit on its branch, so the agent starts from what the user
// sees and the branch's diff against that commit is the agent's work alone. The user's own index
// and files are only read: the state is gathered in a temporary index (a copy of the user's, for
// its stat cache: only changed files are read: scratch-index.ts), and moved onto another base
// three-way.

import { join, relative } from "node:path";
import { ScvError } from "../errors.js";
import type { Env } from "../home/paths.js";
import { gitLine, gitOk } from "./git.js";
import {
  both,
  commitTree,
  type GitIdentity,
  mergeIntoIndex,
  sameTree,
  withScratch,
  writePatch,
} from "./patch.js";
import type { Repository } from "./repo.js";
import { scratchIndex } from "./scratch-index.js";

/** Who the commit of carried changes is by. */
const CARRY_IDENTITY: GitIdentity = { name: "scv", email: "scv" };

/** A commit of the user's work tree as it is now, on `base`; undefined when it holds no change
 * against `HEAD`. `exclude`: a folder inside the tree not to carry (worktrees made inside it). */
export async function carryChanges(
  repo: Repository,
  env: Env,
  base: string,
  exclude?: string,
): Promise<string | undefined> {
  const cwd = repo.root;
  return withScratch(async (scratch) => {
    const index = await scratchIndex(cwd, env, scratch);
    const below = exclude === undefined ? "" : relative(cwd, exclude);
    const pathspec = below === "" || below.startsWith("..") ? [] : [".", `:(exclude,literal)${below}`];
    await gitOk(["add", "-A", "--", ...pathspec], { cwd, env, index });
    const tree = await gitLine(["write-tree"], { cwd, env, index });
    if (await sameTree(cwd, env, tree, "HEAD")) return undefined;
    const head = await gitLine(["rev-parse", "HEAD"], { cwd, env });
    let onBase = tree;
    if (head !== base) onBase = await moveOnto(repo, env, scratch, { head, tree, base });
    return commitTree(cwd, env, {
      tree: onBase,
      parent: base,
      message: `scv: uncommitted changes carried from ${cwd}\n`,
      identities: both(CARRY_IDENTITY),
    });
  });
}

/** The changes from `head` to `tree`, merged three-way onto `base`: the tree that makes. */
async function moveOnto(
  repo: Repository,
  env: Env,
  scratch: string,
  change: { readonly head: string; readonly tree: string; readonly base: string },
): Promise<string> {
  const cwd = repo.root;
  const patch = join(scratch, "carried.patch");
  const index = join(scratch, "onto-base");
  await writePatch(cwd, env, change.head, change.tree, patch);
  await gitOk(["read-tree", change.base], { cwd, env, index });
  const merged = await mergeIntoIndex(cwd, env, index, patch);
  if (merged.kind === "clean") return merged.tree;
  const listed = merged.paths.slice(0, 3).join(", ") + (merged.paths.length > 3 ? ", …" : "");
  throw new ScvError(
    "USAGE",
    `your uncommitted changes do not apply on the base (conflicts in ${listed}) — commit or stash them, or start from HEAD`,
  );
}
