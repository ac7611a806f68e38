// Cuts the long JSON string values a parser can do without (elision.ts) out of one line's raw bytes,
// before the line is decoded: decoding a 100 KB tool output into a V8 string and parsing it costs
// ten times more per byte than finding its end. The scan never decodes: the few bytes between
// strings (`":{"`, `,"`, numbers) and short strings are read one by one to follow the nesting, and
// Buffer#indexOf finds the end of a long string at memchr speed (a quote after an odd run of
// backslashes is escaped).
//
// The result is the same line with each elided string replaced by a prefix of itself, cut on a
// character and escape boundary, so it is valid JSON exactly when the line was — except that
// damage inside a removed part (a raw control character, a bad escape) goes with it, which only
// spares a line whose damage was in a value the parser never reads.

import {
  DEFAULT_ELISION_LIMITS,
  type ElisionLimits,
  type ElisionPolicy,
  type StringPlace,
} from "./elision.js";
import {
  BACKSLASH,
  CLOSE_ARRAY,
  CLOSE_OBJECT,
  COLON,
  COMMA,
  LETTER_U,
  OPEN_ARRAY,
  OPEN_OBJECT,
  QUOTE,
} from "./json-bytes.js";

/** Deeper lines are left whole: no agent nests its events this deep, and the frames stay fixed-size. */
const MAX_DEPTH = 64;
const NONE = -1;

/** How far a string's end is looked for byte by byte before `indexOf` takes over: keys, ids and
 * numbers-as-strings end within that, and a native call costs more than reading them. */
const SHORT_STRING_BYTES = 32;

/** The index of the quote that ends the string whose content starts at `from`, or -1. */
export function closingQuote(line: Buffer, from: number): number {
  const shortEnd = Math.min(from + SHORT_STRING_BYTES, line.length);
  let at = from;
  while (at < shortEnd) {
    const byte = line[at];
    if (byte === QUOTE) return at;
    // A backslash escapes the byte after it, whatever it is.
    at += byte === BACKSLASH ? 2 : 1;
  }
  let quote = at < line.length ? line.indexOf(QUOTE, at) : NONE;
  while (quote !== NONE) {
    let before = quote - 1;
    while (before >= from && line[before] === BACKSLASH) before -= 1;
    // An even run of backslashes escapes itself; an odd one escapes this quote.
    if ((quote - 1 - before) % 2 === 0) return quote;
    quote = line.indexOf(QUOTE, quote + 1);
  }
  return NONE;
}

/** Whether the key between `start` and `end` is `type`, read without decoding it. */
function isTypeKey(line: Buffer, start: number, end: number): boolean {
  return (
    end - start === 4 &&
    line[start] === 0x74 &&
    line[start + 1] === 0x79 &&
    line[start + 2] === 0x70 &&
    line[start + 3] === 0x65
  );
}

/** Whether the `\uXXXX` escape whose backslash is at `at` is a surrogate: `\uD8..`-`\uDB..`
 * (high) or `\uDC..`-`\uDF..` (low), told from its first two digits without reading the rest. */
function isSurrogateEscape(line: Buffer, at: number, high: boolean): boolean {
  if (line[at] !== BACKSLASH || line[at + 1] !== LETTER_U || ((line[at + 2] ?? 0) | 0x20) !== 0x64)
    return false;
  const second = (line[at + 3] ?? 0) | 0x20;
  return high
    ? second === 0x38 || second === 0x39 || second === 0x61 || second === 0x62
    : second >= 0x63 && second <= 0x66;
}

/** How many bytes the character or escape starting at `at` takes: a surrogate pair written as two
 * escapes counts as one, so a cut never leaves half of it. */
function unitLength(line: Buffer, at: number): number {
  const byte = line[at]!;
  if (byte === BACKSLASH) {
    if (line[at + 1] !== LETTER_U) return 2;
    return isSurrogateEscape(line, at, true) && isSurrogateEscape(line, at + 6, false) ? 12 : 6;
  }
  if (byte < 0xc0) return 1; // ASCII, or a stray continuation byte (decoded as U+FFFD either way)
  if (byte < 0xe0) return 2;
  if (byte < 0xf0) return 3;
  return 4;
}

/** The end of the longest prefix of the string content starting at `start` that ends on a character
 * and escape boundary at or before `limit`. */
function prefixEnd(line: Buffer, start: number, limit: number): number {
  let at = start;
  while (at < limit) {
    const next = at + unitLength(line, at);
    if (next > limit) break;
    at = next;
  }
  return at;
}

