// What scv keeps about one conversation's worktree: made by `createWorktree`, handed to every other
// function of src/worktrees/, and stored in the conversation's record (the schema is
// src/home/worktree-record.ts, storage's, which checks it when read back). The library keeps no
// file of its own: git holds the branch and the worktree, the conversation record holds this.

import type { Worktree } from "../home/worktree-record.js";

export { type Worktree, worktreeSchema } from "../home/worktree-record.js";

/** The branch of a conversation's worktree. */
export function branchName(handle: string): string {
  return `scv/${handle}`;
}

/** The branch's full ref name. */
export function branchRef(worktree: Pick<Worktree, "branch">): string {
  return `refs/heads/${worktree.branch}`;
}
