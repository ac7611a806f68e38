// How a review prints: `scv review`'s report in the form asked (text on a terminal or in a pipe,
// `--json` / `--format json`, `--format markdown` for a pull request's comment, `--format sarif` for
// code scanning), a reviewed delegation's result (the author's reply, then each round's review), and
// what `scv wait` prints of a job that carries either (src/review/rounds.ts).

import type { TurnResult } from "../result.js";
import { renderMarkdown } from "../review/render-markdown.js";
import { headline, renderText } from "../review/render-text.js";
import type { ReviewReport } from "../review/report.js";
import { reviewedResultJson, reviewReportJson } from "../review/report-json.js";
import type { ReviewRounds } from "../review/rounds.js";
import { renderSarif } from "../review/sarif.js";
import { VERSION } from "../version.js";
import type { CliIo } from "./io.js";
import { forStream, jsonLine } from "./terminal-text.js";

export const REVIEW_FORMATS = ["text", "json", "markdown", "sarif"] as const;
export type ReviewFormat = (typeof REVIEW_FORMATS)[number];

/** The report on stdout in `format`. */
export function printReport(io: CliIo, report: ReviewReport, format: ReviewFormat): void {
  switch (format) {
    case "json":
      io.stdout.write(`${jsonLine(reviewReportJson(report))}\n`);
      return;
    case "markdown":
      io.stdout.write(renderMarkdown(report));
      return;
    case "sarif":
      io.stdout.write(`${JSON.stringify(renderSarif(report, { version: VERSION }), null, 2)}\n`);
      return;
    case "text":
      io.stdout.write(forStream(io.stdout, renderText(report)));
      return;
  }
}

/** What `--json` prints of a result carrying a review: a background review's report, or the
 * delegation's result with its rounds. */
export function reviewedJson(result: TurnResult, rounds: ReviewRounds): unknown {
  const last = rounds.rounds.at(-1);
  if (rounds.kind === "review" && last !== undefined) return reviewReportJson(last.report);
  return reviewedResultJson(result, rounds.rounds);
}

/** The rounds as text, after the author's reply: each earlier round's headline, the last in full
 * (a background review's one report alone). */
export function roundsText(rounds: ReviewRounds): string {
  const last = rounds.rounds.at(-1);
  const earlier = rounds.rounds
    .slice(0, -1)
    .map(
      (round) => `scv review, round ${round.round} of ${rounds.rounds.length}: ${headline(round.report)}\n`,
    );
  return `${earlier.join("")}${last === undefined ? "" : renderText(last.report)}`;
}
