// The one stdout line that must never be dropped is the one that carries the reply. Every line is
// bounded (transport/framing.ts) so a runaway line cannot grow memory, but a reply of 5 MiB arrives
// as one line of a claude `result`, a codex `item.completed`, a pi `message_end`, …: each parser
// names the top-level `type`s of its lines that can carry the reply (or the key that holds it, where
// the type comes after it), and those are read up to `MAX_REPLY_BYTES`. A line's head is read from
// its raw bytes once it passes the ordinary bound.

import { closingQuote } from "./elide-strings.js";
import { CLOSE_ARRAY, CLOSE_OBJECT, COMMA, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from "./json-bytes.js";

/** The longest reply scv reads: one line, or reply text gathered from many. */
export const MAX_REPLY_BYTES = 64 * 1024 * 1024;

/** What the start of a long line shows: the `type` of its top value, or, when the type is not
 * there yet (Claude writes `type` after `result`), the top-level key whose value runs past it. */
export interface LineHead {
  readonly type?: string;
  readonly openKey?: string;
}

/** A parser's answer to "may this long line carry the reply?". */
export type ReplyLinePolicy = (head: LineHead) => boolean;

/** Lines whose top value's `type` is one of `types`, or whose top-level key `keys` runs long
 * before the type is given. */
export function linesOfTypes(types: readonly string[], keys: readonly string[] = []): ReplyLinePolicy {
  const knownTypes = new Set(types);
  const knownKeys = new Set(keys);
  return ({ type, openKey }) =>
    type !== undefined ? knownTypes.has(type) : openKey !== undefined && knownKeys.has(openKey);
}

/** Every line: plain text is all reply. */
export const everyLine: ReplyLinePolicy = () => true;

/** A key or type longer than this is none scv reads. */
const MAX_KEY_BYTES = 128;

/**
 * The head of the JSON object that starts a line (after anything before its first `{`, such as an
 * ANSI escape), read from the first `scanBytes` bytes without decoding the rest: its top-level
 * `type` string, else the top-level key whose value is still open where the bytes end. Strings are
 * skipped with `closingQuote`, at memchr speed.
 */
export function lineHead(line: Buffer, scanBytes = line.length): LineHead {
  const end = Math.min(line.length, scanBytes);
  let at = line.indexOf(OPEN_OBJECT);
  if (at === -1 || at >= end) return {};
  let depth = 0;
  let expectKey = false;
  let key: string | undefined;
  const open = (): LineHead => (key === undefined ? {} : { openKey: key });
  for (; at < end; at += 1) {
    const byte = line[at];
    if (byte === QUOTE) {
      const close = closingQuote(line, at + 1);
      if (close === -1 || close >= end) return open();
      if (depth === 1 && expectKey) {
        key = close - at - 1 <= MAX_KEY_BYTES ? line.toString("utf8", at + 1, close) : "";
        expectKey = false;
      } else if (depth === 1 && key === "type") {
        return close - at - 1 <= MAX_KEY_BYTES ? { type: line.toString("utf8", at + 1, close) } : {};
      }
      at = close;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      depth += 1;
      expectKey = depth === 1;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      depth -= 1;
      if (depth <= 0) return {};
    } else if (byte === COMMA && depth === 1) {
      expectKey = true;
      key = undefined;
    }
  }
  return open();
}
