// Saving a background turn's result when the disk will not take it. The result is the one thing a
// background turn must leave behind, and it is written last, after the agent may have filled the
// disk (or its quota). So the detached scv holds a little space from its start — a reserve file of
// RESERVE_BYTES beside the result (`<job>.reserve`) — and saves in steps:
//
//   1. the whole result, as always;
//   2. on a full disk (or a quota, a size limit, a read-only or forbidden folder): the reserve is
//      released and the whole result tried again;
//   3. else a minimal result: no reply, one line saying it could not be saved and why — small enough
//      to fit where the reserve was;
//   4. else one line in the job's log (its stderr, already open), which the reaper turns into the
//      result `scv wait` reports, instead of "the scv running this turn died".

import { closeSync, fsyncSync, openSync, writeSync } from "node:fs";
import { EXIT, fileHint } from "../errors.js";
import type { TurnResult } from "../result.js";
import { writeAtomicSync } from "./atomic.js";
import { removeIfPresent } from "./remove.js";
import { readStateText, type StateReadOptions } from "./state-file.js";

/** The end of a job's log, where an scv's last words are. */
export const LOG_TAIL: StateReadOptions = { maxBytes: 64 * 1024, tail: true };

/** Enough for a result with a reply of a few thousand characters, and for any minimal one. */
export const RESERVE_BYTES = 16 * 1024;

/** The errors a write of the result can meet for want of room or right, where a step below helps. */
const WRITE_FAILURES = new Set(["ENOSPC", "EDQUOT", "EFBIG", "EROFS", "EACCES", "EPERM"]);

/** How the log's line begins, so the reaper can tell it from anything else in the log. */
const UNSAVED_PREFIX = "scv: the result of job ";

/** Holds RESERVE_BYTES at `path` (written out, not sparse, and flushed, so the blocks are the
 * reserve's); false when the disk has not even that. */
export function holdReserve(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, "wx", 0o600);
    writeSync(fd, Buffer.alloc(RESERVE_BYTES));
    fsyncSync(fd);
    return true;
  } catch {
    if (fd !== undefined) removeIfPresent(path);
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export type SaveOutcome = "saved" | "saved-from-reserve" | "saved-minimal" | "logged" | "lost";

export interface ResultWriter {
  /** Writes `text` as the result file, whole or not at all (atomic.ts). */
  readonly write: (path: string, text: string) => void;
  /** Appends one line to the job's log. */
  readonly log: (line: string) => void;
}

export const FILE_WRITER: ResultWriter = {
  write: (path, text) => writeAtomicSync(path, text, { fsync: true }),
  // stderr is the job's log; a sync write, whose failure must not become an 'error' event.
  log: (line) => {
    writeSync(2, line);
  },
};

/** Saves `record` (a finished-turn record around `result`) at `path`, in the steps above; the
 * reserve at `reservePath` is gone afterwards, whatever happened. */
export function saveWithReserve(
  path: string,
  reservePath: string,
  record: { readonly result: TurnResult } & Record<string, unknown>,
  job: string,
  writer: ResultWriter = FILE_WRITER,
): SaveOutcome {
  const text = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  let failure: NodeJS.ErrnoException | undefined;
  const attempt = (value: unknown): boolean => {
    try {
      writer.write(path, text(value));
      return true;
    } catch (error) {
      failure = error as NodeJS.ErrnoException;
      return false;
    }
  };
  try {
    if (attempt(record)) return "saved";
    if (!WRITE_FAILURES.has(failure?.code ?? "")) throw failure;
    const first = failure;
    removeIfPresent(reservePath);
    const note = `saved from the space scv held for it: ${describe(first)}`;
    if (attempt({ ...record, result: { ...record.result, notes: [...record.result.notes, note] } }))
      return "saved-from-reserve";
    const minimal = minimalResult(record.result, job, first);
    if (attempt({ ...record, result: minimal })) return "saved-minimal";
    try {
      writer.log(`${UNSAVED_PREFIX}${job} could not be saved: ${describe(first)}\n`);
      return "logged";
    } catch {
      return "lost";
    }
  } finally {
    try {
      removeIfPresent(reservePath);
    } catch {
      // A reserve that cannot be removed is swept with the job's files (scv agents gc).
    }
  }
}

/** The result without its reply, saying why. */
function minimalResult(
  result: TurnResult,
  job: string,
  error: NodeJS.ErrnoException | undefined,
): TurnResult {
  const what = result.reply === "" ? "" : ` (its reply, ${result.reply.length} characters, is lost here)`;
  const continued =
    result.conversation === null ? "" : ` — its session keeps it: scv delegate -c ${result.conversation} "…"`;
  return {
    ...result,
    reply: "",
    exitCode: result.exitCode === EXIT.ok ? EXIT.agentFailed : result.exitCode,
    error: `the result of job ${job} could not be saved whole${what}: ${describe(error)}${continued}`,
    hint: null,
    fallbacks: [],
    notes: [],
  };
}

function describe(error: NodeJS.ErrnoException | undefined): string {
  const code = error?.code ?? "error";
  return `${code} — ${fileHint(code)}`;
}

/** The line a detached scv left in its log when it could not save its result at all; undefined when
 * there is none. */
export function unsavedLine(logPath: string): string | undefined {
  // Its last lines: the line is the last thing the scv wrote.
  const text = readStateText(logPath, LOG_TAIL);
  const line = text
    ?.split("\n")
    .reverse()
    .find((each) => each.startsWith(UNSAVED_PREFIX));
  return line?.slice("scv: ".length);
}
