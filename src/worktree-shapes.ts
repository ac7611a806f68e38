// The `--json` shapes of what worktrees add (docs/worktrees.md): a turn's worktree, branch, commit,
// diffstat and check, a conversation's worktree, the comparison's rows (`scv compare --json`) and
// what `agents gc` did with each worktree. Kept beside json-shapes.ts, under its rule: a field a
// shape has is always there, null where there is no value (json-documents.ts lists the documents).

import * as z from "zod/mini";
import { lazy } from "./lazy.js";
import type { CheckOutcome, Diffstat, TurnResult } from "./result.js";

const described = <T extends z.ZodMiniType>(schema: T, description: string): T =>
  schema.check(z.describe(description)) as T;
const count = () => z.int().check(z.nonnegative());

export const diffstatShape = lazy(() =>
  described(
    z.object({
      files: count(),
      added: count(),
      removed: count(),
      paths: z.array(
        z.object({
          path: z.string(),
          from: described(z.nullable(z.string()), "a renamed file's old path; null otherwise"),
          added: described(z.nullable(count()), "null for a binary file"),
          removed: described(z.nullable(count()), "null for a binary file"),
        }),
      ),
    }),
    "files changed and lines added and removed, per file too",
  ),
);

export const checkOutcomeShape = lazy(() =>
  described(
    z.object({
      command: z.string(),
      status: z.enum(["pass", "fail", "timeout"]),
      exitCode: described(z.nullable(z.int()), "null when it ended by a signal or could not start"),
      duration: described(count(), "milliseconds"),
      tail: described(z.array(z.string()), "its last lines of output"),
    }),
    "the --check run in the worktree after the turn",
  ),
);

/** The fields a turn's result gains in a worktree; null without one. */
export const turnWorktreeFields = () => ({
  worktree: described(z.nullable(z.string()), "the worktree it ran in (--worktree); null otherwise"),
  branch: described(z.nullable(z.string()), "its branch, scv/<handle>; null without a worktree"),
  commit: described(
    z.nullable(z.string()),
    "the commit of what this turn changed, on its branch; null without a worktree or when it changed nothing",
  ),
  diffstat: described(z.nullable(diffstatShape()), "what this turn changed; null without a worktree"),
  check: described(z.nullable(checkOutcomeShape()), "the --check after the turn; null when none ran"),
});

const diffstatJson = (diffstat: Diffstat): z.infer<ReturnType<typeof diffstatShape>> => ({
  files: diffstat.files,
  added: diffstat.added,
  removed: diffstat.removed,
  paths: diffstat.paths.map((each) => ({
    path: each.path,
    from: each.from ?? null,
    added: each.added,
    removed: each.removed,
  })),
});

export const checkJson = (check: CheckOutcome): z.infer<ReturnType<typeof checkOutcomeShape>> => ({
  command: check.command,
  status: check.status,
  exitCode: check.exitCode,
  duration: check.duration,
  tail: [...check.tail],
});

/** A turn's worktree fields as `--json` prints them. Pure. */
export function turnWorktreeJson(turn: TurnResult) {
  return {
    worktree: turn.worktree ?? null,
    branch: turn.branch ?? null,
    commit: turn.commit ?? null,
    diffstat: turn.diffstat === undefined ? null : diffstatJson(turn.diffstat),
    check: turn.check === undefined ? null : checkJson(turn.check),
  };
}

const conversationWorktreeShape = lazy(() =>
  z.object({
    handle: z.string(),
    repoRoot: described(z.string(), "the user's work tree it was made from: where scv apply brings changes"),
    commonDir: z.string(),
    repoId: z.string(),
    dir: z.string(),
    branch: z.string(),
    baseRef: described(z.string(), "what the user named as the base (--base; HEAD by default)"),
    forkedFrom: described(z.string(), "the commit baseRef named when the worktree was made"),
    base: described(
      z.string(),
      "the commit the agent's work starts from (forkedFrom, or a commit of the user's changes carried in)",
    ),
    carried: described(z.boolean(), "whether the user's uncommitted changes were carried in"),
    createdAt: z.string(),
    links: described(z.array(z.string()), "paths linked in from the user's repository (worktree_links)"),
    applied: described(z.nullable(z.string()), "the branch tip scv apply last brought in; null if never"),
  }),
);

/** The fields a conversation gains: its worktree and its last check, null without. */
export const conversationWorktreeFields = () => ({
  worktree: described(
    z.nullable(conversationWorktreeShape()),
    "its git worktree (--worktree); null when it runs in the user's folder",
  ),
  lastCheck: described(
    z.nullable(checkOutcomeShape()),
    "the --check after its last turn in the worktree; null when none ran",
  ),
});

export const comparisonRowShape = lazy(() =>
  described(
    z.object({
      agent: z.string(),
      attempt: described(z.int().check(z.positive()), "which attempt of its target, from 1"),
      attempts: described(
        z.int().check(z.positive()),
        "how many attempts of its target (--n, or the target named again)",
      ),
      conversation: described(z.nullable(z.string()), "its handle; null when none was recorded"),
      branch: described(z.nullable(z.string()), "scv/<handle>; null without a worktree"),
      worktree: z.nullable(z.string()),
      files: described(
        z.nullable(count()),
        "what the branch holds against its base; null without a worktree",
      ),
      added: z.nullable(count()),
      removed: z.nullable(count()),
      check: described(
        z.enum(["pass", "fail", "timeout", "none"]),
        "the check's verdict; none when none ran",
      ),
      checkExitCode: z.nullable(z.int()),
      checkDuration: described(z.nullable(count()), "the check's milliseconds"),
      tokens: described(z.nullable(z.number()), "input plus output tokens, where the CLI reported them"),
      cost: described(z.nullable(z.number()), "dollars, where the CLI reported a cost"),
      duration: described(count(), "the turn's milliseconds"),
      status: z.enum(["completed", "failed", "declined", "timeout", "cancelled"]),
      exitCode: z.int(),
    }),
    "one attempt of a fan-out with worktrees",
  ),
);

export const gcWorktreeShape = lazy(() =>
  z.object({
    handle: z.string(),
    dir: z.string(),
    branch: z.string(),
    outcome: z.enum(["removed", "kept"]),
    reason: described(z.nullable(z.string()), "why it was kept; null when it went"),
  }),
);
