// Helpers for reading CLI wire events (with the readers of shape.ts): lenient where scv only reads
// a field, strict only about the fields that decide what an event is. Shapes are `s.object`s naming
// only the fields scv reads: the others are dropped unread.

import * as s from "./shape.js";

export { maybe, readAs } from "./shape.js";

export const maybeString = s.maybe(s.string());
export const maybeNumber = s.maybe(s.number());
export const maybeBoolean = s.maybe(s.boolean());

/** Every JSON-lines event has a string `type`; the rest depends on it. */
export const TypedEvent = s.object({ type: s.string() });

/** A JSON object as a record, for inputs whose shape is the tool's own business. */
export function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
