// When a turn is over. The CLI's own end-of-turn event (its final result, or an error it calls
// terminal) gives the turn its verdict; the CLI then has a short grace to exit by itself. One that
// does not — it goes on waiting (at a login prompt, or never exiting after its result),
// or something it started keeps its stdout open — is ended with its whole group, and the verdict it
// gave stands: a success is a completed turn with its reply.
//
// A CLI that shows it is still working after such an event was not finished: one reports
// `agent_end` with an error *before* `auto_retry_start`, and then recovers. A retry, a tool call or
// more reply text withdraws the verdict and the pending end, until the next end-of-turn event.

import type { TurnEvent } from "../parsers/event-types.js";
import { timing } from "../timing.js";

export interface TurnEndOptions {
  /** Between the end-of-turn event and `onOver`; the `endGrace` timing unless a test sets it. */
  readonly graceMs?: number | undefined;
  /** Whether scv has already begun ending the process (a timeout, an interrupt). */
  readonly stopping: () => boolean;
  /** The grace has passed and the CLI is still running: end it. */
  readonly onOver: () => void;
}

export interface TurnEndWatch {
  /** Each event the parser produces, in order. */
  observe(event: TurnEvent): void;
  /** The CLI gave a verdict that still stands, before scv began ending it: what it reports after
   * scv's signal answers the signal, not the turn (lab: one reports success on SIGTERM). */
  readonly verdictInTime: boolean;
  /** The process has exited and its output is read: nothing more to end. */
  dispose(): void;
}

export function watchTurnEnd(options: TurnEndOptions): TurnEndWatch {
  const graceMs = options.graceMs ?? timing("endGrace");
  let pending: NodeJS.Timeout | undefined;
  let verdictInTime = false;

  const withdraw = () => {
    clearTimeout(pending);
    pending = undefined;
    verdictInTime = false;
  };

  return {
    observe(event) {
      if (isEnd(event)) {
        if (!options.stopping()) verdictInTime = true;
        // Counted from the first end event of a run of them (an error, then its turn-end).
        pending ??= setTimeout(options.onOver, graceMs).unref();
      } else if (pending !== undefined && stillWorking(event)) withdraw();
    },
    get verdictInTime() {
      return verdictInTime;
    },
    dispose() {
      clearTimeout(pending);
    },
  };
}

function isEnd(event: TurnEvent): boolean {
  return event.type === "turn-end" || (event.type === "error" && event.terminal);
}

/** Events of a turn that goes on. Usage, session and non-terminal errors are not: CLIs report them
 * around their final event too. */
function stillWorking(event: TurnEvent): boolean {
  return event.type === "retry" || event.type === "tool-start" || event.type === "text";
}
