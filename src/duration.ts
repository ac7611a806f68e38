// Durations as users write them: `90s`, `20m`, `1h30m`, `2d`, `500ms`; a bare number is seconds.
// Small enough that a dependency would cost more than it saves.

import { ScvError } from "./errors.js";

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/gy;

/** Milliseconds in `text`, or undefined when it is not a duration. */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^\d+(?:\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  if (trimmed === "") return undefined;
  PART.lastIndex = 0;
  let total = 0;
  let end = 0;
  for (let match = PART.exec(trimmed); match !== null; match = PART.exec(trimmed)) {
    total += Number(match[1]) * (UNIT_MS[match[2] ?? ""] ?? Number.NaN);
    end = PART.lastIndex;
  }
  if (end !== trimmed.length || !Number.isFinite(total)) return undefined;
  return Math.round(total);
}

/** The longest a Node timer can wait (2^31 − 1 ms, 24 days 20 h): a longer delay fires at once. */
export const LONGEST_WAIT_MS = 2_147_483_647;

/** Whether `ms` can be waited for: above zero and within `LONGEST_WAIT_MS`. */
export function isWaitable(ms: number | undefined): ms is number {
  return ms !== undefined && ms > 0 && ms <= LONGEST_WAIT_MS;
}

/** A short human form: `10m`, `1h30m`, `45s`, `800ms`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  let seconds = Math.round(ms / 1000);
  const parts: string[] = [];
  for (const [unit, size] of [
    ["d", 86_400],
    ["h", 3_600],
    ["m", 60],
  ] as const) {
    if (seconds >= size) {
      parts.push(`${Math.floor(seconds / size)}${unit}`);
      seconds %= size;
    }
  }
  if (seconds > 0 || parts.length === 0) parts.push(`${seconds}s`);
  return parts.join("");
}

/** Elapsed time as progress shows it, on the command line and to an MCP host: `7s`, `1m05s`,
 * `1h02m`. */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, "0")}m`;
}

/** What a duration option takes, for the line that refuses one. */
const WAITABLE = "a positive duration, e.g. 90s, 20m, 1h (at most 24d)";

/** A duration option or variable; `allowZero` for a wait that may be none (`SCV_LOCK_WAIT=0`),
 * `byDefault` for one that has a limit when left out (`agents check`: 3m), not none. */
export function durationOption(
  flag: string,
  text: string | undefined,
  { allowZero = false, byDefault }: { allowZero?: boolean; byDefault?: string } = {},
): number | undefined {
  if (text === undefined) return undefined;
  const ms = parseDuration(text);
  const takes = allowZero ? `0 or ${WAITABLE}` : WAITABLE;
  if (ms === undefined) throw new ScvError("USAGE", `${flag} '${text}' is not a duration — write ${takes}`);
  if (ms === 0 && !allowZero) {
    throw new ScvError("USAGE", `${flag} '${text}' is no time at all — write ${takes}`);
  }
  if (ms > LONGEST_WAIT_MS) {
    throw new ScvError(
      "USAGE",
      `${flag} '${text}' is longer than scv can wait — write at most 24d, or leave it out for ${byDefault ?? "no limit"}`,
    );
  }
  return ms;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, Math.max(0, ms));
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
