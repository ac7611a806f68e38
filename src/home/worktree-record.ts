// What scv keeps about one conversation's git worktree, stored in the conversation's record (and a
// running turn's, for the reaper): made by src/worktrees/create.ts, read back through this schema.
// Storage, so below src/worktrees/: the records that hold it are src/home/'s.

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
    /** Paths linked in from the user's repository (`worktree_links`): never committed, unlinked
     * before the worktree goes. */
    links: z.optional(z.array(z.string())),
    /** The branch tip `scv apply` last brought into the user's tree: gc counts it as kept. */
    applied: z.optional(z.string()),
  }),
);

export type Worktree = z.infer<ReturnType<typeof worktreeSchema>>;
