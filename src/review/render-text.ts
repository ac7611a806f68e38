// The review as a person reads it on a terminal: the verdict and what was reviewed, then the
// findings grouped by file — the file with the most severe finding first, each file's findings most
// severe first — each with its lines and who raised it (several names: the reviewers agreed), then
// each reviewer's verdict, summary, cost or failure, and the files left out and why.
//
// Plain text: what reviewers wrote is passed on as it is, so the caller shows it through
// `forStream` (src/cli/terminal-text.ts), as it does an agent's reply.
//
// API: `renderText(report)`, and for the other renderings `findingsByFile(findings)`,
// `lineText(finding)`, `verdictText(verdict)`, `headline(report)`, and `roundsText(rounds)` (a reviewed
// delegation's rounds, as `scv wait` and the MCP server show them). Pure.

import type { ReviewReport } from "./report.js";
import type { ReviewRounds } from "./rounds.js";
import { SEVERITIES, severityRank, type Verdict } from "./schema.js";

type ReportFinding = ReviewReport["findings"][number];

export interface FileFindings {
  readonly file: string;
  readonly scope: ReportFinding["scope"];
  readonly findings: readonly ReportFinding[];
}

/** The findings by file: the file with the most severe finding first (then by path), each file's
 * most severe first (then by line). Pure. */
export function findingsByFile(findings: readonly ReportFinding[]): FileFindings[] {
  const groups = new Map<string, ReportFinding[]>();
  for (const finding of findings) groups.set(finding.file, [...(groups.get(finding.file) ?? []), finding]);
  const worst = (list: readonly ReportFinding[]) => Math.min(...list.map((f) => severityRank(f.severity)));
  return [...groups.entries()]
    .map(([file, list]) => ({
      file,
      scope: list.some((finding) => finding.scope !== "elsewhere")
        ? ("diff" as const)
        : ("elsewhere" as const),
      findings: [...list].sort(
        (a, b) => severityRank(a.severity) - severityRank(b.severity) || (a.line ?? 0) - (b.line ?? 0),
      ),
    }))
    .sort((a, b) => worst(a.findings) - worst(b.findings) || a.file.localeCompare(b.file));
}

/** `12`, `12-14`, or `—` for the file as a whole. Pure. */
export function lineText(finding: Pick<ReportFinding, "line" | "endLine">): string {
  if (finding.line === undefined) return "—";
  return finding.endLine === undefined || finding.endLine === finding.line
    ? String(finding.line)
    : `${finding.line}-${finding.endLine}`;
}

/** The verdict in words. Pure. */
export function verdictText(verdict: Verdict | null): string {
  switch (verdict) {
    case "approve":
      return "approved";
    case "request-changes":
      return "changes requested";
    case "comment":
      return "comments";
    case null:
      return "no verdict";
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** `changes requested — 3 findings (1 blocker, 2 minor) from <agent>, <agent>`. Pure. */
export function headline(report: ReviewReport): string {
  const counts = SEVERITIES.map((severity) => ({
    severity,
    count: report.findings.filter((finding) => finding.severity === severity).length,
  })).filter(({ count }) => count > 0);
  const bySeverity =
    counts.length === 0 ? "" : ` (${counts.map(({ severity, count }) => `${count} ${severity}`).join(", ")})`;
  const names = report.reviewers.map((reviewer) => reviewer.reviewer);
  const from = names.length === 0 ? "" : ` from ${names.join(", ")}`;
  return `${verdictText(report.verdict)} — ${plural(report.findings.length, "finding")}${bySeverity}${from}`;
}

/** What was reviewed: `4 files changed, 3 reviewed, 1 left out`. Pure. */
export function coverage(report: ReviewReport): string {
  const reviewed = report.files.filter((file) => file.reviewed).length;
  const left = report.skipped.length;
  return `${plural(report.files.length, "file")} changed, ${reviewed} reviewed${left === 0 ? "" : `, ${left} left out`}`;
}

/** `$0.0123`, with enough digits for a cent's fraction. Pure. */
export function costText(cost: number | null): string | undefined {
  return cost === null ? undefined : `$${cost.toFixed(4)}`;
}

/** Input plus output tokens. Pure. */
export function tokensText(usage: ReviewReport["usage"]): string | undefined {
  if (usage === null || (usage.input === undefined && usage.output === undefined)) return undefined;
  return `${(usage.input ?? 0) + (usage.output ?? 0)} tokens`;
}

function indent(text: string, by: string): string[] {
  return text.split("\n").map((line) => (line === "" ? "" : `${by}${line}`));
}

/** Severity, lines and title in columns (`lineWidth`: the widest lines' text), then the body and
 * suggestion under the title. */
function findingLines(finding: ReportFinding, lineWidth: number): string[] {
  const pad = " ".repeat(2 + 7 + 2 + lineWidth + 2);
  const head = `  ${finding.severity.padEnd(7)}  ${lineText(finding).padEnd(lineWidth)}  ${finding.title}`;
  const where = finding.scope === "file" ? " (lines outside the diff)" : "";
  return [
    `${head}  [${finding.raisedBy.join(", ")}]${where}`,
    ...(finding.body === "" ? [] : indent(finding.body, pad)),
    ...(finding.suggestion === undefined
      ? []
      : [`${pad}suggestion:`, ...indent(finding.suggestion, `${pad}  `)]),
  ];
}

function reviewerLines(reviewer: ReviewReport["reviewers"][number]): string[] {
  const facts = [
    reviewer.status === "failed" ? "failed" : verdictText(reviewer.verdict),
    reviewer.parts > 1 ? `${reviewer.parts} parts` : undefined,
    reviewer.repaired > 0 ? `${reviewer.repaired} repaired` : undefined,
    tokensText(reviewer.usage),
    costText(reviewer.cost),
  ].filter((fact): fact is string => fact !== undefined);
  return [
    `  ${reviewer.reviewer}: ${facts.join(", ")}`,
    ...indent(reviewer.summary, "    "),
    ...reviewer.failures.map(
      (failure) =>
        `    part ${failure.part} failed (exit ${failure.exitCode}): ${failure.error}${failure.hint === null ? "" : ` — ${failure.hint}`}`,
    ),
  ];
}

/** The terminal report. Pure. */
export function renderText(report: ReviewReport): string {
  const width = Math.max(1, ...report.findings.map((finding) => lineText(finding).length));
  const lines = [`scv review: ${headline(report)}`, `${report.description} · ${coverage(report)}`];
  for (const group of findingsByFile(report.findings)) {
    lines.push("", `${group.file}${group.scope === "elsewhere" ? " (not changed by the diff)" : ""}`);
    for (const finding of group.findings) lines.push(...findingLines(finding, width));
  }
  if (report.reviewers.length > 0) {
    lines.push("", "Reviewers:");
    for (const reviewer of report.reviewers) lines.push(...reviewerLines(reviewer));
  }
  if (report.skipped.length > 0) {
    lines.push("", "Left out:");
    for (const file of report.skipped) lines.push(`  ${file.path}: ${file.detail}`);
  }
  const total = [tokensText(report.usage), costText(report.cost)].filter((part) => part !== undefined);
  if (total.length > 0) lines.push("", `Total: ${total.join(", ")}`);
  return `${lines.join("\n")}\n`;
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
