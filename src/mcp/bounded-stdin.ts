// What `scv mcp` reads from its host, one line a message, bounded: the SDK's stdio transport drops the
// whole connection (and every call in flight) when a message passes its buffer of 10 MiB, so the
// server reads the lines itself and hands the transport only those within the bound. A longer line is
// never held whole: it is dropped as it comes, and the request it was is answered with an error, by
// the id read from its first or last bytes (where clients put it), so the host's call ends and the
// server goes on serving.

import { PassThrough, type Readable } from "node:stream";

/** The longest message read: the SDK's own bound. */
export const MAX_REQUEST_BYTES = 10 * 1024 * 1024;

/** How much of each end of a dropped line is kept to find its id. */
const END_BYTES = 4096;

const LF = 0x0a;

export type RequestId = string | number | null;

export interface OversizedLine {
  /** The request's id, or null when neither end of the line names one (a notification, or a client
   * that writes it in the middle). */
  readonly id: RequestId;
  readonly bytes: number;
}

/** The first `count` bytes of `buffers` together. */
function firstBytes(buffers: readonly Buffer[], count: number): Buffer {
  const taken: Buffer[] = [];
  let left = count;
  for (const buffer of buffers) {
    if (left <= 0) break;
    taken.push(buffer.subarray(0, left));
    left -= Math.min(left, buffer.length);
  }
  return Buffer.concat(taken);
}

/** `input`'s lines within `maxBytes` as a stream (each with its LF); each longer one told to
 * `onOversized` once it ends. */
export function boundedLines(
  input: Readable,
  onOversized: (line: OversizedLine) => void,
  maxBytes = MAX_REQUEST_BYTES,
): Readable {
  const output = new PassThrough();
  let kept: Buffer[] = [];
  let keptBytes = 0;
  // The line being dropped: its first bytes, its last, and its length so far.
  let dropping: { head: Buffer; tail: Buffer; bytes: number } | undefined;

  const take = (piece: Buffer): void => {
    if (dropping === undefined && keptBytes + piece.length <= maxBytes) {
      kept.push(piece);
      keptBytes += piece.length;
      return;
    }
    if (dropping === undefined) {
      dropping = { head: firstBytes([...kept, piece], END_BYTES), tail: Buffer.alloc(0), bytes: keptBytes };
      kept = [];
      keptBytes = 0;
    }
    dropping.bytes += piece.length;
    const tail = Buffer.concat([dropping.tail, piece.subarray(Math.max(0, piece.length - END_BYTES))]);
    dropping.tail = tail.subarray(Math.max(0, tail.length - END_BYTES));
  };

  const endLine = (): void => {
    if (dropping !== undefined) {
      onOversized({ id: requestId(dropping.head, dropping.tail), bytes: dropping.bytes });
      dropping = undefined;
      return;
    }
    if (keptBytes > 0) output.write(Buffer.concat([...kept, Buffer.from("\n")]));
    kept = [];
    keptBytes = 0;
  };

  input.on("data", (chunk: Buffer | string) => {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    let start = 0;
    while (start < bytes.length) {
      const newline = bytes.indexOf(LF, start);
      take(bytes.subarray(start, newline === -1 ? bytes.length : newline));
      if (newline === -1) return;
      endLine();
      start = newline + 1;
    }
  });
  input.on("end", () => {
    endLine();
    output.end();
  });
  input.on("error", (error) => output.destroy(error));
  return output;
}

/** A JSON-RPC id: a number or a string. */
const ID_VALUE = String.raw`(-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.)*")`;
/** `"id": <value>` where a line ends: the value followed only by simple members, then the object's
 * end (the TypeScript SDK writes `…,"params":{…},"jsonrpc":"2.0","id":5}`). */
const ID_AT_END = new RegExp(String.raw`"id"\s*:\s*${ID_VALUE}\s*(?:,\s*"[a-z]+"\s*:\s*"[^"]*"\s*)*\}\s*$`);

/** The top-level id of the request whose line starts with `head` and ends with `tail`, or null. */
export function requestId(head: Buffer, tail: Buffer): RequestId {
  const early = topLevelId(head.toString("utf8"));
  if (early !== undefined) return early;
  const late = ID_AT_END.exec(tail.toString("utf8").replace(/\r$/, ""));
  return late?.[1] === undefined ? null : parseId(late[1]);
}

function parseId(text: string): RequestId {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "number" || typeof value === "string" ? value : null;
  } catch {
    return null;
  }
}

const STRING = /"(?:[^"\\]|\\.)*"/y;
const NUMBER = /-?\d+(?:\.\d+)?/y;

/** The value of the `id` member of the object `text` starts, read until the bytes run out: only a
 * member of the top level counts. */
function topLevelId(text: string): RequestId | undefined {
  let depth = 0;
  let key: string | undefined;
  let afterColon = false;
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at];
    if (char === '"') {
      STRING.lastIndex = at;
      const string = STRING.exec(text)?.[0];
      if (string === undefined) return undefined;
      if (depth === 1 && afterColon && key === "id") return parseId(string);
      if (depth === 1 && !afterColon) key = String(parseId(string));
      at += string.length - 1;
    } else if (char === "{" || char === "[") depth += 1;
    else if (char === "}" || char === "]") depth -= 1;
    else if (char === ":" && depth === 1) afterColon = true;
    else if (char === "," && depth === 1) {
      afterColon = false;
      key = undefined;
    } else if (depth === 1 && afterColon && key === "id" && char !== undefined && /[-\d]/.test(char)) {
      NUMBER.lastIndex = at;
      const number = NUMBER.exec(text)?.[0];
      return number === undefined ? undefined : parseId(number);
    }
  }
  return undefined;
}
