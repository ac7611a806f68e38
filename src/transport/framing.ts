// Cuts a child's stdout into lines for a parser: LF only, one trailing CR stripped, UTF-8 decoded
// safely across chunk boundaries, and every line bounded so a runaway line cannot grow memory.

import { StringDecoder } from "node:string_decoder";

export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;

export interface LineFramerOptions {
  /** A line longer than this (in bytes, without its LF) is dropped whole and reported. */
  readonly maxLineBytes?: number;
  readonly onLine: (line: string) => void;
  /** Called once per dropped line, as soon as it passes the limit. */
  readonly onOversized: () => void;
}

export interface LineFramer {
  push(chunk: Buffer): void;
  /** Flushes a last line that had no newline. */
  end(): void;
}

export function createLineFramer(options: LineFramerOptions): LineFramer {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const { onLine, onOversized } = options;
  // The start of a line that began in an earlier chunk. The decoder holds the bytes of a character
  // cut by a chunk boundary; lines found whole inside one chunk skip it (a LF byte never occurs
  // inside a multi-byte UTF-8 sequence, so such a line is always complete).
  const decoder = new StringDecoder("utf8");
  let carried = "";
  let carriedBytes = 0;
  let dropping = false;

  function emit(text: string): void {
    onLine(text.charCodeAt(text.length - 1) === CR ? text.slice(0, -1) : text);
  }

  function resetCarry(): void {
    carried = "";
    carriedBytes = 0;
    decoder.end();
  }

  return {
    push(chunk: Buffer): void {
      let start = 0;
      while (start < chunk.length) {
        const newline = chunk.indexOf(LF, start);
        if (newline === -1) {
          if (dropping) return;
          carriedBytes += chunk.length - start;
          if (carriedBytes > maxLineBytes) {
            dropping = true;
            resetCarry();
            onOversized();
            return;
          }
          carried += decoder.write(chunk.subarray(start));
          return;
        }
        if (dropping) {
          dropping = false;
        } else if (carriedBytes + (newline - start) > maxLineBytes) {
          resetCarry();
          onOversized();
        } else if (carriedBytes === 0) {
          emit(chunk.toString("utf8", start, newline));
        } else {
          const text = carried + decoder.end(chunk.subarray(start, newline));
          resetCarry();
          emit(text);
        }
        start = newline + 1;
      }
    },
    end(): void {
      if (dropping) {
        dropping = false;
        return;
      }
      if (carriedBytes === 0) return;
      const text = carried + decoder.end();
      resetCarry();
      emit(text);
    },
  };
}
