// `scv usage`'s arithmetic: the usage log's entries grouped and summed, and the `--json` document's
// schema. Pure: src/commands/usage.ts reads the log and prints.

import * as z from "zod/mini";
import { lazy } from "../lazy.js";
import { addUsage } from "../parsers/usage.js";
import type { UsageEntry } from "./usage-log.js";

const USAGE_GROUPINGS = ["agent", "account", "model", "day", "conversation"] as const;
export type UsageGrouping = (typeof USAGE_GROUPINGS)[number];

/** What a group's key is when its turns did not say (no `-m`: the agent's own default model). */
export const NO_MODEL = "(agent default)";
export const NO_CONVERSATION = "(none)";

const totalsShape = () => ({
  turns: z.int().check(z.nonnegative()),
  /** Turns that did not exit 0. */
  failures: z.int().check(z.nonnegative()),
  /** Input tokens not read from the cache. */
  input: z.number(),
  cached: z.number(),
  cacheWrite: z.number(),
  output: z.number(),
  reasoning: z.number(),
  /** Dollars as the CLIs reported them; null when none of these turns reported a cost. */
  costUsd: z.nullable(z.number()),
  /** Turns that reported no usage at all (a turn stopped early, a CLI that reports none). */
  withoutUsage: z.int().check(z.nonnegative()),
  /** Wall-clock milliseconds of the turns, summed. */
  durationMs: z.number(),
});

export const usageReportSchema = lazy(() =>
  z.object({
    /** The window: turns started at or after `since` and before `until` (UTC ISO 8601). */
    since: z.string(),
    until: z.string(),
    by: z.enum(USAGE_GROUPINGS),
    /** One row per key, in key order (days oldest first). */
    groups: z.array(z.object({ key: z.string(), ...totalsShape() })),
    total: z.object(totalsShape()),
    /** Lines of the usage log that could not be read (torn or damaged), left out of the totals. */
    skippedLines: z.int().check(z.nonnegative()),
  }),
);

export type UsageReport = z.infer<ReturnType<typeof usageReportSchema>>;
export type UsageTotals = UsageReport["total"];

function keyOf(entry: UsageEntry, by: UsageGrouping): string {
  switch (by) {
    case "agent":
      return entry.agent;
    // Account names are the user's own and repeat across agents (a@work, b@work).
    case "account":
      return `${entry.agent}@${entry.account}`;
    case "model":
      return entry.model ?? NO_MODEL;
    // Timestamps are UTC: a turn counts in the UTC day it started.
    case "day":
      return entry.startedAt.slice(0, 10);
    case "conversation":
      return entry.conversation ?? NO_CONVERSATION;
  }
}

function emptyTotals(): UsageTotals {
  return {
    turns: 0,
    failures: 0,
    input: 0,
    cached: 0,
    cacheWrite: 0,
    output: 0,
    reasoning: 0,
    costUsd: null,
    withoutUsage: 0,
    durationMs: 0,
  };
}

/** `totals` with one more turn; sums saturate (src/parsers/usage.ts), so no entry can make one
 * overflow. */
function addEntry(totals: UsageTotals, entry: UsageEntry): UsageTotals {
  const usage = entry.usage;
  const sum = addUsage(
    {
      input: totals.input,
      cached: totals.cached,
      cacheWrite: totals.cacheWrite,
      output: totals.output,
      reasoning: totals.reasoning,
      ...(totals.costUsd === null ? {} : { costUsd: totals.costUsd }),
    },
    usage ?? {},
  );
  return {
    turns: totals.turns + 1,
    failures: totals.failures + (entry.exitCode === 0 ? 0 : 1),
    input: sum.input ?? 0,
    cached: sum.cached ?? 0,
    cacheWrite: sum.cacheWrite ?? 0,
    output: sum.output ?? 0,
    reasoning: sum.reasoning ?? 0,
    costUsd: sum.costUsd ?? null,
    withoutUsage: totals.withoutUsage + (usage === undefined || isEmpty(usage) ? 1 : 0),
    durationMs: totals.durationMs + entry.durationMs,
  };
}

function isEmpty(usage: NonNullable<UsageEntry["usage"]>): boolean {
  return Object.values(usage).every((value) => value === undefined);
}

export function usageReport(
  entries: readonly UsageEntry[],
  options: { since: Date; until: Date; by: UsageGrouping; skippedLines?: number },
): UsageReport {
  const groups = new Map<string, UsageTotals>();
  let total = emptyTotals();
  for (const entry of entries) {
    const key = keyOf(entry, options.by);
    groups.set(key, addEntry(groups.get(key) ?? emptyTotals(), entry));
    total = addEntry(total, entry);
  }
  return {
    since: options.since.toISOString(),
    until: options.until.toISOString(),
    by: options.by,
    groups: [...groups.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, totals]) => ({ key, ...totals })),
    total,
    skippedLines: options.skippedLines ?? 0,
  };
}
