// Small builders for what several formats do alike: dispatch on an event's `type`, and end a turn
// with a terminal error.

import { classifyErrorText } from "./failure.js";
import type { FailureKind, TurnEvent } from "./types.js";
import { readAs, TypedEvent } from "./wire.js";

/** Dispatches a JSON value on its string `type`; a value without one is not an event (null). */
export function byType(
  handler: (type: string, value: unknown) => TurnEvent[] | null,
): (value: unknown) => TurnEvent[] | null {
  return (value) => {
    const typed = readAs(TypedEvent, value);
    return typed === null ? null : handler(typed.type, value);
  };
}

/** The events of a turn the CLI itself ended with an error. */
export function failedTurn(
  message: string,
  kind: FailureKind = classifyErrorText(message),
  resetsAt?: string,
): TurnEvent[] {
  return [
    { type: "error", message, kind, terminal: true, ...(resetsAt === undefined ? {} : { resetsAt }) },
    { type: "turn-end", ok: false },
  ];
}
