// Gemini CLI's retry notices, which it writes only on stderr (retryWithBackoff in packages/core's
// utils/retry.ts, 0.61.0): `Attempt 2 failed: <message>. Retrying after 10488ms...` for a quota
// error (the message may run over several lines: `…(mock)\nSuggested retry after 1s.. Retrying
// after 5399ms...`), and `Attempt 3 failed with status 503. Retrying with backoff...` for others.
// `… Max attempts reached` is its last attempt, not a retry. Its stdout says nothing while it waits.

import { stripAnsi } from "./ansi.js";
import { retryEvent } from "./event-builders.js";
import type { TurnEvent } from "./event-types.js";
import { retryKind } from "./failure.js";

const ATTEMPT = /^Attempt (\d+) failed(?: with status (\d{3}))?(?::\s?)?(.*)$/;
// The error object that may follow on the same line (`… with backoff... ApiError: {`) is not read.
const RETRYING = /^(.*?)\.?\s*Retrying (?:after (\d+)ms|with backoff)\.{3}/s;
const GIVING_UP = /Max attempts reached\s*$/;
/** A notice's message runs over a few lines at most; one not closed by then was something else. */
const MAX_NOTICE_LINES = 6;

interface Notice {
  readonly attempt: number;
  readonly status: number | undefined;
  lines: string[];
}

/** A reader of Gemini CLI's stderr lines: a retry event per retry notice. */
export function createGeminiStderrReader(): (line: string) => TurnEvent[] {
  let notice: Notice | undefined;
  return (raw) => {
    const line = stripAnsi(raw).trimEnd();
    const start = ATTEMPT.exec(line);
    if (start !== null) {
      const [, attempt, status, rest] = start;
      notice = {
        attempt: Number(attempt),
        status: status === undefined ? undefined : Number(status),
        lines: [rest ?? ""],
      };
    } else if (notice !== undefined) {
      notice.lines.push(line.trim());
    } else return [];
    const text = notice.lines.filter((each) => each !== "").join(" ");
    if (GIVING_UP.test(text) || notice.lines.length > MAX_NOTICE_LINES) {
      notice = undefined;
      return [];
    }
    const retrying = RETRYING.exec(text);
    if (retrying === null) return [];
    const { attempt, status } = notice;
    notice = undefined;
    const [, message, delay] = retrying;
    return [
      retryEvent(message?.trim() || (status === undefined ? "retrying" : `status ${status}`), {
        attempt,
        delayMs: delay === undefined ? undefined : Number(delay),
        status,
        // The quota notice (a delay in milliseconds) is Gemini's RetryableQuotaError: a 429.
        kind: retryKind(status) ?? (delay === undefined ? undefined : "rate-limit"),
      }),
    ];
  };
}
