// The comparison table a fan-out with worktrees prints (and `scv compare`): one line per attempt,
// the columns of src/worktrees/comparison.ts's rows. `--json` prints the rows themselves. After a
// fan-out it goes to stderr, below the replies, as a summary does; `scv compare` prints it on
// stdout, where it is what was asked for.

import { formatDuration } from "../duration.js";
import type { TurnResult } from "../result.js";
import { type Attempt, attemptLabel } from "../turn/attempts.js";
import { type ComparisonRow, comparisonRow } from "../worktrees/comparison.js";
import { compactCount, renderTable } from "./table.js";

const HEADERS = ["AGENT", "CONVERSATION", "FILES", "+/-", "CHECK", "TOKENS", "COST", "TIME"];

function checkCell(row: ComparisonRow): string {
  if (row.check === "none") return "none";
  return row.checkDuration === null ? row.check : `${row.check} ${formatDuration(row.checkDuration)}`;
}

/** One row's cells. Pure. */
export function comparisonCells(row: ComparisonRow): string[] {
  const turn = formatDuration(row.duration);
  return [
    attemptLabel(row.agent, { attempt: row.attempt, of: row.attempts }),
    row.conversation ?? "-",
    row.files === null ? "-" : String(row.files),
    row.added === null || row.removed === null ? "-" : `+${row.added}/-${row.removed}`,
    checkCell(row),
    row.tokens === null ? "-" : compactCount(row.tokens),
    row.cost === null ? "-" : `$${row.cost.toFixed(4)}`,
    row.status === "completed" ? turn : `${turn} (${row.status})`,
  ];
}

/** The table, header first, columns aligned. Pure. */
export function renderComparison(rows: readonly ComparisonRow[]): string {
  return renderTable(HEADERS, rows.map(comparisonCells));
}

/** A finished turn's row, from what its result carries of its worktree, diffstat and check. Pure. */
function resultRow(result: TurnResult, attempt?: Pick<Attempt<unknown>, "attempt" | "of">): ComparisonRow {
  const { worktree, branch, diffstat, check } = result;
  return comparisonRow({
    result,
    ...(attempt === undefined ? {} : { attempt }),
    ...(worktree === undefined || branch === undefined ? {} : { worktree: { branch, dir: worktree } }),
    ...(diffstat === undefined ? {} : { diffstat }),
    ...(check === undefined
      ? {}
      : { check: { status: check.status, exitCode: check.exitCode, durationMs: check.duration } }),
  });
}

/** The table after a fan-out with worktrees, and the commands that go on from it. Pure. */
export function comparisonTable(
  results: readonly TurnResult[],
  attempts?: readonly Pick<Attempt<unknown>, "attempt" | "of">[],
): string {
  const rows = results.map((result, index) => resultRow(result, attempts?.[index]));
  const kept = rows.filter((row) => row.branch !== null && row.conversation !== null);
  const example = kept.find((row) => row.check === "pass") ?? kept[0];
  const next =
    example === undefined
      ? ""
      : `see one: scv diff ${example.conversation} · take one: scv apply ${example.conversation} · again: scv compare ${kept.map((row) => row.conversation).join(" ")}\n`;
  return `${renderComparison(rows)}${next}`;
}
