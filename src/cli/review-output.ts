// How a result carrying a review prints: a reviewed delegation's result (the author's reply, then
// each round's review), and what `scv wait` prints of a job that carries either
// (src/review/rounds.ts). `scv review`'s own report is cli/review-report.ts: every turn's result
// printing loads this module, and only the review command needs the report's forms (SARIF's hashes).

import type { TurnResult } from "../result.js";
import { reviewedResultJson, reviewReportJson } from "../review/report-json.js";
import type { ReviewRounds } from "../review/rounds.js";

/** What `--json` prints of a result carrying a review: a background review's report, or the
 * delegation's result with its rounds. */
export function reviewedJson(result: TurnResult, rounds: ReviewRounds): unknown {
  const last = rounds.rounds.at(-1);
  if (rounds.kind === "review" && last !== undefined) return reviewReportJson(last.report);
  return reviewedResultJson(result, rounds.rounds);
}
