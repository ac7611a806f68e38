// The running-turn registry's records, in $SCV_HOME/turns (turn-files.ts names them).
//
// While a turn runs, <handle>.json (0600, written atomically) names scv's own process and the
// agent's, each as pid plus start time so that a reused pid is never taken for ours, and the turn's
// job, which is also the tag the agent's environment carries (SCV_TURN, unique to the turn). A
// background turn's result, and the result of a turn whose scv died, is kept in <job>.done.json until
// `scv wait` reads it. The
// turn's own registration is turn/track.ts; the reaper is turn/reap.ts.

import * as z from "zod/mini";
import { ScvError } from "../errors.js";
import { lazy } from "../lazy.js";
import { MAX_REPLY_BYTES } from "../parsers/reply-lines.js";
import { type TurnResult, turnResultSchema } from "../result.js";
import { ensureScvDir } from "./agent-home.js";
import { createAtomicSync, writeAtomicSync } from "./atomic.js";
import { FILE_WRITER, type ResultWriter, type SaveOutcome, saveWithReserve } from "./background-result.js";
import { HANDLE_PATTERN } from "./conversations.js";
import { removeEvents } from "./job-events.js";
import { readJsonFile } from "./json-file.js";
import { takeLock } from "./lock.js";
import type { Env } from "./paths.js";
import { removeIfPresent } from "./remove.js";
import { jobFile, jobHandle, turnFile } from "./turn-files.js";
import { worktreeSchema } from "./worktree-record.js";

const identitySchema = lazy(() => z.object({ pid: z.int().check(z.positive()), startTime: z.string() }));

const runningTurnSchema = lazy(() =>
  z.looseObject({
    version: z.literal(1),
    handle: z.string().check(z.regex(HANDLE_PATTERN)),
    /** The turn's job (`<handle>.<8 characters>`), which is SCV_TURN in the agent's environment:
     * no two turns share it. */
    tag: z.string(),
    agent: z.string(),
    /** The account whose home the turn runs in; absent for the default account. */
    account: z.optional(z.string()),
    model: z.optional(z.string()),
    /** A one-line preview of the prompt. */
    prompt: z.string(),
    cwd: z.string(),
    /** How many agent turns are above this one (0: started by a person). */
    depth: z.int().check(z.nonnegative()),
    /** Started with --background: its result is kept until `scv wait` reads it. */
    background: z.boolean(),
    host: z.string(),
    /** The kernel's boot id, where there is one: after a reboot no recorded pid means anything. */
    boot: z.optional(z.string()),
    startedAt: z.string(),
    /** The scv process running the turn. */
    scv: identitySchema(),
    /** The agent's CLI, leader of its process group; absent until it started. */
    agentProcess: z.optional(identitySchema()),
    /** The tool running now, as the parser summarised it (one redacted line). */
    tool: z.optional(z.string()),
    /** Tokens so far, as the CLI last reported them (input, cached, cache writes and output). */
    tokens: z.optional(z.number()),
    /** A permission question of the agent waiting for its answer (one redacted line). */
    asking: z.optional(z.object({ tool: z.string(), summary: z.string() })),
    /** Every account of the turn is rate limited: it waits for this reset (UTC ISO 8601). */
    cooling: z.optional(z.object({ until: z.string(), reason: z.string() })),
    /** The conversation lock the turn holds (a continued conversation's), as the folder it created:
     * the reaper removes that folder once the turn's scv is proven gone. */
    lock: z.optional(z.object({ dev: z.string(), ino: z.string(), born: z.string() })),
    /** The turn's own temporary folder, its agent's TMPDIR (home/turn-temp.ts), removed by the reaper. */
    tmp: z.optional(z.string()),
    /** A first turn's conversation, as its record would begin: the reaper of a turn whose scv died
     * before it wrote one writes it (turn/reap.ts), so the conversation can be continued, and its
     * session's files found by `conversations rm` and gc. */
    starts: z.optional(
      z.looseObject({
        transport: z.enum(["process", "acp"]),
        policy: z.enum(["auto", "default"]),
        effort: z.optional(z.string()),
        /** A session scv chose for the CLI to start under, and the path that exists once it did (the
         * row's `sessionPath`): started, though the stream may not have said so yet. */
        chosen: z.optional(z.object({ id: z.string(), path: z.string() })),
      }),
    ),
    /** The agent's session, as the turn's stream named it (a first turn's, in the shape scv accepts). */
    session: z.optional(z.string()),
    /** The conversation's worktree, where the turn runs: the reaper of a turn whose scv died commits
     * what the agent wrote there on its branch, and records it in the conversation. */
    worktree: z.optional(worktreeSchema()),
  }),
);
export type RunningTurnRecord = z.infer<ReturnType<typeof runningTurnSchema>>;

const finishedTurnSchema = lazy(() =>
  z.looseObject({
    version: z.literal(1),
    handle: z.string(),
    /** The job of the turn that ended; null for a turn that failed before it was registered. */
    tag: z.nullable(z.string()),
    agent: z.string(),
    background: z.boolean(),
    /** Its scv died and a later scv stopped what it left running. */
    reaped: z.boolean(),
    startedAt: z.string(),
    endedAt: z.string(),
    result: turnResultSchema(),
  }),
);
export type FinishedTurnRecord = z.infer<ReturnType<typeof finishedTurnSchema>>;

