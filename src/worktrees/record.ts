// What scv keeps about one conversation's worktree: made by `createWorktree`, handed to every other
// function of src/worktrees/, and stored by the caller in the conversation's record (the
// `worktreeSchema` below checks it when read back). The library keeps no file of its own: git holds
// the branch and the worktree, the conversation record holds this.

import * as z from "zod/mini";
import { lazy } from "../lazy.js";

export const worktreeSchema = lazy(() =>
  // Loose, as the conversation record is: a later scv's fields survive an earlier one's rewrite.
  z.looseObject({
    /** The conversation's handle; the branch is `scv/<handle>`. */
    handle: z.string(),
    /** The top level of the user's work tree it was made from: where `apply` brings changes. */
    repoRoot: z.string(),
    /** The repository's common git directory (absolute, real). */
    commonDir: z.string(),
    /** The repository's folder name under `$SCV_HOME/worktrees/`. */
    repoId: z.string(),
    /** The worktree's own folder. */
    dir: z.string(),
    /** `scv/<handle>`. */
    branch: z.string(),
    /** What the user named as the base (`HEAD`, a branch, a tag, a sha). */
    baseRef: z.string(),
    /** The commit `baseRef` named when the worktree was made. */
    forkedFrom: z.string(),
    /** The commit the agent's work starts from, against which diffstat, diff and apply compare:
     * `forkedFrom`, or with the user's uncommitted changes carried, a commit of them on top of it. */
    base: z.string(),
    /** Whether the user's uncommitted changes were carried in (`base` holds them). */
    carried: z.boolean(),
    /** When it was made (UTC ISO 8601). */
    createdAt: z.string(),
  }),
);

export type Worktree = z.infer<ReturnType<typeof worktreeSchema>>;

/** The branch of a conversation's worktree. */
export function branchName(handle: string): string {
  return `scv/${handle}`;
}

/** The branch's full ref name. */
export function branchRef(worktree: Pick<Worktree, "branch">): string {
  return `refs/heads/${worktree.branch}`;
}
