// When a turn is over before its CLI says so. A CLI that retries a credential the API refused
// (a retry event with a 401, a reconnect notice naming status 401, a retried 401 from a
// bring-your-own-key provider: each parser's `retry` events) goes on for minutes (lab: ten retries,
// over four) and then fails the same way: a refused key stays refused. Its first such retry is the
// verdict: the turn ends there as an authentication failure.

import type { TurnEvent, TurnFailure } from "../parsers/event-types.js";
import { redact } from "../parsers/redact.js";

type RetryEvent = Extract<TurnEvent, { type: "retry" }>;

/** Events that say nothing of the CLI having moved on from a retry. */
const BOOKKEEPING: ReadonlySet<TurnEvent["type"]> = new Set(["session", "mode", "usage"]);

/** What a running turn's events have settled so far. */
export interface VerdictWatch {
  /** Reads one event; returns a failure it settles the turn with, once (unless scv is `stopping`). */
  observe(event: TurnEvent, stopping: boolean): TurnFailure | undefined;
  /** The failure settled early, if one was. */
  readonly early: TurnFailure | undefined;
  /** The CLI's last word, when it was a retry: what it waits for if a time limit ends the turn. */
  readonly retrying: RetryEvent | undefined;
}

export function watchVerdict(): VerdictWatch {
  let early: TurnFailure | undefined;
  let retrying: RetryEvent | undefined;
  return {
    observe(event, stopping) {
      if (event.type === "retry") retrying = event;
      else if (!BOOKKEEPING.has(event.type)) retrying = undefined;
      if (early !== undefined || stopping) return undefined;
      early = earlyVerdict(event);
      return early;
    },
    get early() {
      return early;
    },
    get retrying() {
      return retrying;
    },
  };
}

/** The failure one event settles the turn with before the CLI's own end, if it settles one. */
export function earlyVerdict(event: TurnEvent): TurnFailure | undefined {
  if (event.type !== "retry" || event.kind !== "auth") return undefined;
  return {
    kind: "auth",
    message: redact(
      `${event.message}; ended at its first retry, as retrying cannot fix a refused credential`,
    ),
  };
}

/** The event `--events` shows for an early verdict: the turn's terminal error. */
export function verdictEvent(failure: TurnFailure): TurnEvent {
  return { type: "error", message: failure.message, kind: failure.kind, terminal: true };
}
