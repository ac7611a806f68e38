// The usage log: one JSON line per turn that ran, in `$SCV_HOME/usage/<YYYY-MM>.jsonl` (the UTC
// month the turn started), read by `scv usage`.
//
// Why a log and not the conversation record: a turn is recorded here whether or not it leaves a
// conversation (a failed first turn, a removed conversation still cost what it cost), and turns of
// different conversations never share a file they rewrite. Each line is appended with one write(2)
// on a file opened O_APPEND: the kernel places every such write at the end, whole, so turns ending at
// once need no lock and lose nothing (test/home/usage-log.test.ts runs 100 at once). A line that is
// torn anyway (a short write on a full disk, another file system's semantics) is skipped when read,
// never the file, and never the line after it: the next writer starts its line on a fresh one, and
// the reader finds a whole entry after a fragment an older scv joined it to.
// Bounded: a line is a few hundred bytes (strings are cut), and months older than `KEPT_MONTHS`
// are removed when a new month's file starts.

import { closeSync, constants, fstatSync, openSync, readdirSync, readSync, writeSync } from "node:fs";
import { join } from "node:path";
import * as z from "zod/mini";
import { DEFAULT_ACCOUNT } from "../accounts.js";
import { fileHint, ScvError } from "../errors.js";
import { lazy } from "../lazy.js";
import { cleanUsage } from "../parsers/usage.js";
import { isoTimestamp } from "../timestamp.js";
import { ensureScvDir } from "./agent-home.js";
import { type Env, scvHome } from "./paths.js";
import { removeIfPresent } from "./remove.js";
import { readStateText } from "./state-file.js";

/** Months of usage kept, the current one included. */
export const KEPT_MONTHS = 13;

/** The longest string kept in a line (a model id, an effort): longer ones are cut. */
const MAX_STRING = 200;

/** A month's file: a line is a few hundred bytes, so this is a million turns and more. */
const MAX_FILE_BYTES = 512 * 1024 * 1024;

const FILE_NAME = /^(\d{4}-\d{2})\.jsonl$/;

/** Token counts and cost of one turn; a value that is not a believable number is dropped when read
 * (as when written: `cleanUsage`), never the line. */
const usageFieldsSchema = lazy(() => {
  const number = () => z.catch(z.optional(z.number().check(z.nonnegative())), undefined);
  return z.object({
    input: number(),
    cached: number(),
    cacheWrite: number(),
    output: number(),
    reasoning: number(),
    costUsd: number(),
  });
});

const usageEntrySchema = lazy(() =>
  z.looseObject({
    v: z.literal(1),
    /** When the turn started (UTC ISO 8601): the day and month it counts in. */
    startedAt: z.iso.datetime(),
    durationMs: z.catch(z.int().check(z.nonnegative()), 0),
    agent: z.string(),
    /** The sign-in the turn ran under; `default` is the agent's plain home. */
    account: z._default(z.string(), DEFAULT_ACCOUNT),
    /** As scv passed it; absent when the agent used its own default. */
    model: z.optional(z.string()),
    effort: z.optional(z.string()),
    transport: z.optional(z.string()),
    /** The conversation handle; null for a turn that left no conversation. */
    conversation: z.nullable(z.string()),
    status: z.string(),
    exitCode: z.int(),
    /** The failure's kind (`rate-limit`, `auth`, …), where the CLI's structured fields said one. */
    failure: z.optional(z.string()),
    /** As the CLI reported it (this turn's share of a running total); absent when it reported none. */
    usage: z.optional(usageFieldsSchema()),
  }),
);

export type UsageEntry = z.infer<ReturnType<typeof usageEntrySchema>>;

export function usageDir(env: Env): string {
  return join(scvHome(env), "usage");
}

/** The month a timestamp falls in, as files are named: `2026-12`. */
function monthOf(iso: string): string {
  return iso.slice(0, 7);
}

function cut(text: string | undefined): string | undefined {
  return text === undefined || text.length <= MAX_STRING ? text : text.slice(0, MAX_STRING);
}

/** Appends one turn's line; an `ScvError` (IO) saying why when it cannot. */
export function appendUsage(entry: UsageEntry, env: Env): void {
  // `v` first: a reader finds where a line starts after a torn one by it.
  const { v, ...fields } = entry;
  const line: UsageEntry = {
    v,
    ...fields,
    model: cut(entry.model),
    effort: cut(entry.effort),
    ...(entry.usage === undefined ? {} : { usage: cleanUsage(entry.usage) }),
  };
  const month = monthOf(entry.startedAt);
  const path = join(usageDir(env), `${month}.jsonl`);
  let started = false;
  try {
    ensureScvDir(env, "usage");
    const opened = openLog(path);
    started = opened.created;
    try {
      // A line torn by a short write (a full disk) ended without its newline: this one starts on a
      // line of its own, in the same single write, or the reader would lose it with the fragment.
      const fresh = opened.created || endsLine(opened.fd);
      const text = `${fresh ? "" : "\n"}${JSON.stringify(line)}\n`;
      // One write: appends from turns ending at once never interleave.
      writeSync(opened.fd, Buffer.from(text));
    } finally {
      closeSync(opened.fd);
    }
  } catch (error) {
    if (error instanceof ScvError) throw error;
    const { code } = error as NodeJS.ErrnoException;
    throw new ScvError("IO", `cannot add to usage log ${path} (${code ?? "error"}) — ${fileHint(code)}`, {
      cause: error,
    });
  }
  if (started) removeOldMonths(month, env);
}

