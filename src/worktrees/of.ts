// The worktree a user or a caller names by its conversation (`<agent>-k3f9x2`) or one of its jobs
// (`<agent>-k3f9x2.a1b2c3d4`): `scv diff`, `scv apply`, `scv compare`, and reviews of a job's branch
// (`scv review --job`) all start here. One line and exit 2 when the name is no conversation's, or its
// conversation has no worktree.
//
// API: `worktreeOf(name, env)` → `{ handle, job?, record, worktree }`.

import { EXAMPLE_AGENTS } from "../adapters.js";
import { ScvError } from "../errors.js";
import { type ConversationRecord, HANDLE_PATTERN, readConversation } from "../home/conversations.js";
import type { Env } from "../home/paths.js";
import { jobHandle } from "../home/turn-files.js";
import type { Worktree } from "./record.js";

export interface WorktreeOwner {
  /** The conversation's handle. */
  readonly handle: string;
  /** The job, when one was named. */
  readonly job?: string;
  /** The conversation's record as it is now. */
  readonly record: ConversationRecord;
  readonly worktree: Worktree;
}

/** The conversation `name` (a handle or a job) and its worktree. */
export function worktreeOf(name: string, env: Env): WorktreeOwner {
  const fromJob = jobHandle(name);
  const handle = fromJob ?? name;
  if (!HANDLE_PATTERN.test(handle)) {
    throw new ScvError(
      "USAGE",
      `'${name}' is not a conversation or a job (like ${EXAMPLE_AGENTS[0]}-k3f9x2 or ${EXAMPLE_AGENTS[0]}-k3f9x2.a1b2c3d4) — scv conversations list shows them`,
    );
  }
  const record = readConversation(handle, env);
  if (record.worktree === undefined) {
    throw new ScvError(
      "USAGE",
      `conversation ${handle} did not run in a worktree (it works in ${record.cwd}) — a worktree is made by scv delegate --worktree`,
    );
  }
  return { handle, ...(fromJob === undefined ? {} : { job: name }), record, worktree: record.worktree };
}
