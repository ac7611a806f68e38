// The MCP server's jobs are scv's background turns, so `scv ps`, `scv wait` and `scv kill` see them,
// the reaper covers them, and they outlive the server and its host. This module is the server's one
// dependency on how background turns are started, kept, read and stopped: today a job is named by
// its conversation's handle and its result lives in $SCV_HOME/turns/<handle>.done.json.

import { watch } from "node:fs";
import { PassThrough, Readable } from "node:stream";
import * as z from "zod/mini";
import type { CliIo } from "../cli/io.js";
import { startBackgroundTurns } from "../commands/background.js";
import type { Config } from "../config.js";
import { ScvError } from "../errors.js";
import {
  consumeResult,
  killTurn,
  listRunning,
  readFinished,
  readRunning,
  reapHandle,
  turnOwnerAlive,
} from "../home/running.js";
import { turnsDir } from "../home/turn-files.js";
import { lazy } from "../lazy.js";
import { type TurnResult, turnResultSchema } from "../result.js";
import { failedResult, type TurnRequest } from "../transport/turn.js";

export interface JobContext {
  readonly env: NodeJS.ProcessEnv;
  /** Where relative folders of a request are resolved (the server's own working directory). */
  readonly cwd: string;
  readonly config: Config;
}

/** A turn as started: running under its job, or failed before its agent ran. */
export type JobStart =
  | { readonly kind: "started"; readonly job: string; readonly conversation: string; readonly agent: string }
  | { readonly kind: "failed"; readonly agent: string; readonly result: TurnResult };

/** What a running job is doing, for progress. */
export interface JobProgress {
  readonly job: string;
  readonly conversation: string;
  readonly agent: string;
  readonly model: string | null;
  readonly startedAt: string;
  readonly elapsedMs: number;
  /** The tool the agent runs now (one redacted line), if any. */
  readonly tool: string | null;
  /** Started with --background (or by this server), so its result is kept for whoever waits. */
  readonly background: boolean;
  readonly scvPid: number;
  readonly cwd: string;
  readonly prompt: string;
}

export type JobState =
  | { readonly kind: "running"; readonly progress: JobProgress }
  | { readonly kind: "finished"; readonly result: TurnResult }
  | { readonly kind: "unknown" };

const launchRowSchema = lazy(() =>
  z.object({
    handle: z.nullable(z.string()),
    agent: z.string(),
    started: z.boolean(),
    result: z.optional(turnResultSchema()),
  }),
);

/** Starts each request as a background turn, as `scv delegate --background --json` does, and returns
 * once every agent runs (or failed to start). A usage error (unknown agent, delegation too deep) is
 * thrown for all of them, as the command line refuses the whole line. */
export async function startJobs(requests: readonly TurnRequest[], context: JobContext): Promise<JobStart[]> {
  const stdout = new PassThrough();
  const chunks: Buffer[] = [];
  stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
  const io: CliIo = {
    stdout,
    stderr: new PassThrough().resume(),
    stdin: Readable.from([]),
    env: context.env,
    cwd: context.cwd,
    exitCode: 0,
  };
  await startBackgroundTurns(io, requests, context.config, { json: true, quiet: true });
  stdout.end();
  const printed: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const rows = z.array(launchRowSchema()).parse(Array.isArray(printed) ? printed : [printed]);
  return rows.map((row): JobStart => {
    if (row.started && row.handle !== null) {
      return { kind: "started", job: row.handle, conversation: row.handle, agent: row.agent };
    }
    const result =
      row.result ??
      failedResult(
        new ScvError(
          "AGENT_FAILED",
          `${row.agent} did not start — see the turn logs in ${turnsDir(context.env)}`,
        ),
        row.agent,
      );
    return { kind: "failed", agent: row.agent, result };
  });
}

