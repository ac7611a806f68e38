// A conversation's worktree and branch removed (`conversations rm`, `agents gc`): never while a turn
// of it runs (the caller says so through `isRunning`), and never losing what the agent left
// uncommitted — a turn whose scv was killed leaves its writes in the folder, so they are committed on
// the branch before the folder goes. `onlyIfMerged` (gc) keeps both while the branch holds work
// that is neither merged nor applied; `force` removes them all the same. `git worktree prune` ends
// every removal, for this worktree's record in the repository and any other whose folder is gone.
//
// API: `removeWorktree(worktree, { env, isRunning?, onlyIfMerged?, force?, applied? })` →
// `RemoveOutcome`; `holdsUnmergedWork(worktree, { env, applied? })` → boolean (gc's dry run).

import { existsSync } from "node:fs";
import { ScvError } from "../errors.js";
import type { Env } from "../home/paths.js";
import { repositoryFolder } from "./diffstat.js";
import { git, gitFailed, gitOk } from "./git.js";
import { unlinkAll } from "./links.js";
import { sameTree, touchedPaths } from "./patch.js";
import { branchRef, type Worktree } from "./record.js";
import { recordTurn } from "./record-turn.js";
import { withWorktreeLock } from "./worktree-lock.js";

export interface RemoveOptions {
  readonly env: Env;
  /** Whether a turn of its conversation runs now (its lock, its registration): then nothing goes. */
  readonly isRunning?: () => boolean | Promise<boolean>;
  /** gc: keep worktree and branch while the branch holds work not merged or applied. */
  readonly onlyIfMerged?: boolean;
  /** Remove even unmerged work. */
  readonly force?: boolean;
  /** The branch tip `applyWorktree` applied, from the conversation's record. */
  readonly applied?: string;
}

export type RemoveOutcome =
  | {
      readonly kind: "removed";
      /** A commit of what was left uncommitted in the folder, made before it went. */
      readonly saved: string | null;
      /** Whether the branch held work not merged or applied (removed all the same: `force`, or not
       * `onlyIfMerged`). */
      readonly unmerged: boolean;
    }
  | { readonly kind: "kept"; readonly saved: string | null; readonly reason: "unmerged" };

/** Whether every path the branch changed is in `commit` as the branch has it (applied with
 * `--commit`, cherry-picked, merged by hand): nothing of it would be lost. */
async function alreadyIn(
  cwd: string,
  env: Env,
  worktree: Worktree,
  tip: string,
  commit: string,
): Promise<boolean> {
  const touched = await touchedPaths(cwd, env, worktree.base, tip);
  const run = await git(
    ["diff", "--quiet", "--no-ext-diff", "--no-textconv", commit, tip, "--", ...touched],
    {
      cwd,
      env,
      literalPaths: true,
    },
  );
  return run.code === 0;
}

/** Whether the branch holds work that is in neither the base (as it is now), nor the user's HEAD,
 * nor what was applied. A branch that is gone holds nothing. */
export async function holdsUnmergedWork(
  worktree: Worktree,
  options: Pick<RemoveOptions, "env" | "applied">,
): Promise<boolean> {
  const { env } = options;
  const cwd = repositoryFolder(worktree);
  const tipRun = await git(["rev-parse", "--verify", "--quiet", branchRef(worktree)], { cwd, env });
  const tip = tipRun.stdout.trim();
  if (tipRun.code !== 0 || tip === "") return false;
  if (tip === options.applied || (await sameTree(cwd, env, worktree.base, tip))) return false;
  // The user's HEAD and base, as they are now (never the worktree's own HEAD: that is the tip).
  const targets = cwd === worktree.dir ? [] : [...new Set(["HEAD", worktree.baseRef])];
  for (const target of targets) {
    const run = await git(["rev-parse", "--verify", "--quiet", `${target}^{commit}`], { cwd, env });
    const commit = run.stdout.trim();
    if (run.code !== 0 || commit === "") continue;
    const ancestor = await git(["merge-base", "--is-ancestor", tip, commit], { cwd, env });
    if (ancestor.code === 0) return false;
    if (await alreadyIn(cwd, env, worktree, tip, commit)) return false;
  }
  return true;
}

export async function removeWorktree(worktree: Worktree, options: RemoveOptions): Promise<RemoveOutcome> {
  const { env } = options;
  if (await options.isRunning?.()) {
    throw new ScvError(
      "CONVERSATION_BUSY",
      `a turn of ${worktree.handle} is running in its worktree — wait for it (scv wait ${worktree.handle}) or stop it (scv kill ${worktree.handle}), then remove it`,
    );
  }
  let saved: string | null = null;
  const present = existsSync(worktree.dir);
  if (present) {
    const message = `${worktree.handle}: changes left in its worktree\n\nSaved by scv before the worktree ${worktree.dir} was removed.\n`;
    try {
      saved = (await recordTurn(worktree, { agent: "scv", prompt: "", message, env })).commit;
    } catch (error) {
      // A folder git no longer takes for a worktree: `force` removes it all the same.
      if (!options.force) throw error;
    }
  }
  const unmerged = await holdsUnmergedWork(worktree, options);
  if (unmerged && options.onlyIfMerged && !options.force) return { kind: "kept", saved, reason: "unmerged" };
  const cwd = repositoryFolder(worktree);
  await withWorktreeLock(worktree.repoId, env, async () => {
    if (present) {
      // What the links point at is the user's: they go first, so nothing below can reach it.
      unlinkAll(worktree);
      // --force: ignored files (a build, node_modules) go with the folder; everything else is saved.
      const args = ["worktree", "remove", "--force", "--force", worktree.dir];
      const run = await git(args, { cwd, env });
      if (run.code !== 0 && existsSync(worktree.dir)) throw gitFailed(args, cwd, run);
    }
    await gitOk(["worktree", "prune"], { cwd, env });
    const branch = await git(["branch", "-D", "-q", worktree.branch], { cwd, env });
    const left = await git(["rev-parse", "--verify", "--quiet", branchRef(worktree)], { cwd, env });
    if (branch.code !== 0 && left.code === 0) throw gitFailed(["branch"], cwd, branch);
  });
  return { kind: "removed", saved, unmerged };
}
