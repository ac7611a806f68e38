// The review as Markdown, for a pull request's comment (`--format markdown`): the verdict, what was
// reviewed, the findings grouped by file as the terminal report groups them, each with who raised
// it, then a table of the reviewers and the files left out. A finding's title is escaped (it is one
// line of bold text); its body is the reviewer's own Markdown; a suggestion goes in a code block
// fenced longer than any run of backticks in it.
//
// API: `renderMarkdown(report)`, `fenceFor(text)`. Pure.

import {
  costText,
  coverage,
  findingsByFile,
  headline,
  lineText,
  tokensText,
  verdictText,
} from "./render-text.js";
import type { ReviewReport } from "./report.js";

/** A code fence longer than any run of backticks in `text`. Pure. */
export function fenceFor(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  return "`".repeat(Math.max(3, longest + 1));
}

/** One line of text that Markdown shows as written: its markup characters escaped, HTML kept out. */
function inline(text: string): string {
  return text.replace(/\s+/g, " ").replace(/[\\`*_[\]|<>~]/g, (char) => `\\${char}`);
}

/** A file path as inline code. */
function code(text: string): string {
  const fence = "`".repeat(Math.max(1, ...[...text.matchAll(/`+/g)].map((run) => run[0].length + 1)));
  return fence.length > 1 ? `${fence} ${text} ${fence}` : `\`${text}\``;
}

function block(text: string, indent: string): string[] {
  return text.split("\n").map((line) => (line === "" ? "" : `${indent}${line}`));
}

function findingLines(finding: ReviewReport["findings"][number]): string[] {
  const lines = lineText(finding);
  const outside = finding.scope === "file" ? " (outside the diff)" : "";
  const where = lines === "—" ? "" : ` · L${lines}${outside}`;
  const out = [
    `- **${finding.severity}**${where} · **${inline(finding.title)}** — ${finding.raisedBy.map(inline).join(", ")}`,
  ];
  if (finding.body !== "") out.push("", ...block(finding.body, "  "));
  if (finding.suggestion !== undefined) {
    const fence = fenceFor(finding.suggestion);
    out.push("", "  Suggestion:", "", `  ${fence}`, ...block(finding.suggestion, "  "), `  ${fence}`);
  }
  return out;
}

function reviewerRow(reviewer: ReviewReport["reviewers"][number]): string {
  const outcome = reviewer.status === "failed" ? "failed" : verdictText(reviewer.verdict);
  const failures = reviewer.failures.map((failure) => `part ${failure.part}: ${inline(failure.error)}`);
  const cells = [
    code(reviewer.reviewer),
    [outcome, ...failures].join("; "),
    tokensText(reviewer.usage) ?? "—",
    costText(reviewer.cost) ?? "—",
  ];
  return `| ${cells.join(" | ")} |`;
}

/** The report as Markdown. Pure. */
export function renderMarkdown(report: ReviewReport): string {
  const lines = [
    `## scv review: ${verdictText(report.verdict)}`,
    "",
    `${inline(headline(report))}. Reviewed ${inline(report.description)}: ${coverage(report)}.`,
  ];
  for (const group of findingsByFile(report.findings)) {
    const note = group.scope === "elsewhere" ? " (not changed by the diff)" : "";
    lines.push("", `### ${code(group.file)}${note}`, "");
    lines.push(
      ...group.findings.flatMap((finding, i) => [...(i === 0 ? [] : [""]), ...findingLines(finding)]),
    );
  }
  if (report.reviewers.length > 0) {
    lines.push(
      "",
      "### Reviewers",
      "",
      "| reviewer | verdict | tokens | cost |",
      "| --- | --- | --- | --- |",
    );
    lines.push(...report.reviewers.map(reviewerRow));
    for (const reviewer of report.reviewers.filter((each) => each.summary !== "")) {
      const quoted = reviewer.summary.split("\n").map((line) => (line === "" ? ">" : `> ${line}`));
      lines.push("", `**${inline(reviewer.reviewer)}:**`, "", ...quoted);
    }
  }
  if (report.skipped.length > 0) {
    lines.push(
      "",
      "### Left out",
      "",
      ...report.skipped.map((file) => `- ${code(file.path)}: ${inline(file.detail)}`),
    );
  }
  return `${lines.join("\n")}\n`;
}
