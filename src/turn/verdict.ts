// When a turn is over before its CLI says so. A CLI that retries a credential the API refused
// (Claude Code's `api_retry` 401, Codex's `Reconnecting… (unexpected status 401)`, Copilot CLI's
// retried 401 from a bring-your-own-key provider) goes on for minutes (Claude Code: ten retries,
// over four) and then fails the same way: a refused key stays refused. Its first such retry is the
// verdict: the turn ends there as an authentication failure.

import { redact } from "../parsers/redact.js";
import type { TurnEvent, TurnFailure } from "../parsers/types.js";

/** The failure one event settles the turn with before the CLI's own end, if it settles one. */
export function earlyVerdict(event: TurnEvent): TurnFailure | undefined {
  if (event.type !== "retry" || event.kind !== "auth") return undefined;
  return {
    kind: "auth",
    message: redact(`${event.message} (ended at its first retry: retrying cannot fix a refused credential)`),
  };
}

/** The event `--events` shows for an early verdict: the turn's terminal error. */
export function verdictEvent(failure: TurnFailure): TurnEvent {
  return { type: "error", message: failure.message, kind: failure.kind, terminal: true };
}
