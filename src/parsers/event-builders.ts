// Small builders for what several formats do alike: dispatch on an event's `type`, and end a turn
// with a terminal error.

import type { FailureKind, TurnEvent } from "./event-types.js";
import { classifyErrorText } from "./failure.js";

/** Dispatches a JSON value on its string `type`; a value without one is not an event (null).
 * A plain check rather than a schema: it runs on every line, before the format's own schema. */
export function byType(
  handler: (type: string, value: unknown) => TurnEvent[] | null,
): (value: unknown) => TurnEvent[] | null {
  return (value) => {
    const type = typeof value === "object" && value !== null ? (value as { type?: unknown }).type : undefined;
    return typeof type === "string" ? handler(type, value) : null;
  };
}

type RetryEvent = Extract<TurnEvent, { type: "retry" }>;

/** A retry event without the fields the CLI left out. */
export function retryEvent(
  message: string,
  fields: Omit<Partial<RetryEvent>, "type" | "message">,
): RetryEvent {
  const event: RetryEvent = { type: "retry", message };
  for (const key of ["attempt", "maxAttempts", "delayMs", "status", "kind"] as const) {
    const value = fields[key];
    if (value !== undefined && value !== null) Object.assign(event, { [key]: value });
  }
  return event;
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
