// Where running turns and background results live, named so that one readdir tells a running turn
// from a finished one. Every scv start looks here (to reap what a killed scv left behind), so this
// file imports nothing heavy; the registry itself is turn-records.ts.
//
// A turn runs under its conversation's handle (one at a time: the conversation's lock), and is one
// job of that conversation: `<handle>.<8 characters>`, its tag (SCV_TURN) too. What a finished turn
// leaves is named by its job, so no turn's result replaces another's.
//
//   $SCV_HOME/turns/<handle>.json        the turn of <handle> running now (its scv, its agent, its job)
//   $SCV_HOME/turns/<handle>.cancel      `scv kill` asking the turn's scv to stop it
//   $SCV_HOME/turns/<job>.done.json      a finished background or reaped turn, until `scv wait` reads it
//   $SCV_HOME/turns/<job>.log            stdout and stderr of a background turn's scv
//   $SCV_HOME/turns/<job>.reserve        space a background turn holds for saving its result
//   $SCV_HOME/turns/<job>.ask.json       a permission request of the job's agent, waiting for its
//                                        caller's answer (scv mcp's approve tool: home/approvals.ts)
//   $SCV_HOME/turns/<job>.answer.json    that answer, until the turn takes it
//   $SCV_HOME/turns/<job>.questions.json the questions the job asked and what became of each
//   $SCV_HOME/turns/<job>.events         the job's events as they happen, for `scv logs` (job-events.ts),
//                                        and <job>.events.1, the part before it once it grew too long
//   $SCV_HOME/turns/<job>.task.json      an MCP task whose first job is <job> (its task id): the
//                                        host that asked, its time to live, its jobs, and once read,
//                                        its result (home/task-records.ts)
//   $SCV_HOME/turns/spare.<pid>.<n>.log  the output of `scv mcp` (pid)'s spare runner, until it takes a job

import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { customAlphabet } from "nanoid/non-secure";
import { type Env, scvHome } from "./paths.js";

export type TurnFileKind = "running" | "cancel";
export type JobFileKind =
  | "done"
  | "log"
  | "reserve"
  | "ask"
  | "answer"
  | "questions"
  | "task"
  | "events"
  | "events-old";

const SUFFIX: Record<TurnFileKind | JobFileKind, string> = {
  running: ".json",
  cancel: ".cancel",
  done: ".done.json",
  log: ".log",
  reserve: ".reserve",
  ask: ".ask.json",
  answer: ".answer.json",
  questions: ".questions.json",
  task: ".task.json",
  events: ".events",
  "events-old": ".events.1",
};

/** A job: its conversation's handle, a dot and 8 characters (`<agent>-k3f9x2.a1b2c3d4`). */
export const JOB_PATTERN = /^([a-z][a-z0-9-]{0,30}-[0-9a-z]{6})\.([0-9a-z]{8})$/;

const JOB_SUFFIX = customAlphabet("0123456789abcdefghijkmnpqrstuvwxyz", 8);

/** A new job of the conversation `handle`; unique enough that no two turns share one (it is also the
 * tag its processes carry). */
export function newJob(handle: string): string {
  return `${handle}.${JOB_SUFFIX()}`;
}

/** The conversation a job belongs to; undefined when `job` is not one. */
export function jobHandle(job: string): string | undefined {
  return JOB_PATTERN.exec(job)?.[1];
}

/** The log of the `n`th spare runner of the `scv mcp` whose pid is `pid` (jobs/spare.ts). */
export function spareLog(pid: number, n: number, env: Env): string {
  return join(turnsDir(env), `spare.${pid}.${n}.log`);
}

const SPARE_LOG = /^spare\.(\d{1,10})\.\d{1,10}\.log$/;

/** The pid of the server whose spare wrote the log `name`; undefined when `name` is not one. */
export function spareLogServer(name: string): number | undefined {
  const pid = SPARE_LOG.exec(name)?.[1];
  return pid === undefined ? undefined : Number(pid);
}

const TASK_NAME = /^([a-z][a-z0-9-]*\.[0-9a-z]{8})\.task\.json$/;

/** The tasks (their ids: each its first job) recorded in the turns folder: one readdir. */
export function taskIds(env: Env): string[] {
  return turnNames(env).flatMap((name) => {
    const id = TASK_NAME.exec(name)?.[1];
    return id === undefined ? [] : [id];
  });
}

/** Handles are `agent-xxxxxx` (no dot), so a running record's name is the only `<no dot>.json`. */
const RUNNING_NAME = /^([a-z][a-z0-9-]*)\.json$/;
const DONE_NAME = /^([a-z][a-z0-9-]*\.[0-9a-z]{8})\.done\.json$/;

export function turnsDir(env: Env): string {
  return join(scvHome(env), "turns");
}

export function turnFile(handle: string, kind: TurnFileKind, env: Env): string {
  return join(turnsDir(env), `${handle}${SUFFIX[kind]}`);
}

export function jobFile(job: string, kind: JobFileKind, env: Env): string {
  return join(turnsDir(env), `${job}${SUFFIX[kind]}`);
}

function turnNames(env: Env): string[] {
  try {
    return readdirSync(turnsDir(env));
  } catch {
    return [];
  }
}

/** The handles with a running-turn record: one readdir, nothing read. */
export function runningHandles(env: Env): string[] {
  return handlesAmong(turnNames(env));
}

function handlesAmong(names: readonly string[]): string[] {
  const handles: string[] = [];
  for (const name of names) {
    const handle = RUNNING_NAME.exec(name)?.[1];
    if (handle !== undefined) handles.push(handle);
  }
  return handles;
}

/** What every scv start looks for, in one readdir: running records (a killed scv's, to reap),
 * temporary files (`.tmp`, a write a killed scv left: home/atomic.ts) and spare runners' logs (of a
 * server that may be gone: jobs/spare.ts), to sweep. */
export function turnLeftovers(env: Env): {
  handles: string[];
  temporaries: string[];
  spareLogs: string[];
} {
  const names = turnNames(env);
  return {
    handles: handlesAmong(names),
    temporaries: names.filter((name) => name.endsWith(".tmp")),
    spareLogs: names.filter((name) => name.startsWith("spare.")),
  };
}

/** The jobs with an unread result, of one conversation or of all. */
export function finishedJobs(handle: string | undefined, env: Env): string[] {
  const jobs: string[] = [];
  for (const name of turnNames(env)) {
    const job = DONE_NAME.exec(name)?.[1];
    if (job === undefined) continue;
    const owner = jobHandle(job);
    if (owner !== undefined && (handle === undefined || owner === handle)) jobs.push(job);
  }
  return jobs;
}

/** Whether a turn of `handle` is running or has an unread result, so a new conversation does not
 * take its handle. */
export function turnExists(handle: string, env: Env): boolean {
  return existsSync(turnFile(handle, "running", env)) || finishedJobs(handle, env).length > 0;
}
