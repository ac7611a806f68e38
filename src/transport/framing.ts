// Cuts a child's stdout into lines for a parser: LF only, one trailing CR stripped, UTF-8 decoded
// once per whole line (so a character cut by a chunk boundary is never split), and every line
// bounded so a runaway line cannot grow memory: 4 MiB, or 64 MiB for a line the parser says may
// carry the reply (src/parsers/reply-lines.ts), told by its head once it passes 4 MiB. Bytes that are
// not UTF-8 are kept as lone surrogates (src/text-bytes.ts), not replaced. When the
// parser names string values it can do without, long lines have those cut to a prefix while still
// bytes (src/parsers/elide-strings.ts): decoding them is most of what reading an agent's stream
// costs.

import { StringElider } from "../parsers/elide-strings.js";
import type { ElisionLimits, ElisionPolicy } from "../parsers/elision.js";
import { type LineHead, lineHead, MAX_REPLY_BYTES, type ReplyLinePolicy } from "../parsers/reply-lines.js";
import { decodeKeepingBytes } from "../text-bytes.js";

const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;
/** The carry buffer's first size; it doubles up to the longest line seen (at most the limit). */
const FIRST_CARRY_BYTES = 64 * 1024;

export interface LineFramerOptions {
  /** A line longer than this (in bytes, without its LF) is dropped whole and reported, unless it
   * may carry the reply. */
  readonly maxLineBytes?: number;
  /** The bound of a line that may carry the reply (`replyLines`). */
  readonly maxReplyLineBytes?: number;
  /** The parser's answer to which long lines may carry the reply (`StreamParser.replyLines`). */
  readonly replyLines?: ReplyLinePolicy | undefined;
  readonly onLine: (line: string) => void;
  /** Called once per dropped line, as soon as it passes the limit. */
  readonly onOversized: () => void;
  /** The parser's answer to which long strings it can do without (`StreamParser.elision`). */
  readonly elision?: ElisionPolicy | undefined;
  /** Overrides of the elision thresholds (tests force elision on short lines with them). */
  readonly elisionLimits?: Partial<ElisionLimits>;
}

export interface LineFramer {
  push(chunk: Buffer): void;
  /** Flushes a last line that had no newline. */
  end(): void;
}

export function createLineFramer(options: LineFramerOptions): LineFramer {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const maxReplyLineBytes = Math.max(maxLineBytes, options.maxReplyLineBytes ?? MAX_REPLY_BYTES);
  const { onLine, onOversized, replyLines } = options;
  const elider =
    options.elision === undefined ? undefined : new StringElider(options.elision, options.elisionLimits);
  // The bytes of a line that began in an earlier chunk, copied into one reused buffer: lines found
  // whole inside one chunk are read where they are.
  let carry = Buffer.alloc(0);
  let carried = 0;
  let dropping = false;
  // The bound of the line being read: raised once, when it passes the ordinary one, for a line that
  // may carry the reply.
  let lineLimit = maxLineBytes;
  let headRead = false;

  /** Whether the line being read, `length` more bytes of it at `start` in `chunk`, is past its
   * bound. */
  function tooLong(chunk: Buffer, start: number, length: number): boolean {
    if (carried + length <= lineLimit) return false;
    if (headRead || replyLines === undefined) return true;
    headRead = true;
    if (replyLines(headOf(chunk, start, length))) lineLimit = maxReplyLineBytes;
    return carried + length > lineLimit;
  }

  /** The head of the line being read, from its first `maxLineBytes` bytes. */
  function headOf(chunk: Buffer, start: number, length: number): LineHead {
    const fromChunk = chunk.subarray(start, start + Math.min(length, Math.max(0, maxLineBytes - carried)));
    const head = carried === 0 ? fromChunk : Buffer.concat([carry.subarray(0, carried), fromChunk]);
    return lineHead(head, maxLineBytes);
  }

  /** The next line starts: its bound is the ordinary one again, and a carry grown past that for a
   * reply line is let go. */
  function nextLine(): void {
    carried = 0;
    lineLimit = maxLineBytes;
    headRead = false;
    if (carry.length > maxLineBytes) carry = Buffer.alloc(0);
  }

  function emit(bytes: Buffer, start: number, end: number): void {
    const stop = end > start && bytes[end - 1] === CR ? end - 1 : end;
    if (elider === undefined || !elider.wants(stop - start)) {
      onLine(decodeKeepingBytes(bytes, start, stop));
      return;
    }
    onLine(decodeKeepingBytes(elider.elide(bytes.subarray(start, stop))));
  }

  function keep(chunk: Buffer, start: number, end: number): void {
    const needed = carried + (end - start);
    if (carry.length < needed) {
      // Never past the limit: a longer line is dropped before it is kept.
      const size = Math.min(lineLimit, Math.max(needed, carry.length * 2, FIRST_CARRY_BYTES));
      const grown = Buffer.allocUnsafe(size);
      carry.copy(grown, 0, 0, carried);
      carry = grown;
    }
    carried += chunk.copy(carry, carried, start, end);
  }

  return {
    push(chunk: Buffer): void {
      let start = 0;
      while (start < chunk.length) {
        const newline = chunk.indexOf(LF, start);
        if (newline === -1) {
          if (dropping) return;
          if (tooLong(chunk, start, chunk.length - start)) {
            dropping = true;
            nextLine();
            onOversized();
            return;
          }
          keep(chunk, start, chunk.length);
          return;
        }
        if (dropping) {
          dropping = false;
        } else if (tooLong(chunk, start, newline - start)) {
          nextLine();
          onOversized();
        } else if (carried === 0) {
          emit(chunk, start, newline);
          nextLine();
        } else {
          keep(chunk, start, newline);
          const length = carried;
          emit(carry, 0, length);
          nextLine();
        }
        start = newline + 1;
      }
    },
    end(): void {
      if (dropping) {
        dropping = false;
        return;
      }
      if (carried === 0) return;
      emit(carry, 0, carried);
      nextLine();
    },
  };
}
