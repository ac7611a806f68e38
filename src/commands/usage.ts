// `scv usage`: what delegated turns used and cost, summed from the usage log
// (src/home/usage-log.ts) — never from the agents' transcripts.

import type { CliIo } from "../cli/io.js";
import { jsonLine } from "../cli/terminal-text.js";
import { formatDuration, parseDuration } from "../duration.js";
import { EXIT, usageError } from "../errors.js";
import { readUsage } from "../home/usage-log.js";
import { type UsageGrouping, type UsageTotals, usageReport } from "../usage-totals.js";
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

export async function usageCommand(
  io: CliIo,
  options: { since?: string; by?: UsageGrouping; json?: boolean },
): Promise<number> {
  const until = new Date();
  const since = sinceOption(options.since ?? DEFAULT_SINCE, until);
  const by = options.by ?? "agent";
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
