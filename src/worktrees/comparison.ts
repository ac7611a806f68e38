// The comparison after a fan-out with worktrees (and `scv compare` later): one row per attempt —
// agent, conversation, files, lines added and removed, the check (pass, fail, timeout or none, with
// its time), tokens, cost, turn time — made from a turn's result, its worktree's diffstat and its
// check. `--json` prints the rows as they are (an array, `comparisonRowSchema` is its contract);
// the terminal table is src/commands/comparison.ts.
//
// API: `comparisonRow({ result, attempt?, worktree?, diffstat?, check? })` → `ComparisonRow`.

import * as z from "zod/mini";
import { lazy } from "../lazy.js";
import { type TurnResult, turnStatusSchema } from "../result.js";
import type { CheckResult } from "./check.js";
import type { DiffStat } from "./diffstat.js";
import type { Worktree } from "./record.js";

export const comparisonRowSchema = lazy(() =>
  z.object({
    /** The agent's name, as its row has it. */
    agent: z.string(),
    /** Which attempt of its target (from 1), of how many (`--n`, or the target named again). */
    attempt: z.int().check(z.positive()),
    attempts: z.int().check(z.positive()),
    /** The conversation's handle; null when none was recorded (a turn that failed to start). */
    conversation: z.nullable(z.string()),
    /** Its branch (`scv/<handle>`) and worktree folder; null without a worktree. */
    branch: z.nullable(z.string()),
    worktree: z.nullable(z.string()),
    /** What the branch holds against its base; null without a worktree. */
    files: z.nullable(z.int().check(z.nonnegative())),
    added: z.nullable(z.int().check(z.nonnegative())),
    removed: z.nullable(z.int().check(z.nonnegative())),
    /** The check's verdict; `none` when no check ran. */
    check: z.enum(["pass", "fail", "timeout", "none"]),
    checkExitCode: z.nullable(z.int()),
    checkDuration: z.nullable(z.int().check(z.nonnegative())),
    /** Input plus output tokens, where the CLI reported them. */
    tokens: z.nullable(z.number()),
    /** Dollars, where the CLI reported a cost. */
    cost: z.nullable(z.number()),
    /** The turn's wall-clock milliseconds, status and scv exit code. */
    duration: z.int().check(z.nonnegative()),
    status: turnStatusSchema(),
    exitCode: z.int(),
  }),
);

export type ComparisonRow = z.infer<ReturnType<typeof comparisonRowSchema>>;

export interface ComparisonInput {
  readonly result: TurnResult;
  readonly attempt?: { readonly attempt: number; readonly of: number };
  readonly worktree?: Pick<Worktree, "branch" | "dir">;
  readonly diffstat?: Pick<DiffStat, "files" | "added" | "removed">;
  readonly check?: CheckResult;
}

/** Input plus output tokens; null when the CLI reported neither. Pure. */
function tokens(result: TurnResult): number | null {
  const { usage } = result;
  if (usage === null || (usage.input === undefined && usage.output === undefined)) return null;
  return (usage.input ?? 0) + (usage.output ?? 0);
}

/** One attempt's row. Pure. */
export function comparisonRow(input: ComparisonInput): ComparisonRow {
  const { result, diffstat, check } = input;
  return {
    agent: result.agent,
    attempt: input.attempt?.attempt ?? 1,
    attempts: input.attempt?.of ?? 1,
    conversation: result.conversation,
    branch: input.worktree?.branch ?? null,
    worktree: input.worktree?.dir ?? null,
    files: diffstat?.files ?? null,
    added: diffstat?.added ?? null,
    removed: diffstat?.removed ?? null,
    check: check?.status ?? "none",
    checkExitCode: check?.exitCode ?? null,
    checkDuration: check?.durationMs ?? null,
    tokens: tokens(result),
    cost: result.cost,
    duration: result.duration,
    status: result.status,
    exitCode: result.exitCode,
  };
}
