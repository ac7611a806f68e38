// Pairs tool ends with their starts, so an end event can name its tool even when the CLI's end
// event does not (Claude's `tool_result`, Gemini's `tool_result`); and builds tool starts whose
// one-line summary is made only when something reads it.

import type { TurnEvent } from "./event-types.js";

/** A tool's one-line summary, or how to make it. */
export type Summary = string | (() => string);

/** A tool-start event. A summary given as a function is made on first read, once: on a busy turn
 * most are never read (the progress line shows a few a second, the running record is written a few
 * times a second), and making them all (redaction above all) took a tenth of such a turn's time. */
export function toolStartEvent(id: string, name: string, summary: Summary): TurnEvent {
  if (typeof summary === "string") return { type: "tool-start", id, name, summary };
  return new LazyToolStart(id, name, summary) as unknown as TurnEvent;
}

/** A tool start whose `summary` is an accessor until first read, then a plain value. Every one
 * shares one accessor: a getter made per object (one in an object literal) gives each object its
 * own hidden class, and 50,000 tool calls doubled scv's memory. */
class LazyToolStart {
  readonly type: "tool-start";
  readonly id: string;
  readonly name: string;
  // Private: invisible to a copy, to JSON and to an equality check, as the summary's source should be.
  #make: (() => string) | undefined;

  constructor(id: string, name: string, make: () => string) {
    this.type = "tool-start";
    this.id = id;
    this.name = name;
    this.#make = make;
    Object.defineProperty(this, "summary", LazyToolStart.#summary);
  }

  static readonly #summary: PropertyDescriptor = {
    enumerable: true,
    configurable: true,
    get(this: LazyToolStart): string {
      const text = this.#make?.() ?? "";
      this.#make = undefined;
      Object.defineProperty(this, "summary", { value: text, enumerable: true, configurable: true });
      return text;
    },
  };
}

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
