// Accumulates reply text with a ceiling, so a runaway stream of text deltas cannot grow memory
// without bound: past the ceiling the rest is dropped and the reply says so.

import { MAX_REPLY_BYTES } from "./reply-lines.js";

/** As long as the longest reply line (reply-lines.ts): a reply read whole is never cut here. */
const DEFAULT_MAX_REPLY_CHARS = MAX_REPLY_BYTES;

const TRUNCATION_NOTE = "\n[… reply truncated by scv]";

export class BoundedText {
  private parts: string[] = [];
  private length = 0;
  private truncated = false;

  constructor(private readonly maxChars = DEFAULT_MAX_REPLY_CHARS) {}

  append(text: string): void {
    if (this.truncated || text === "") return;
    const room = this.maxChars - this.length;
    if (text.length > room) {
      this.parts.push(text.slice(0, room));
      this.length = this.maxChars;
      this.truncated = true;
      return;
    }
    this.parts.push(text);
    this.length += text.length;
  }

  clear(): void {
    this.parts = [];
    this.length = 0;
    this.truncated = false;
  }

  get size(): number {
    return this.length;
  }

  toString(): string {
    const text = this.parts.join("");
    // Joining once keeps later reads cheap.
    this.parts = [text];
    return this.truncated ? text + TRUNCATION_NOTE : text;
  }
}
