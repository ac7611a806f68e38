// `scv agents gc [<agent>] [--older-than <dur>] [--dry-run] [--json]`: prints what src/home/gc.ts planned
// (dry run) or removed. Per agent counts go to stdout; why an agent's transcripts were skipped and what
// had to be left go to stderr, as hints do everywhere in scv.

import { realpathSync } from "node:fs";
import { relative } from "node:path";
import { parseDuration } from "../duration.js";
import { EXIT, ScvError } from "../errors.js";
import { olderThanTooSmall, planGc } from "../home/gc/gc-plan.js";
import { applyGc } from "../home/gc/gc-remove.js";
import { type GcReport, gcReport } from "../home/gc/gc-report.js";
import { DEFAULT_OLDER_THAN_MS, MIN_OLDER_THAN_MS } from "../home/gc/items.js";
import { scvHome } from "../home/paths.js";
import type { CliIo } from "../io.js";
import { gcWorktrees, withoutKept, worktreeLines } from "./gc-worktrees.js";
import { formatBytes, renderTable } from "./table.js";

export interface GcFlags {
  readonly olderThan?: string;
  readonly dryRun?: boolean;
  readonly force?: boolean;
  readonly json?: boolean;
}

export async function gcCommand(io: CliIo, agent: string | undefined, flags: GcFlags): Promise<number> {
  const olderThanMs = parseOlderThan(flags.olderThan);
  const planned = planGc({ env: io.env, olderThanMs, ...(agent === undefined ? {} : { agent }) });
  // Old conversations' worktrees first: one that stays keeps its conversation (gc-worktrees.ts).
  const worktrees = await gcWorktrees(planned, io.env, { dryRun: flags.dryRun, force: flags.force });
  const plan = withoutKept(planned, worktrees);
  const report = gcReport(plan, flags.dryRun ? undefined : await applyGc(plan, io.env));

  if (flags.json) {
    io.stdout.write(
      `${JSON.stringify({ ...report, worktrees: worktrees.map((each) => ({ ...each, reason: each.reason ?? null })) }, null, 2)}\n`,
    );
  } else {
    io.stderr.write(worktreeLines(worktrees, flags.dryRun === true));
    io.stdout.write(flags.dryRun ? renderDryRun(report, io) : renderCounts(report));
    const skipped = report.agents.filter((entry) => entry.skipped !== null);
    if (skipped.length > 0) {
      const names = skipped.map((entry) => entry.agent).join(", ");
      io.stderr.write(
        `scv: transcripts skipped for ${names} — scv does not know where they keep them; their conversation records were still checked\n`,
      );
    }
    for (const note of [...report.notes, ...report.agents.flatMap((entry) => entry.kept)]) {
      io.stderr.write(`scv: left ${note.path} — ${note.reason}\n`);
    }
  }
  const failed = report.agents.flatMap((entry) => entry.failed);
  for (const failure of failed) {
    io.stderr.write(
      `scv: could not remove ${failure.path} (${failure.reason}) — check its permissions and run gc again\n`,
    );
  }
  return failed.length > 0 ? EXIT.agentFailed : EXIT.ok;
}

/** The threshold in ms: 30 days by default, never below an hour. */
export function parseOlderThan(text: string | undefined): number {
  if (text === undefined) return DEFAULT_OLDER_THAN_MS;
  const ms = parseDuration(text);
  if (ms === undefined) {
    throw new ScvError("USAGE", `--older-than '${text}' is not a duration — use e.g. 30d, 12h or 90m`);
  }
  if (ms < MIN_OLDER_THAN_MS) throw olderThanTooSmall(text);
  return ms;
}

function renderDryRun(report: GcReport, io: CliIo): string {
  const home = realHome(io);
  const rows = report.agents.flatMap((entry) =>
    entry.items.map((item) => [
      entry.agent,
      item.kind,
      formatBytes(item.bytes),
      item.modified.slice(0, 10),
      relative(home, item.path),
    ]),
  );
  const { total } = report;
  const summary = `would free ${formatBytes(total.bytes)}: ${describeCounts(total)} (dry run, older than ${report.olderThan}; nothing removed)\n`;
  if (rows.length === 0) return `nothing older than ${report.olderThan} to remove (dry run)\n`;
  return `${renderTable(["AGENT", "KIND", "SIZE", "MODIFIED", `PATH (in ${home})`], rows)}${summary}`;
}

function renderCounts(report: GcReport): string {
  const rows = report.agents.map((entry) => [
    entry.agent,
    entry.skipped === null ? String(entry.counts.transcripts) : "skipped",
    String(entry.counts.records),
    String(entry.counts.leftovers),
    String(entry.counts.folders),
    formatBytes(entry.counts.bytes),
  ]);
  const { total } = report;
  rows.push([
    "total",
    String(total.transcripts),
    String(total.records),
    String(total.leftovers),
    String(total.folders),
    formatBytes(total.bytes),
  ]);
  return renderTable(["AGENT", "TRANSCRIPTS", "RECORDS", "LEFTOVERS", "FOLDERS", "FREED"], rows);
}

function describeCounts(counts: GcReport["total"]): string {
  const parts = [
    [counts.transcripts, "transcript"],
    [counts.records, "record"],
    [counts.leftovers, "leftover"],
    [counts.folders, "folder"],
  ] as const;
  return parts.map(([count, noun]) => `${count} ${noun}${count === 1 ? "" : "s"}`).join(", ");
}

function realHome(io: CliIo): string {
  const home = scvHome(io.env);
  try {
    return realpathSync(home);
  } catch {
    return home;
  }
}
