// Usage arithmetic: summing per-call reports within a turn, and turning a CLI's running total
// across resumed turns (Claude, Codex, Qwen) into this turn's share.

import type { Usage } from "./types.js";

const FIELDS = ["input", "cached", "cacheWrite", "output", "reasoning", "costUsd"] as const;

type UsageField = (typeof FIELDS)[number];

/** Dollar amounts are sums and differences of floats; keep them readable (0.024616, not 0.024616000000000002). */
function tidy(field: UsageField, value: number): number {
  return field === "costUsd" ? Math.round(value * 1e9) / 1e9 : value;
}

/** The field-by-field sum; a field is present when either side has it. */
export function addUsage(a: Usage | undefined, b: Usage): Usage {
  if (a === undefined) return { ...b };
  const sum: Usage = {};
  for (const field of FIELDS) {
    const left = a[field];
    const right = b[field];
    if (left === undefined && right === undefined) continue;
    sum[field] = tidy(field, (left ?? 0) + (right ?? 0));
  }
  return sum;
}

/**
 * This turn's share of a cumulative report: `max(0, reported - previous)` per field, so a counter
 * that went down (a fresh session, an older CLI reporting per process) never yields a negative
 * share, and a total already counted in an earlier turn is never counted again.
 */
export function turnShare(reported: Usage, previousCumulative?: Usage): Usage {
  if (previousCumulative === undefined) return { ...reported };
  const share: Usage = {};
  for (const field of FIELDS) {
    const value = reported[field];
    if (value === undefined) continue;
    share[field] = tidy(field, Math.max(0, value - (previousCumulative[field] ?? 0)));
  }
  return share;
}

/** Whether any field of a cumulative report is below the previous total: the counter restarted. */
export function cumulativeWentDown(reported: Usage, previousCumulative: Usage): boolean {
  return FIELDS.some((field) => {
    const value = reported[field];
    const previous = previousCumulative[field];
    return value !== undefined && previous !== undefined && value < previous;
  });
}
