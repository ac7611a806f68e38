// `scv usage`: what delegated turns used and cost, summed from the usage log
// (src/home/usage-log.ts) — never from the agents' transcripts. `--chart` shows tokens or cost per day
// (or per group) as bars on a terminal (cli/bars.ts), and as plain numbers elsewhere.

import { barLines } from "../cli/bars.js";
import { jsonLine, visibleLine } from "../cli/terminal-text.js";
import { formatDuration, parseDuration } from "../duration.js";
import { EXIT, usageError } from "../errors.js";
import { readUsage } from "../home/usage-log.js";
import { type UsageGrouping, type UsageReport, type UsageTotals, usageReport } from "../home/usage-totals.js";
import type { CliIo } from "../io.js";
import { compactCount, renderTable } from "./table.js";

export const DEFAULT_SINCE = "7d";

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** `--since`: a duration back from `now` (`7d`, `12h`), a UTC day (`2026-12-01`), or an ISO 8601
 * instant; a usage error otherwise. */
export function sinceOption(text: string, now: Date): Date {
  const trimmed = text.trim();
  const ms = parseDuration(trimmed);
  if (ms !== undefined) return new Date(now.getTime() - ms);
  const instant = DATE.test(trimmed) ? Date.parse(`${trimmed}T00:00:00Z`) : Date.parse(trimmed);
  // A bare date-time without a zone would be local time: only a date, or an instant with its zone.
  const zoned = DATE.test(trimmed) || /(?:Z|[+-]\d{2}:?\d{2})$/i.test(trimmed);
  if (!Number.isFinite(instant) || !zoned) {
    throw usageError(
      `--since '${text}' is neither a duration nor a date — write e.g. 7d, 12h, 2026-12-01 or 2026-12-01T09:00:00Z`,
    );
  }
  return new Date(instant);
}

export type ChartMeasure = "tokens" | "cost";

export async function usageCommand(
  io: CliIo,
  options: { since?: string; by?: UsageGrouping; json?: boolean; chart?: ChartMeasure | true },
): Promise<number> {
  const until = new Date();
  const since = sinceOption(options.since ?? DEFAULT_SINCE, until);
  const chart = options.chart === true ? "tokens" : options.chart;
  // A chart is of days unless told otherwise; a table of agents.
  const by = options.by ?? (chart === undefined ? "agent" : "day");
  const { entries, skippedLines } = readUsage(since, until, io.env);
  const report = usageReport(entries, { since, until, by, skippedLines });
  if (options.json) {
    io.stdout.write(`${jsonLine(report)}\n`);
    return EXIT.ok;
  }
  if (skippedLines > 0)
    io.stderr.write(`scv: note: ${skippedLines} unreadable line(s) of the usage log left out\n`);
  if (report.total.turns === 0) {
    io.stderr.write(`no turns recorded since ${report.since}\n`);
    return EXIT.ok;
  }
  if (chart !== undefined) {
    io.stdout.write(chartText(report, chart, io.stdout));
    return EXIT.ok;
  }
  const rows = report.groups.map((group) => [group.key, ...cells(group)]);
  rows.push(["total", ...cells(report.total)]);
  io.stdout.write(
    renderTable([by.toUpperCase(), "TURNS", "FAILED", "INPUT", "CACHED", "OUTPUT", "COST", "TIME"], rows),
  );
  return EXIT.ok;
}

function cells(totals: UsageTotals): string[] {
  return [
    String(totals.turns),
    String(totals.failures),
    compactCount(totals.input),
    compactCount(totals.cached),
    compactCount(totals.output),
    totals.costUsd === null ? "-" : `$${totals.costUsd.toFixed(4)}`,
    formatDuration(totals.durationMs),
  ];
}

/** What a chart measures of a group: every token it counted, or its cost. */
function measure(totals: UsageTotals, what: ChartMeasure): number {
  return what === "cost"
    ? (totals.costUsd ?? 0)
    : totals.input + totals.cached + totals.cacheWrite + totals.output;
}

/** By day, every day of the window (a day without turns is an empty bar, not a gap); otherwise the
 * groups. On a terminal, bars; elsewhere, the exact numbers in two columns. */
function chartText(report: UsageReport, what: ChartMeasure, stdout: CliIo["stdout"]): string {
  const totals = new Map(report.groups.map((group) => [group.key, group]));
  const keys = report.by === "day" ? daysBetween(report.since, report.until) : [...totals.keys()];
  const values = keys.map((key) => {
    const group = totals.get(key);
    return { key, value: group === undefined ? 0 : measure(group, what), group };
  });
  const title = what === "cost" ? "COST" : "TOKENS";
  if (stdout.isTTY !== true) {
    const exact = (value: number) => (what === "cost" ? value.toFixed(4) : String(value));
    return renderTable(
      [report.by.toUpperCase(), title],
      values.map(({ key, value }) => [key, exact(value)]),
    );
  }
  const text = (value: number, group: UsageTotals | undefined) =>
    what === "cost"
      ? group?.costUsd === null || group === undefined
        ? "-"
        : `$${value.toFixed(2)}`
      : compactCount(value);
  // A terminal that says no size (0) is taken as the usual 80 columns.
  const columns = (stdout as { columns?: number }).columns || 80;
  const lines = barLines(
    values.map(({ key, value, group }) => ({ label: visibleLine(key), value, text: text(value, group) })),
    columns,
  );
  const per = report.by === "day" ? "day" : report.by;
  return `${what} per ${per} since ${report.since.slice(0, 10)}\n${lines.join("\n")}\n`;
}

/** The UTC days from `since`'s to `until`'s, both included. */
function daysBetween(since: string, until: string): string[] {
  const days: string[] = [];
  const last = until.slice(0, 10);
  for (let day = Date.parse(`${since.slice(0, 10)}T00:00:00Z`); ; day += 86_400_000) {
    const key = new Date(day).toISOString().slice(0, 10);
    if (key > last || days.length > 400) break;
    days.push(key);
  }
  return days;
}
