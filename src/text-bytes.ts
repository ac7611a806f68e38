// Bytes an agent wrote that are not UTF-8, kept through scv as text. A line is decoded as usual
// unless it is not valid UTF-8; then each byte that starts no valid sequence becomes the lone
// surrogate U+DC80–U+DCFF (Python's "surrogateescape"), which JSON parsing and string handling carry
// along unchanged. Where the reply leaves scv, each output form decides: into a pipe or a file the
// bytes go out as they came (`replyBytes`); on a terminal and in JSON they are U+FFFD, counted
// (`notTextCount`, `wellFormed`). A lone surrogate an agent wrote as a JSON escape (`\udc80`) is no
// text either, and is counted the same way.

import { isUtf8 } from "node:buffer";

const ESCAPE_BASE = 0xdc00;
const REPLACEMENT = "\ufffd";
/** A surrogate with no partner: no Unicode text, whatever wrote it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const HAS_LONE_SURROGATE = new RegExp(LONE_SURROGATE.source);

/** `bytes[start, end)` as text: UTF-8, with each byte that starts no valid sequence kept as
 * U+DC00 + byte. */
export function decodeKeepingBytes(bytes: Buffer, start = 0, end = bytes.length): string {
  // Decoding is the cost of reading a stream: a line is checked only when U+FFFD came of it.
  const decoded = bytes.toString("utf8", start, end);
  if (!decoded.includes(REPLACEMENT)) return decoded;
  const slice = bytes.subarray(start, end);
  if (isUtf8(slice)) return decoded;
  let text = "";
  let run = 0;
  let at = 0;
  while (at < slice.length) {
    const length = sequenceLength(slice, at);
    if (length > 0) {
      at += length;
      continue;
    }
    text += slice.toString("utf8", run, at) + String.fromCharCode(ESCAPE_BASE + (slice[at] as number));
    at += 1;
    run = at;
  }
  return text + slice.toString("utf8", run, slice.length);
}

/** The length of the valid UTF-8 sequence at `at`, or 0 (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF). */
function sequenceLength(bytes: Buffer, at: number): number {
  const first = bytes[at] as number;
  if (first < 0x80) return 1;
  const next = (offset: number) => bytes[at + offset] ?? -1;
  const continues = (value: number) => value >= 0x80 && value <= 0xbf;
  if (first >= 0xc2 && first <= 0xdf) return continues(next(1)) ? 2 : 0;
  if (first >= 0xe0 && first <= 0xef) {
    const second = next(1);
    const low = first === 0xe0 ? 0xa0 : 0x80;
    const high = first === 0xed ? 0x9f : 0xbf;
    return second >= low && second <= high && continues(next(2)) ? 3 : 0;
  }
  if (first >= 0xf0 && first <= 0xf4) {
    const second = next(1);
    const low = first === 0xf0 ? 0x90 : 0x80;
    const high = first === 0xf4 ? 0x8f : 0xbf;
    return second >= low && second <= high && continues(next(2)) && continues(next(3)) ? 4 : 0;
  }
  return 0;
}

/** How many characters of `text` are no Unicode text: kept bytes and other lone surrogates. */
export function notTextCount(text: string): number {
  if (!HAS_LONE_SURROGATE.test(text)) return 0;
  return text.match(LONE_SURROGATE)?.length ?? 0;
}

/** `text` with each character that is no Unicode text as U+FFFD. */
export function wellFormed(text: string): string {
  return HAS_LONE_SURROGATE.test(text) ? text.replace(LONE_SURROGATE, REPLACEMENT) : text;
}

/** `text` as the bytes the agent wrote: its kept bytes as themselves, the rest UTF-8 (another lone
 * surrogate as U+FFFD, the only bytes it can be). */
export function replyBytes(text: string): Buffer {
  if (!HAS_LONE_SURROGATE.test(text)) return Buffer.from(text, "utf8");
  const parts: Buffer[] = [];
  let run = 0;
  for (const match of text.matchAll(LONE_SURROGATE)) {
    const at = match.index;
    const code = text.charCodeAt(at);
    parts.push(Buffer.from(text.slice(run, at), "utf8"));
    parts.push(
      code >= ESCAPE_BASE + 0x80 && code <= ESCAPE_BASE + 0xff
        ? Buffer.of(code - ESCAPE_BASE)
        : Buffer.from(REPLACEMENT, "utf8"),
    );
    run = at + 1;
  }
  parts.push(Buffer.from(text.slice(run), "utf8"));
  return Buffer.concat(parts);
}
