// The usage log: one JSON line per turn that ran, in `$SCV_HOME/usage/<YYYY-MM>.jsonl` (the UTC
// month the turn started), read by `scv usage`.
//
// Why a log and not the conversation record: a turn is recorded here whether or not it leaves a
// conversation (a failed first turn, a removed conversation still cost what it cost), and turns of
// different conversations never share a file they rewrite. Each line is appended with one write(2)
// on a file opened O_APPEND: the kernel places every such write at the end, whole, so turns ending at
// once need no lock and lose nothing (test/home/usage-log.test.ts runs 100 at once). A line that is
// torn anyway (a full disk, another file system's semantics) is skipped when read, never the file.
// Bounded: a line is a few hundred bytes (strings are cut), and months older than `KEPT_MONTHS`
// are removed when a new month's file starts.

import { closeSync, openSync, readdirSync, readFileSync, writeSync } from "node:fs";
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

/** Months of usage kept, the current one included. */
export const KEPT_MONTHS = 13;

/** The longest string kept in a line (a model id, an effort): longer ones are cut. */
const MAX_STRING = 200;

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

export const usageEntrySchema = lazy(() =>
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

export function usageDir(env: Env = process.env): string {
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
export function appendUsage(entry: UsageEntry, env: Env = process.env): void {
  const line: UsageEntry = {
    ...entry,
    model: cut(entry.model),
    effort: cut(entry.effort),
    ...(entry.usage === undefined ? {} : { usage: cleanUsage(entry.usage) }),
  };
  const month = monthOf(entry.startedAt);
  const path = join(usageDir(env), `${month}.jsonl`);
  let started = false;
  try {
    ensureScvDir(env, "usage");
    let fd: number;
    try {
      fd = openSync(path, "ax", 0o600);
      started = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      fd = openSync(path, "a", 0o600);
    }
    try {
      // One write: appends from turns ending at once never interleave.
      writeSync(fd, Buffer.from(`${JSON.stringify(line)}\n`));
    } finally {
      closeSync(fd);
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
  env: Env = process.env,
): { entries: UsageEntry[]; skippedLines: number } {
  const from = since.getTime();
  const to = until.getTime();
  const entries: UsageEntry[] = [];
  let skippedLines = 0;
  for (const file of monthFiles(env)) {
    if (file.month < monthOf(isoTimestamp(since)) || file.month > monthOf(isoTimestamp(until))) continue;
    let text: string;
    try {
      text = readFileSync(join(usageDir(env), file.name), "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n")) {
      if (line === "") continue;
      const entry = parseLine(line);
      if (entry === undefined) skippedLines += 1;
      else {
        const startedAt = Date.parse(entry.startedAt);
        if (startedAt >= from && startedAt < to) entries.push(entry);
      }
    }
  }
  return { entries, skippedLines };
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
