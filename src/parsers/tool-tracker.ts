// Pairs tool ends with their starts, so an end event can name its tool even when the CLI's end
// event does not (Claude's `tool_result`, Gemini's `tool_result`).

import type { TurnEvent } from "./types.js";

export class ToolTracker {
  private readonly open = new Map<string, string>();

  isOpen(id: string): boolean {
    return this.open.has(id);
  }

  start(id: string, name: string, summary: string): TurnEvent {
    this.open.set(id, name);
    return { type: "tool-start", id, name, summary };
  }

  /** `fallbackName` serves when the start was never seen. */
  end(id: string, ok: boolean, fallbackName = "tool"): TurnEvent {
    const name = this.open.get(id) ?? fallbackName;
    // Forgotten once ended, so a long turn's map stays as small as its open tools.
    this.open.delete(id);
    return { type: "tool-end", id, name, ok };
  }
}
