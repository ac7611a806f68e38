// The comparison after a fan-out with worktrees (and `scv compare` later): one row per attempt —
// agent, conversation, files, lines added and removed, the check (pass, fail, timeout or none, with
// its time), tokens, cost, turn time — made from a turn's result, its worktree's diffstat and its
// check. `--json` prints the rows as they are (an array, `comparisonRowSchema` is its contract);
// the terminal table is src/commands/comparison.ts.
//
// API: `comparisonRow({ result, attempt?, worktree?, diffstat?, check? })` → `ComparisonRow`.

import type * as z from "zod/mini";
import type { TurnResult } from "../result.js";
import { comparisonRowShape } from "../worktree-shapes.js";
import type { CheckResult } from "./check.js";
import type { DiffStat } from "./diffstat.js";
import type { Worktree } from "./record.js";

/** The row's shape: `scv compare --json` prints an array of them (docs/json/compare.schema.json). */
export const comparisonRowSchema = comparisonRowShape;

export type ComparisonRow = z.infer<ReturnType<typeof comparisonRowSchema>>;

/** What a row reads of a turn's result (or of a conversation's record: `scv compare`). */
export type ComparedTurn = Pick<
  TurnResult,
  "agent" | "conversation" | "usage" | "cost" | "duration" | "status" | "exitCode"
>;

export interface ComparisonInput {
  readonly result: ComparedTurn;
  readonly attempt?: { readonly attempt: number; readonly of: number };
  readonly worktree?: Pick<Worktree, "branch" | "dir">;
  readonly diffstat?: Pick<DiffStat, "files" | "added" | "removed">;
  readonly check?: Pick<CheckResult, "status" | "exitCode" | "durationMs">;
}

/** Input plus output tokens; null when the CLI reported neither. Pure. */
function tokens(result: ComparedTurn): number | null {
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
