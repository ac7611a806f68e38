// A conversation's worktree made: `git worktree add -b scv/<handle> <folder> <start>`, where the
// start is the base's commit (`HEAD` or `--base <ref>`), or with `withChanges` a commit of the
// user's uncommitted changes on top of it (carry.ts). Everything that can be refused is checked
// before anything is made: the handle, the base, a branch of that name, the folder.
//
// API: `createWorktree(repo, { handle, base?, withChanges?, worktreeDir?, env })` → `Worktree`
// (record.ts), which the caller stores in the conversation's record.

import { EXAMPLE_AGENTS } from "../adapters.js";
import { ScvError } from "../errors.js";
import { HANDLE_PATTERN } from "../home/conversations.js";
import type { Env } from "../home/paths.js";
import { isoTimestamp } from "../timestamp.js";
import { carryChanges } from "./carry.js";
import { git, gitFailed } from "./git.js";
import { prepareWorktreeFolder, removeEmptyFolder, worktreeFolder } from "./place.js";
import { branchName, type Worktree } from "./record.js";
import { type Repository, resolveBase } from "./repo.js";
import { withWorktreeLock } from "./worktree-lock.js";

export interface CreateOptions {
  /** The conversation's handle (`<agent>-k3f9x2`): the branch is `scv/<handle>`. */
  readonly handle: string;
  /** What to branch from: `HEAD` (the default), a branch, a tag or a commit. */
  readonly base?: string;
  /** Carry the user's uncommitted changes (tracked and untracked, not ignored) into it. */
  readonly withChanges?: boolean;
  /** The config's `worktree_dir` (else `$SCV_HOME/worktrees/<repo-id>/`). */
  readonly worktreeDir?: string;
  readonly env: Env;
  readonly now?: () => Date;
}

export async function createWorktree(repo: Repository, options: CreateOptions): Promise<Worktree> {
  const { handle, env } = options;
  if (!HANDLE_PATTERN.test(handle)) {
    throw new ScvError(
      "USAGE",
      `'${handle}' is not a conversation handle (like ${EXAMPLE_AGENTS[0]}-k3f9x2)`,
    );
  }
  const cwd = repo.root;
  const branch = branchName(handle);
  const forkedFrom = await resolveBase(repo, options.base, env);
  const taken = await git(["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`], { cwd, env });
  if (taken.code === 0) {
    throw new ScvError(
      "USAGE",
      `the branch ${branch} already exists in ${cwd} — remove it (git branch -D ${branch}) or continue that conversation`,
    );
  }
  const place = { env, ...(options.worktreeDir === undefined ? {} : { worktreeDir: options.worktreeDir }) };
  const carried = options.withChanges
    ? await carryChanges(repo, env, forkedFrom, worktreeFolder(repo, handle, place).parent)
    : undefined;
  const start = carried ?? forkedFrom;
  const dir = prepareWorktreeFolder(repo, handle, place);
  const args = ["worktree", "add", "--quiet", "-b", branch, dir, start];
  const run = await withWorktreeLock(repo.id, env, () => git(args, { cwd, env }));
  if (run.code !== 0) {
    removeEmptyFolder(dir);
    throw gitFailed(args, cwd, run);
  }
  return {
    handle,
    repoRoot: repo.root,
    commonDir: repo.commonDir,
    repoId: repo.id,
    dir,
    branch,
    baseRef: options.base ?? "HEAD",
    forkedFrom,
    base: start,
    carried: carried !== undefined,
    createdAt: isoTimestamp(options.now?.() ?? new Date()),
  };
}
