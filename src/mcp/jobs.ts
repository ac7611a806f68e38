// The MCP server's jobs are scv's background turns, so `scv ps`, `scv wait` and `scv kill` see them,
// the reaper covers them, and they outlive the server and its host. This module is the server's one
// view of them, over src/jobs/ (what the command line's --background, wait, ps and kill use too): a
// job is one turn (`<handle>.<8 characters>`), and its result lives in $SCV_HOME/turns/<job>.done.json
// until read, whatever other turns of its conversation do.

import { watch } from "node:fs";
import { ScvError } from "../errors.js";
import type { PendingApproval } from "../home/approvals.js";
import type { Config } from "../home/config.js";
import { turnsDir } from "../home/turn-files.js";
import { consumeResult } from "../home/turn-records.js";
import type { Job } from "../jobs/job.js";
import { killTurn } from "../jobs/kill-job.js";
import { launchTurns } from "../jobs/launch.js";
import { type RunningTurn, runningTurn, runningTurns } from "../jobs/list.js";
import type { SpareRunner } from "../jobs/spare.js";
import { turnState } from "../jobs/wait-for-jobs.js";
import type { TurnResult } from "../result.js";
import { failedResult } from "../turn/outcome.js";
import type { TurnRequest } from "../turn/turn-types.js";
import type { WorktreeChoice } from "../turn/worktree-choice.js";

export interface JobContext {
  readonly env: NodeJS.ProcessEnv;
  /** Where relative folders of a request are resolved (the server's own working directory). */
  readonly cwd: string;
  readonly config: Config;
  /** The server's spare runner, which takes a job faster than a detached scv started for it. */
  readonly spare?: SpareRunner;
  /** Each job is a review, or a reviewed delegation (jobs/review-job.ts runs it). */
  readonly review?: Job["review"];
  /** What the call asked of worktrees (the delegate tool's `worktree`, `check`). */
  readonly worktrees?: WorktreeChoice;
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
  /** The agent's permission question, waiting for the caller's answer (the approve tool). */
  readonly approval: PendingApproval | null;
}

export type JobState =
  | { readonly kind: "running"; readonly progress: JobProgress }
  | { readonly kind: "finished"; readonly result: TurnResult }
  | { readonly kind: "unknown" };

/** Starts each request as a background turn, as `scv delegate --background --json` does, and returns
 * once every agent runs (or failed to start). A usage error (unknown agent, delegation too deep) is
 * thrown for all of them, as the command line refuses the whole line. */
export async function startJobs(requests: readonly TurnRequest[], context: JobContext): Promise<JobStart[]> {
  const { env, cwd, config, spare, review, worktrees } = context;
  // The server's caller answers the agents' permission questions (the approve tool).
  const launches = await launchTurns(requests, {
    env,
    cwd,
    config,
    spare,
    callerApproves: true,
    ...(review === undefined ? {} : { review }),
    ...(worktrees === undefined ? {} : { worktrees }),
  });
  return launches.map((launch): JobStart => {
    if (launch.started && launch.handle !== undefined && launch.job !== undefined) {
      return { kind: "started", job: launch.job, conversation: launch.handle, agent: launch.agent };
    }
    const result =
      launch.result ??
      failedResult(
        new ScvError("AGENT_FAILED", `${launch.agent} did not start — see the turn logs in ${turnsDir(env)}`),
        launch.agent,
      );
    return { kind: "failed", agent: launch.agent, result };
  });
}

/** A job's state now; a job whose scv died is reaped first (and so has a result). */
export async function jobState(job: string, env: NodeJS.ProcessEnv): Promise<JobState> {
  const state = await turnState(job, env);
  return state.kind === "running"
    ? { kind: "running", progress: jobProgress(runningTurn(state.record, env)) }
    : state;
}

/** A running turn as a job's progress. */
function jobProgress(turn: RunningTurn): JobProgress {
  return {
    job: turn.job,
    conversation: turn.handle,
    agent: turn.agent,
    model: turn.model,
    startedAt: turn.startedAt,
    elapsedMs: turn.elapsedMs,
    tool: turn.tool,
    background: turn.background,
    scvPid: turn.scvPid,
    cwd: turn.cwd,
    prompt: turn.prompt,
    approval: turn.approval,
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

/** Waits until every job has finished or one waits for an approval, the deadline passes or `signal`
 * aborts; returns each job's state then. Wakes on any change in the turns folder, and looks again at least every 250 ms. */
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
      // A question is answered sooner when the caller hears of it at once.
      const asking = running.some((progress) => progress.approval !== null);
      if (running.length === 0 || asking || now >= options.deadline || options.signal?.aborted) return states;
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
  return runningTurns(env).map(jobProgress);
}
