// Usage arithmetic: summing per-call reports within a turn, and turning a CLI's running total
// across resumed turns (Claude, Codex, Qwen) into this turn's share. The numbers come from the
// agent: what cannot be a count or a cost (negative, fractional tokens, NaN, a cost of 1e308 whose
// sum overflows to Infinity, which JSON stores as null) is cleaned here before anything sums or
// records it, and every sum saturates, so no report can damage a conversation record.

import type { StreamParser, TurnEvent, Usage } from "./event-types.js";

const FIELDS = ["input", "cached", "cacheWrite", "output", "reasoning", "costUsd"] as const;

type UsageField = (typeof FIELDS)[number];

/** More tokens than any turn or conversation could use; a larger report is not believed, and sums
 * stop here. */
export const MAX_TOKENS = 1e15;
/** Dollars, likewise. */
export const MAX_COST_USD = 1e9;

function limitOf(field: UsageField): number {
  return field === "costUsd" ? MAX_COST_USD : MAX_TOKENS;
}

/** A reported value as scv keeps it: tokens a whole number, a cost as given; undefined when it
 * cannot be one (not a finite number, negative, or above the field's limit). */
function cleanValue(field: UsageField, value: unknown): number | undefined {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > limitOf(field))
    return undefined;
  return field === "costUsd" ? value : Math.round(value);
}

/** The usage with every field a believable number: the others dropped, tokens rounded. */
export function cleanUsage(usage: Usage): Usage {
  const clean: Usage = {};
  for (const field of FIELDS) {
    const value = cleanValue(field, usage[field]);
    if (value !== undefined) clean[field] = value;
  }
  return clean;
}

/** `parser` with every usage it reports cleaned: its `usage` events and its conclusion. */
export function withCleanUsage(parser: StreamParser): StreamParser {
  const cleanEvent = (event: TurnEvent): TurnEvent =>
    event.type === "usage" ? { type: "usage", usage: cleanUsage(event.usage) } : event;
  return {
    get elision() {
      return parser.elision;
    },
    get replyLines() {
      return parser.replyLines;
    },
    push: (line) => {
      const events = parser.push(line);
      return events.some((event) => event.type === "usage") ? events.map(cleanEvent) : events;
    },
    ...(parser.stderr === undefined ? {} : { stderr: parser.stderr.bind(parser) }),
    skipped: () => parser.skipped(),
    finish: (end) => {
      const turn = parser.finish(end);
      return turn.usage === undefined ? turn : { ...turn, usage: cleanUsage(turn.usage) };
    },
  };
}

/** Dollar amounts are sums and differences of floats; keep them readable (0.024616, not 0.024616000000000002). */
function tidy(field: UsageField, value: number): number {
  const saturated = Math.min(value, limitOf(field));
  return field === "costUsd" ? Math.round(saturated * 1e9) / 1e9 : saturated;
}

/** The field-by-field sum of the believable values, saturating at each field's limit; a field is
 * present when either side has one. */
export function addUsage(a: Usage | undefined, b: Usage): Usage {
  const sum: Usage = {};
  for (const field of FIELDS) {
    const left = a === undefined ? undefined : cleanValue(field, a[field]);
    const right = cleanValue(field, b[field]);
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
  if (previousCumulative === undefined) return cleanUsage(reported);
  const share: Usage = {};
  for (const field of FIELDS) {
    const value = cleanValue(field, reported[field]);
    if (value === undefined) continue;
    share[field] = tidy(field, Math.max(0, value - (cleanValue(field, previousCumulative[field]) ?? 0)));
  }
  return share;
}

/** Whether any field of a cumulative report is below the previous total: the counter restarted. */
export function cumulativeWentDown(reported: Usage, previousCumulative: Usage): boolean {
  return FIELDS.some((field) => {
    const value = cleanValue(field, reported[field]);
    const previous = cleanValue(field, previousCumulative[field]);
    return value !== undefined && previous !== undefined && value < previous;
  });
}