const APPEND =
  constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** The month's log opened for appending (and for reading its last byte), created 0600 when new;
 * never through a link, never anything but a regular file (a FIFO would take the line, or block). */
function openLog(path: string): { fd: number; created: boolean } {
  let fd: number;
  let created = true;
  try {
    try {
      fd = openSync(path, APPEND | constants.O_EXCL, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      created = false;
      fd = openSync(path, APPEND, 0o600);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") throw refused(path, "a symbolic link");
    throw error;
  }
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    throw refused(path, "not a regular file");
  }
  return { fd, created };
}

function refused(path: string, what: string): ScvError {
  return new ScvError("IO", `usage log ${path} is ${what} — move it away (scv makes the file anew)`);
}

/** Whether the file is empty or ends with a newline. */
function endsLine(fd: number): boolean {
  const size = fstatSync(fd).size;
  if (size === 0) return true;
  const last = Buffer.alloc(1);
  return readSync(fd, last, 0, 1, size - 1) === 1 && last[0] === 0x0a;
}

/** Removes the files of months more than `KEPT_MONTHS` before `month`. */
function removeOldMonths(month: string, env: Env): void {
  const [year, number] = month.split("-").map(Number);
  if (year === undefined || number === undefined) return;
  const oldestIndex = year * 12 + (number - 1) - (KEPT_MONTHS - 1);
  for (const file of monthFiles(env)) {
    const [fileYear, fileMonth] = file.month.split("-").map(Number);
    if (fileYear === undefined || fileMonth === undefined) continue;
    if (fileYear * 12 + (fileMonth - 1) < oldestIndex) removeIfPresent(join(usageDir(env), file.name));
  }
}

function monthFiles(env: Env): { name: string; month: string }[] {
  let names: string[];
  try {
    names = readdirSync(usageDir(env));
  } catch {
    return [];
  }
  const files: { name: string; month: string }[] = [];
  for (const name of names) {
    const month = FILE_NAME.exec(name)?.[1];
    if (month !== undefined) files.push({ name, month });
  }
  return files.sort((a, b) => a.month.localeCompare(b.month));
}

/** Every readable entry of a turn started at or after `since` (and before `until`), oldest file
 * first; lines that are not an entry (torn, damaged, from a newer scv that changed `v`) are counted. */
export function readUsage(
  since: Date,
  until: Date = new Date(),
  env: Env,
): { entries: UsageEntry[]; skippedLines: number } {
  const from = since.getTime();
  const to = until.getTime();
  const entries: UsageEntry[] = [];
  let skippedLines = 0;
  for (const file of monthFiles(env)) {
    if (file.month < monthOf(isoTimestamp(since)) || file.month > monthOf(isoTimestamp(until))) continue;
    const text = readStateText(join(usageDir(env), file.name), { maxBytes: MAX_FILE_BYTES });
    if (text === undefined) continue;
    for (const line of text.split("\n")) {
      if (line === "") continue;
      const read = readLine(line);
      skippedLines += read.skipped;
      if (read.entry === undefined) continue;
      const startedAt = Date.parse(read.entry.startedAt);
      if (startedAt >= from && startedAt < to) entries.push(read.entry);
    }
  }
  return { entries, skippedLines };
}

/** Where an entry starts: every line begins so, and inside a JSON string `"` is escaped, so this is
 * never inside a value. */
const ENTRY_START = '{"v":';

/** One line's entry, and how many fragments were skipped: a line torn by a short write, with the next
 * turn's line appended to it by an scv that did not start it on a line of its own, is a fragment
 * followed by a whole entry — the fragment is skipped, the entry kept. */
function readLine(line: string): { entry?: UsageEntry; skipped: number } {
  const entry = parseLine(line);
  if (entry !== undefined) return { entry, skipped: 0 };
  for (let at = line.indexOf(ENTRY_START, 1); at !== -1; at = line.indexOf(ENTRY_START, at + 1)) {
    const rest = parseLine(line.slice(at));
    if (rest !== undefined) return { entry: rest, skipped: 1 };
  }
  return { skipped: 1 };
}

function parseLine(line: string): UsageEntry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const parsed = usageEntrySchema().safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
