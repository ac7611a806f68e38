// MCP tasks over scv's jobs. A tool that declares task support (tools.ts `taskSupport`) says how its
// call starts durable work — scv jobs, which outlive the server — and how the answer is made once they
// have finished; a call the host asks to run as a task then returns at once, and the task is read from
// its record and its jobs (home/task-records.ts) by whichever `scv mcp` the host asks. The answer is
// the blocking call's own (replies.ts): the same text and structured content, cut into parts the same
// way. This module is the task's life, whatever the protocol version; task-wire.ts gives it its shapes.

import { type CallToolResult, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { type ApprovalAnswer, giveAnswer, type PendingApproval, questionText } from "../home/approvals.js";
import type { Env } from "../home/paths.js";
import { allTasks, readTask, removeTask, type TaskRecord, writeTask } from "../home/task-records.js";
import { consumeResult } from "../home/turn-records.js";
import type { Answer, CallContext } from "./job-tools.js";
import { cancelJob, type JobProgress, type JobState, jobState } from "./jobs.js";
import { progressMessage, toolResult } from "./replies.js";

/** How a task-capable tool runs as a task. */
export interface TaskWork {
  /** Starts the call's durable work: its jobs (the first names the task) and what to make the answer
   * from; or the answer at once, when nothing started. */
  start(
    input: unknown,
    context: CallContext,
  ): Promise<{ readonly jobs: readonly string[]; readonly data: unknown } | { readonly answer: Answer }>;
  /** The call's answer for its jobs now, as the blocking call makes it. */
  answer(data: unknown, states: ReadonlyMap<string, JobState>, env: Env): Answer;
}

/** A finished task's result is kept this long from its creation unless the host asks otherwise. */
export const DEFAULT_TTL_MS = 24 * 60 * 60 * 1000;
/** The longest a host may ask for. */
export const MAX_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** The shortest: a task must outlive a poll or two. */
export const MIN_TTL_MS = 10_000;
/** How often the host is asked to poll. */
export const POLL_INTERVAL_MS = 500;
/** How long a result the host has read is kept, for a host that asks again (a lost answer). */
export const READ_KEPT_MS = 5 * 60 * 1000;

/** A task's state now, whatever the protocol version. */
export type TaskNow =
  | { readonly kind: "working"; readonly message: string }
  | {
      readonly kind: "input_required";
      readonly message: string;
      readonly questions: readonly { readonly job: string; readonly approval: PendingApproval }[];
    }
  /** Every job has finished (or the task was cancelled and they have): the call's result. */
  | {
      readonly kind: "finished";
      readonly cancelled: boolean;
      readonly result: CallToolResult;
      readonly isError: boolean;
      readonly read: readonly string[];
      readonly message: string;
    }
  /** The result can no longer be made (a job's result was read elsewhere): a failure of the task. */
  | { readonly kind: "lost"; readonly message: string };

/** Creates a task for a call: its jobs started, its record written before the host hears of it. */
export async function createTask(
  work: TaskWork,
  tool: string,
  input: unknown,
  context: CallContext,
  options: {
    readonly ttlMs: number | undefined;
    readonly protocol: TaskRecord["protocol"];
    readonly host: TaskRecord["host"];
  },
): Promise<{ readonly task: TaskRecord } | { readonly answer: Answer }> {
  const started = await work.start(input, context);
  if ("answer" in started) return started;
  const [taskId] = started.jobs;
  if (taskId === undefined) throw new Error(`${tool} started no job`);
  const record: TaskRecord = {
    version: 1,
    taskId,
    tool,
    jobs: [...started.jobs],
    data: started.data,
    createdAt: new Date().toISOString(),
    ttlMs: taskTtl(options.ttlMs),
    pollIntervalMs: POLL_INTERVAL_MS,
    protocol: options.protocol,
    host: options.host,
    cwd: context.cwd,
  };
  writeTask(record, context.env);
  return { task: record };
}

/** The time to live a host asked for, within scv's bounds. */
export function taskTtl(asked: number | undefined): number {
  if (asked === undefined || !Number.isFinite(asked)) return DEFAULT_TTL_MS;
  return Math.min(MAX_TTL_MS, Math.max(MIN_TTL_MS, Math.round(asked)));
}

/** The task `taskId`, refused as the protocol says when there is none (or no longer). */
export function knownTask(taskId: string, env: Env): TaskRecord {
  const record = readTask(taskId, env);
  if (record === undefined) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Failed to retrieve task: no task ${taskId} (its result was read and dropped, its time to live passed, or it never was)`,
    );
  }
  return record;
}

/** Where the task stands now: its jobs read (a job whose scv died is reaped on the way). */
export async function taskNow(record: TaskRecord, works: TaskWorks, env: Env): Promise<TaskNow> {
  if (record.delivered !== undefined) {
    return {
      kind: "finished",
      cancelled: record.cancelledAt !== undefined,
      result: record.delivered.result as CallToolResult,
      isError: record.delivered.isError,
      read: [],
      message: "finished; its result was read",
    };
  }
  const work = works.get(record.tool);
  if (work === undefined) return { kind: "lost", message: `this scv has no tool ${record.tool}` };
  const states = new Map<string, JobState>();
  for (const job of record.jobs) states.set(job, await jobState(job, env));
  const gone = record.jobs.find((job) => states.get(job)?.kind === "unknown");
  if (gone !== undefined) {
    return {
      kind: "lost",
      message: `the result of ${gone} was read elsewhere (scv wait, or the wait tool), so this task has none`,
    };
  }
  const running = record.jobs.flatMap((job) => {
    const state = states.get(job);
    return state?.kind === "running" ? [state.progress] : [];
  });
  const questions = running.flatMap((progress) =>
    progress.approval === null ? [] : [{ job: progress.job, approval: progress.approval }],
  );
  if (questions.length > 0) {
    return {
      kind: "input_required",
      message: questions.map(({ job, approval }) => questionWaiting(job, approval)).join("; "),
      questions,
    };
  }
  if (running.length > 0) return { kind: "working", message: workingMessage(running, record) };
  const answer = work.answer(record.data, states, env);
  return {
    kind: "finished",
    cancelled: record.cancelledAt !== undefined,
    result: toolResult(answer.outcome),
    isError: answer.outcome.isError,
    read: answer.read,
    message: record.cancelledAt !== undefined ? "stopped by tasks/cancel" : "finished",
  };
}

/** `<agent> 35s — $ npm test` */
function workingMessage(running: readonly JobProgress[], record: TaskRecord): string {
  const cancelling = record.cancelledAt === undefined ? "" : "stopping: ";
  return `${cancelling}${progressMessage(running)}`;
}

function questionWaiting(job: string, approval: PendingApproval): string {
  return `${questionText(approval)} — waiting for your answer (or approve with job ${job}, approval ${approval.id})`;
}

/** The finished task's result as the host reads it: its jobs' results taken into the record (dropped
 * from `turns/`, as the blocking call drops what it read), kept a while for a host that asks again. */
export function deliver(record: TaskRecord, now: Extract<TaskNow, { kind: "finished" }>, env: Env): void {
  if (record.delivered !== undefined) return;
  writeTask(
    { ...record, delivered: { at: new Date().toISOString(), result: now.result, isError: now.isError } },
    env,
  );
  for (const job of now.read) consumeResult(job, env);
}

/** Stops the task's running jobs as `scv kill` does; the task is cancelled from now on. */
export async function cancelTask(record: TaskRecord, env: Env): Promise<TaskRecord> {
  const cancelled = { ...record, cancelledAt: record.cancelledAt ?? new Date().toISOString() };
  writeTask(cancelled, env);
  for (const job of record.jobs) {
    const state = await jobState(job, env);
    if (state.kind === "running") await cancelJob(job, env).catch(() => {});
  }
  return cancelled;
}

/** Gives the person's answer to the question of the task's job; false when it is no longer asked. */
export function answerQuestion(
  record: TaskRecord,
  job: string,
  approvalId: string,
  answer: ApprovalAnswer,
  env: Env,
): boolean {
  if (!record.jobs.includes(job)) return false;
  return giveAnswer(job, approvalId, answer, env) === "answered";
}

/** Drops the tasks whose time is up: read a while ago, or past their time to live with no job
 * running (a running job keeps its task until it ends). Unread results of an expired task go too. */
export async function sweepTasks(env: Env, now = Date.now()): Promise<void> {
  for (const record of allTasks(env)) {
    if (record.delivered !== undefined) {
      if (now - Date.parse(record.delivered.at) > READ_KEPT_MS) removeTask(record.taskId, env);
      continue;
    }
    if (record.ttlMs === null || now - Date.parse(record.createdAt) <= record.ttlMs) continue;
    const states = await Promise.all(record.jobs.map((job) => jobState(job, env)));
    if (states.some((state) => state.kind === "running")) continue;
    for (const job of record.jobs) consumeResult(job, env);
    removeTask(record.taskId, env);
  }
}

/** The task-capable tools' work, by tool name. */
export type TaskWorks = ReadonlyMap<string, TaskWork>;

/** The tasks a host created from this folder, oldest first. */
export function hostTasks(host: string, cwd: string, env: Env): TaskRecord[] {
  return allTasks(env).filter((record) => record.host.name === host && record.cwd === cwd);
}
