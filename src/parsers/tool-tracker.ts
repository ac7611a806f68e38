// Pairs tool ends with their starts, so an end event can name its tool even when the CLI's end
// event does not (Claude's `tool_result`, Gemini's `tool_result`); and builds tool starts whose
// one-line summary is made only when something reads it.

import type { TurnEvent } from "./types.js";

/** A tool's one-line summary, or how to make it. */
export type Summary = string | (() => string);

/** A tool-start event. A summary given as a function is made on first read, once: on a busy turn
 * most are never read (the progress line shows a few a second, the running record is written a few
 * times a second), and making one (redaction above all) cost more than parsing the tool's line. */
export function toolStartEvent(id: string, name: string, summary: Summary): TurnEvent {
  if (typeof summary === "string") return { type: "tool-start", id, name, summary };
  const event = { type: "tool-start" as const, id, name };
  Object.defineProperty(event, MAKE, { value: summary, writable: true });
  return Object.defineProperty(event, "summary", LAZY_SUMMARY) as TurnEvent;
}

/** Where a lazy event keeps how to make its summary (not enumerable: no copy of the event has it). */
const MAKE = Symbol("make summary");

/** One accessor shared by every lazy event: an accessor made per object (a getter in an object
 * literal) gives each object its own hidden class, and 50,000 tool calls doubled scv's memory. On
 * first read the summary is made and becomes a plain value. */
const LAZY_SUMMARY: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: { [MAKE]?: () => string }): string {
    const text = this[MAKE]?.() ?? "";
    this[MAKE] = undefined;
    Object.defineProperty(this, "summary", { value: text, enumerable: true, configurable: true });
    return text;
  },
};

export class ToolTracker {
  private readonly open = new Map<string, string>();

  isOpen(id: string): boolean {
    return this.open.has(id);
  }

  start(id: string, name: string, summary: Summary): TurnEvent {
    this.open.set(id, name);
    return toolStartEvent(id, name, summary);
  }

  /** `fallbackName` serves when the start was never seen. */
  end(id: string, ok: boolean, fallbackName = "tool"): TurnEvent {
    const name = this.open.get(id) ?? fallbackName;
    // Forgotten once ended, so a long turn's map stays as small as its open tools.
    this.open.delete(id);
    return { type: "tool-end", id, name, ok };
  }
}
