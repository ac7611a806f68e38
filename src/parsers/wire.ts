// Zod helpers for reading CLI wire events: lenient where scv only reads a field, strict only about
// the fields that decide what an event is. Schemas are `z.object`s naming only the fields scv
// reads: the others are dropped unread, where a loose object would copy each of them on every line
// (twice the cost of the check itself on Codex's items).

import * as z from "zod/mini";

/** Anything, read as undefined. */
const asUndefined = z.pipe(
  z.unknown(),
  z.transform(() => undefined),
);

/** A field scv reads when present: missing or of another type, it reads as undefined rather than
 * failing the whole event (CLIs change field types between releases). */
export function maybe<T extends z.ZodMiniType>(schema: T) {
  // The outer optional answers an absent field at once (most fields of a line are absent). A union
  // rather than z.catch: a catch turns every mismatch into a finished issue, message and all,
  // before dropping it — six times the cost of the check where a field is present but null (Codex's
  // `"error": null` on every MCP item).
  return z.optional(z.union([schema, asUndefined]));
}

export const maybeString = maybe(z.string());
export const maybeNumber = maybe(z.number());
export const maybeBoolean = maybe(z.boolean());

/** Every JSON-lines event has a string `type`; the rest depends on it. */
export const TypedEvent = z.object({ type: z.string() });

/** The value as `schema` reads it, or null when it is not that shape. */
export function readAs<T>(schema: z.ZodMiniType<T>, value: unknown): T | null {
  const result = schema.safeParse(value);
  return result.success ? result.data : null;
}

/** A JSON object as a record, for inputs whose shape is the tool's own business. */
export function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