/** A job's state now; a job whose scv died is reaped first (and so has a result). */
export async function jobState(job: string, env: NodeJS.ProcessEnv): Promise<JobState> {
  const running = readRunning(job, env);
  const finished = readFinished(job, env);
  if (finished !== undefined && (running === undefined || running.tag === finished.tag)) {
    return { kind: "finished", result: finished.result };
  }
  if (running === undefined) return { kind: "unknown" };
  if (!turnOwnerAlive(running)) {
    await reapHandle(job, env);
    const reaped = readFinished(job, env);
    return reaped === undefined ? { kind: "unknown" } : { kind: "finished", result: reaped.result };
  }
  return {
    kind: "running",
    progress: {
      job,
      conversation: running.handle,
      agent: running.agent,
      model: running.model ?? null,
      startedAt: running.startedAt,
      elapsedMs: Math.max(0, Date.now() - Date.parse(running.startedAt)),
      tool: running.tool ?? null,
      background: running.background,
      scvPid: running.scv.pid,
      cwd: running.cwd,
      prompt: running.prompt,
    },
  };
}

/** Refuses a job nobody can wait for: unknown, or a foreground turn whose own scv prints its result. */
export async function waitableJob(job: string, env: NodeJS.ProcessEnv): Promise<JobState> {
  const state = await jobState(job, env);
  if (state.kind === "unknown") {
    throw new ScvError(
      "USAGE",
      `no job ${job} — its result was read already, or it never ran (status lists jobs)`,
    );
  }
  if (state.kind === "running" && !state.progress.background) {
    throw new ScvError(
      "USAGE",
      `${job} runs in the foreground of scv pid ${state.progress.scvPid}, which prints its result — only background turns can be waited for`,
    );
  }
  return state;
}

export interface WaitOptions {
  readonly env: NodeJS.ProcessEnv;
  /** When to give up (Date.now() milliseconds). */
  readonly deadline: number;
  readonly signal?: AbortSignal;
  /** How often `onProgress` is called while jobs run. */
  readonly progressMs: number;
  readonly onProgress?: (running: readonly JobProgress[]) => void;
}

/** Waits until every job has finished, the deadline passes or `signal` aborts; returns each job's
 * state then. Wakes on any change in the turns folder, and looks again at least every 250 ms. */
export async function waitForJobs(
  jobs: readonly string[],
  options: WaitOptions,
): Promise<Map<string, JobState>> {
  const states = new Map<string, JobState>();
  let wake: (() => void) | undefined;
  let watcher: ReturnType<typeof watch> | undefined;
  try {
    watcher = watch(turnsDir(options.env), () => wake?.());
    watcher.on("error", () => {});
  } catch {
    // No folder to watch: the polling below still sees every change.
  }
  const onAbort = () => wake?.();
  options.signal?.addEventListener("abort", onAbort);
  let lastProgress = Date.now();
  try {
    for (;;) {
      for (const job of jobs) {
        if (states.get(job)?.kind !== "finished") states.set(job, await jobState(job, options.env));
      }
      const running = jobs.flatMap((job) => {
        const state = states.get(job);
        return state?.kind === "running" ? [state.progress] : [];
      });
      const now = Date.now();
      if (running.length === 0 || now >= options.deadline || options.signal?.aborted) return states;
      if (now - lastProgress >= options.progressMs) {
        lastProgress = now;
        options.onProgress?.(running);
      }
      const nap = Math.min(250, options.deadline - now, options.progressMs - (now - lastProgress));
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, nap));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  } finally {
    watcher?.close();
    options.signal?.removeEventListener("abort", onAbort);
  }
}

/** Drops a finished job's result once it has been read whole. */
export function consumeJob(job: string, env: NodeJS.ProcessEnv): void {
  consumeResult(job, env);
}

/** Stops a running job and its agent's whole process group; its result (cancelled, with what the
 * agent had said) is kept like any other. */
export async function cancelJob(job: string, env: NodeJS.ProcessEnv): Promise<void> {
  await killTurn(job, env);
}

/** Every turn running now, oldest first: background jobs and foreground turns alike. */
export function runningJobs(env: NodeJS.ProcessEnv): JobProgress[] {
  const now = Date.now();
  return listRunning(env).map((record) => ({
    job: record.handle,
    conversation: record.handle,
    agent: record.agent,
    model: record.model ?? null,
    startedAt: record.startedAt,
    elapsedMs: Math.max(0, now - Date.parse(record.startedAt)),
    tool: record.tool ?? null,
    background: record.background,
    scvPid: record.scv.pid,
    cwd: record.cwd,
    prompt: record.prompt,
  }));
}