/** A finished turn's result holds its reply (up to MAX_REPLY_BYTES, escaped as JSON). */
const MAX_RESULT_BYTES = 8 * MAX_REPLY_BYTES;

export function readRunning(handle: string, env: Env): RunningTurnRecord | undefined {
  return readJsonFile(turnFile(handle, "running", env), runningTurnSchema());
}

/** A finished job's result, until it is read. */
export function readFinished(job: string, env: Env): FinishedTurnRecord | undefined {
  return readJsonFile(jobFile(job, "done", env), finishedTurnSchema(), MAX_RESULT_BYTES);
}

/** Atomic and 0600. Results are flushed to disk; a running record describes processes that a power
 * cut ends anyway, so its frequent updates skip the flush. */
export function writeTurnRecord(path: string, value: unknown, fsync: boolean): void {
  writeTurnRecordText(path, `${JSON.stringify(value, null, 2)}\n`, fsync);
}

/** `writeTurnRecord` of a record already serialized. */
export function writeTurnRecordText(path: string, text: string, fsync: boolean): void {
  try {
    writeAtomicSync(path, text, { fsync });
  } catch (error) {
    throw new ScvError("IO", `cannot write turn record ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

export function ensureTurnsDir(env: Env): void {
  ensureScvDir(env, "turns");
}

/** Creates a turn record that must not exist yet; false when it does, or when this file system
 * cannot create it that way (no hard links): the caller then takes the record's lock. */
export function createTurnRecord(path: string, value: unknown): boolean {
  try {
    return createAtomicSync(path, `${JSON.stringify(value, null, 2)}\n`, { fsync: false });
  } catch {
    return false;
  }
}

/** Runs `body` holding the record's lock (`<handle>.json.lock`), which serializes registering a turn
 * with reaping one; undefined when someone else holds it and `waitMs` is 0. */
export async function withRecordLock<T>(
  path: string,
  waitMs: number,
  body: () => Promise<T>,
): Promise<T | undefined> {
  let release: () => Promise<void>;
  try {
    release = await takeLock(path, {
      realpath: false,
      stale: 10_000,
      ...(waitMs === 0
        ? {}
        : { retries: { retries: Math.ceil(waitMs / 25), factor: 1, minTimeout: 25, maxTimeout: 25 } }),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ELOCKED") throw error;
    if (waitMs === 0) return undefined;
    throw new ScvError("CONVERSATION_BUSY", `turn record ${path} stays locked — retry in a few seconds`, {
      cause: error,
    });
  }
  try {
    return await body();
  } finally {
    await release().catch(() => {});
  }
}

/** Saves a background turn's result for `scv wait`, then drops its running record: in that order, so
 * a waiter always finds one of the two. A full disk is met in steps (background-result.ts). */
export function saveBackgroundResult(
  job: string,
  result: TurnResult,
  startedAt: Date,
  env: Env,
  writer: ResultWriter = FILE_WRITER,
): SaveOutcome {
  const handle = jobHandle(job) ?? job;
  ensureTurnsDir(env);
  const running = readRunning(handle, env);
  const mine = running !== undefined && running.tag === job ? running : undefined;
  const finished: FinishedTurnRecord = {
    version: 1,
    handle,
    tag: mine?.tag ?? null,
    agent: result.agent || (mine?.agent ?? ""),
    background: true,
    reaped: false,
    startedAt: mine?.startedAt ?? startedAt.toISOString(),
    endedAt: new Date().toISOString(),
    result,
  };
  const outcome = saveWithReserve(
    jobFile(job, "done", env),
    jobFile(job, "reserve", env),
    finished,
    job,
    writer,
  );
  // Unsaved, the record stays for the reaper, which reports the log's line as the result.
  if (mine !== undefined && outcome.startsWith("saved")) removeIfPresent(turnFile(handle, "running", env));
  return outcome;
}

/** Removes a job's result once read, with its log and events; other jobs' stay. */
export function consumeResult(job: string, env: Env): void {
  removeIfPresent(jobFile(job, "done", env));
  removeIfPresent(jobFile(job, "log", env));
  removeEvents(job, env);
}

/** Marks the running record of `job` (its own scv's, between two attempts of its accounts) as
 * waiting for a rate limit's reset, for `scv ps`; the next attempt's record replaces it. Nothing
 * when the record is not the job's. */
export function markCooling(job: string, cooling: { until: string; reason: string }, env: Env): void {
  const handle = jobHandle(job);
  if (handle === undefined) return;
  const running = readRunning(handle, env);
  if (running?.tag !== job) return;
  writeTurnRecord(turnFile(handle, "running", env), { ...running, cooling }, false);
}

/** Whether the turn of `handle` whose tag was `tag` has ended (its record gone or replaced). */
export function turnEnded(handle: string, tag: string, env: Env): boolean {
  return readRunning(handle, env)?.tag !== tag;
}
