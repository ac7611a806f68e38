// The one way scv reads a file from its home (records, results, logs, caches, approvals, the usage
// log, the agents' own files in their homes) and the config file. Anything can be put where scv
// expects its own file — by a crash, a user, a delegated agent running as the same user — and a plain
// read of a FIFO waits for a writer that never comes (every command hung on one, unkillable by
// SIGTERM), a device never ends, and a link leads out of the home. So every read:
//
//   - opens with O_NONBLOCK (a FIFO's open returns at once) and, for scv's own files, O_NOFOLLOW
//     (a link is refused; `followLinks` is for files the user or an agent may keep as links: the
//     config file, an agent's settings);
//   - checks on the open descriptor (fstat) that it is a regular file, so nothing swapped in after a
//     check is read;
//   - reads at most a bound (a larger file is refused, or with `tail` its end is read).
//
// A file that is not there is absent, silently. Anything refused is skipped as absent with one note
// per path and process ("scv: note: skipped …: a FIFO, not a regular file — remove it"), sent where
// `sendStateNotesTo` says (the command's stderr: cli/main.ts). Readers that must refuse loudly (the
// config file) use `readStateFile` and say it themselves.

import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";

/** Records, caches, questions: far more than scv ever writes in one. */
export const SMALL_STATE_BYTES = 4 * 1024 * 1024;

export interface StateReadOptions {
  /** The most bytes read: a larger file is refused, unless `tail`. */
  readonly maxBytes: number;
  /** A log: read its last `maxBytes` instead of refusing a larger one. */
  readonly tail?: boolean;
  /** A file the user or an agent may keep as a link (the config file, an agent's settings). */
  readonly followLinks?: boolean;
}

export type StateFileRead =
  /** `mode`: its permission bits. */
  | { readonly kind: "read"; readonly bytes: Buffer; readonly mode: number }
  | { readonly kind: "absent" }
  /** `why`: what it is instead, as a clause ("a FIFO, not a regular file"). */
  | {
      readonly kind: "refused";
      readonly reason: RefusedReason;
      readonly why: string;
      readonly code?: string;
    };

type RefusedReason = "link" | "not-file" | "too-large" | "unreadable";

type Refused = Extract<StateFileRead, { kind: "refused" }>;

function refused(reason: RefusedReason, why: string): Refused {
  return { kind: "refused", reason, why };
}

function unreadable(code: string | undefined): Refused {
  return {
    kind: "refused",
    reason: "unreadable",
    why: `unreadable (${code ?? "error"})`,
    code: code ?? "error",
  };
}

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

export type StateFileOpen =
  | { readonly kind: "open"; readonly fd: number; readonly stats: Stats }
  | Exclude<StateFileRead, { kind: "read" }>;

/** Opens `path` for reading when it is a regular file (checked on the descriptor), without waiting
 * and, unless `followLinks`, not through a link; the caller closes `fd`. Never throws. For a reader
 * that reads on from where it was (a transcript); others read whole with `readStateFile`. */
export function openStateFile(path: string, options: { readonly followLinks?: boolean } = {}): StateFileOpen {
  let fd: number;
  try {
    fd = openSync(path, options.followLinks === true ? OPEN_FLAGS : OPEN_FLAGS | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "absent" };
    if (code === "ELOOP") return refused("link", "a symbolic link, which scv does not follow in its home");
    // open(2) of a socket.
    if (code === "ENXIO") return refused("not-file", "a socket, not a regular file");
    return unreadable(code);
  }
  let stats: Stats;
  try {
    stats = fstatSync(fd);
  } catch (error) {
    closeSync(fd);
    return unreadable((error as NodeJS.ErrnoException).code);
  }
  if (stats.isFile()) return { kind: "open", fd, stats };
  closeSync(fd);
  return refused("not-file", `${fileType(stats)}, not a regular file`);
}

/** Reads `path` as the header says, without a note. Never throws. */
export function readStateFile(path: string, options: StateReadOptions): StateFileRead {
  const opened = openStateFile(path, options);
  if (opened.kind !== "open") return opened;
  const { fd, stats } = opened;
  const tooLarge = () =>
    refused("too-large", `larger than ${describeBytes(options.maxBytes)}, more than scv writes there`);
  try {
    if (stats.size > options.maxBytes && options.tail !== true) return tooLarge();
    return { kind: "read", bytes: readBounded(fd, stats.size, options), mode: stats.mode & 0o777 };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "EFBIG" ? tooLarge() : unreadable(code);
  } finally {
    closeSync(fd);
  }
}

/** The file's bytes, or its last `maxBytes` with `tail`. A file that grows past the bound while it
 * is read is refused as the size check would have refused it (a tail reads what was there). */
function readBounded(fd: number, size: number, options: StateReadOptions): Buffer {
  const tail = options.tail === true;
  const start = tail ? Math.max(0, size - options.maxBytes) : 0;
  // One byte more than its size tells a file that grew meanwhile (a log): read on, to the bound.
  let buffer = Buffer.alloc(tail ? size - start : Math.min(size, options.maxBytes) + 1);
  let length = 0;
  for (;;) {
    const read = readSync(fd, buffer, length, buffer.length - length, start + length);
    if (read === 0) break;
    length += read;
    if (length < buffer.length) continue;
    if (tail || length > options.maxBytes) break;
    const grown = Buffer.alloc(Math.min(buffer.length * 2, options.maxBytes + 1));
    buffer.copy(grown, 0, 0, length);
    buffer = grown;
  }
  if (!tail && length > options.maxBytes) {
    throw Object.assign(new Error("grew past the bound"), { code: "EFBIG" });
  }
  return buffer.subarray(0, length);
}

function fileType(stats: Stats): string {
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isSocket()) return "a socket";
  if (stats.isDirectory()) return "a folder";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "something else";
}

function describeBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB` : `${bytes} bytes`;
}

/** The file's bytes; undefined when it is absent or refused (noted). */
export function readStateBytes(path: string, options: StateReadOptions): Buffer | undefined {
  const read = readStateFile(path, options);
  if (read.kind === "refused") noteRefused(path, read.why);
  return read.kind === "read" ? read.bytes : undefined;
}

/** The file's text (UTF-8); undefined when it is absent or refused (noted). */
export function readStateText(path: string, options: StateReadOptions): string | undefined {
  return readStateBytes(path, options)?.toString("utf8");
}

let noteSink: ((line: string) => void) | undefined;
const noted = new Set<string>();

/** Where notes of refused files go from now on (the command's stderr). */
export function sendStateNotesTo(sink: ((line: string) => void) | undefined): void {
  noteSink = sink;
}

/** One note per path and process: a record read on every look (`scv wait` polls) says it once. */
export function noteRefused(path: string, why: string): void {
  if (noted.has(path)) return;
  noted.add(path);
  noteSink?.(`scv: note: skipped ${path}: ${why} — remove it\n`);
}
