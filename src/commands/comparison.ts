// The comparison table a fan-out with worktrees prints (and `scv compare`): one line per attempt,
// the columns of src/worktrees/comparison.ts's rows. `--json` prints the rows themselves.

import { formatDuration } from "../duration.js";
import { attemptLabel } from "../turn/attempts.js";
import type { ComparisonRow } from "../worktrees/comparison.js";
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
