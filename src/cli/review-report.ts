// `scv review`'s report in the form asked: text on a terminal or in a pipe, `--json` / `--format
// json`, `--format markdown` for a pull request's comment, `--format sarif` for code scanning.

import type { CliIo } from "../io.js";
import { renderMarkdown } from "../review/render-markdown.js";
import { renderText } from "../review/render-text.js";
import type { ReviewReport } from "../review/report.js";
import { reviewReportJson } from "../review/report-json.js";
import { renderSarif } from "../review/sarif.js";
import { VERSION } from "../version.js";
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
