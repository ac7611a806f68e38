// One repository's worktrees are added and removed one at a time, across scv processes (a best-of-N
// fan-out makes several at once, background turns each in their own scv): `git worktree add` reads
// every other worktree's files under `.git/worktrees/`, and fails on one a concurrent add is still
// writing ("failed to read .git/worktrees/<name>/commondir"). The lock is scv's own
// (src/home/lock.ts) on `$SCV_HOME/worktrees/<repo-id>/git`, whatever `worktree_dir` says.

import { join } from "node:path";
import { ScvError } from "../errors.js";
import { ensureScvDir } from "../home/agent-home.js";
import { takeLock } from "../home/lock.js";
import type { Env } from "../home/paths.js";
import { timing } from "../timing.js";

const POLL_MS = 100;

/** Runs `work` while holding the repository's worktree lock. */
export async function withWorktreeLock<T>(repoId: string, env: Env, work: () => Promise<T>): Promise<T> {
  const folder = ensureScvDir(env, "worktrees", repoId);
  let release: () => Promise<void>;
  try {
    release = await takeLock(join(folder, "git"), {
      stale: 30_000,
      update: timing("lockRefresh"),
      retries: {
        retries: timing("worktreeLockWait") / POLL_MS,
        factor: 1,
        minTimeout: POLL_MS,
        maxTimeout: POLL_MS,
      },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ELOCKED") throw error;
    throw new ScvError(
      "IO",
      `another scv has been adding or removing a worktree of this repository for ${timing("worktreeLockWait") / 60_000} minutes — see scv ps, then try again`,
      { cause: error },
    );
  }
  try {
    return await work();
  } finally {
    await release();
  }
}