/** Cuts elidable long strings out of lines; one per framer, reusing its output buffer. */
export class StringElider {
  private readonly limits: ElisionLimits;
  private scratch = Buffer.alloc(0);
  // One frame per open object or array, innermost last: the object's current key and its `type`.
  private readonly isArray = new Uint8Array(MAX_DEPTH);
  private readonly keyStart = new Int32Array(MAX_DEPTH);
  private readonly keyEnd = new Int32Array(MAX_DEPTH);
  private readonly keyIsType = new Uint8Array(MAX_DEPTH);
  private readonly typeStart = new Int32Array(MAX_DEPTH);
  private readonly typeEnd = new Int32Array(MAX_DEPTH);

  constructor(
    private readonly policy: ElisionPolicy,
    limits: Partial<ElisionLimits> = {},
  ) {
    this.limits = { ...DEFAULT_ELISION_LIMITS, ...limits };
  }

  /** Whether `line` is long enough to be worth scanning. */
  wants(lineBytes: number): boolean {
    return lineBytes >= this.limits.minLineBytes;
  }

  /** `line` with its elidable long strings cut to a prefix: `line` itself when nothing was cut, else
   * a view of a buffer the next call reuses. A line the scan cannot follow (an unterminated string,
   * nesting past 64, a repeated `type` key) comes back whole for the parser to judge. */
  elide(line: Buffer): Buffer {
    const { minStringBytes, keepBytes } = this.limits;
    const { isArray, keyStart, keyEnd, keyIsType, typeStart, typeEnd } = this;
    let depth = 0;
    let expectKey = false;
    // Once a string is cut, the line is rebuilt in the scratch buffer: `line` before `copied` is in
    // it, as its first `written` bytes.
    let cutAny = false;
    let copied = 0;
    let written = 0;
    const { length } = line;
    let at = 0;
    while (at < length) {
      // Between strings: only a few bytes of structure, read one by one up to the next quote.
      const byte = line[at]!;
      if (byte !== QUOTE) {
        switch (byte) {
          case OPEN_OBJECT:
          case OPEN_ARRAY:
            if (depth === MAX_DEPTH) return line;
            isArray[depth] = byte === OPEN_ARRAY ? 1 : 0;
            keyStart[depth] = NONE;
            keyIsType[depth] = 0;
            typeStart[depth] = NONE;
            expectKey = byte === OPEN_OBJECT;
            depth += 1;
            break;
          case CLOSE_OBJECT:
          case CLOSE_ARRAY:
            if (depth > 0) depth -= 1;
            expectKey = false;
            break;
          case COMMA:
            expectKey = depth > 0 && isArray[depth - 1] === 0;
            break;
          case COLON:
            expectKey = false;
            break;
        }
        at += 1;
        continue;
      }
      const open = at;
      const close = closingQuote(line, open + 1);
      if (close === NONE) return line;
      const frame = depth - 1;
      const inObject = frame >= 0 && isArray[frame] === 0;
      if (expectKey && inObject) {
        const isType = isTypeKey(line, open + 1, close);
        // JSON.parse keeps the last of repeated keys; a decision made on the first would not hold.
        if (isType && typeStart[frame] !== NONE) return line;
        keyStart[frame] = open + 1;
        keyEnd[frame] = close;
        keyIsType[frame] = isType ? 1 : 0;
        expectKey = false;
      } else if (inObject && keyIsType[frame] === 1) {
        typeStart[frame] = open + 1;
        typeEnd[frame] = close;
      } else if (close - open - 1 >= minStringBytes && this.policy(this.place(line, depth))) {
        const cut = prefixEnd(line, open + 1, Math.min(close, open + 1 + keepBytes));
        if (!cutAny) this.reserve(line.length);
        cutAny = true;
        written += line.copy(this.scratch, written, copied, cut);
        copied = close;
      }
      at = close + 1;
    }
    if (!cutAny) return line;
    written += line.copy(this.scratch, written, copied, length);
    return this.scratch.subarray(0, written);
  }

  private reserve(bytes: number): void {
    if (this.scratch.length < bytes)
      this.scratch = Buffer.allocUnsafe(Math.max(bytes, this.scratch.length * 2));
  }

  /** The path and types of a string value inside `depth` open containers. */
  private place(line: Buffer, depth: number): StringPlace {
    const path: string[] = [];
    const types: (string | undefined)[] = [];
    for (let frame = 0; frame < depth; frame += 1) {
      if (this.isArray[frame] === 1) {
        path.push("[]");
        types.push(undefined);
        continue;
      }
      const start = this.keyStart[frame]!;
      // A key with escapes reads as written, so it matches no rule and nothing under it is cut.
      path.push(start === NONE ? "" : line.toString("utf8", start, this.keyEnd[frame]));
      const typeStart = this.typeStart[frame]!;
      types.push(typeStart === NONE ? undefined : line.toString("utf8", typeStart, this.typeEnd[frame]));
    }
    return { path, types };
  }
}
