// Waiting for background turns: each job's result once it has one, a job whose scv died reaped on the
// way (so it has one too). Results stay until the caller has delivered them (`consumeResult`), and
// reading one job's never touches another's.

import { lstatSync } from "node:fs";
import { formatDuration } from "../duration.js";
import { ScvError } from "../errors.js";
import { type PendingApproval, pendingApproval } from "../home/approvals.js";
import { unsavedLine } from "../home/background-result.js";
import type { Env } from "../home/paths.js";
import { finishedJobs, jobFile, jobHandle } from "../home/turn-files.js";
import { turnOwnerAlive } from "../home/turn-owner.js";
import { type RunningTurnRecord, readFinished, readRunning } from "../home/turn-records.js";
import type { TurnResult } from "../result.js";
import { reapHandle } from "../turn/reap.js";
import { parseTurnRef } from "./handle.js";

/** How often a waiter looks. */
const POLL_MS = 100;

/** The jobs `refs` name, each once, in order: a job itself; a conversation's handle, its jobs (unread
 * results, oldest first, then the one running). Refuses at once a name with no job, and a turn
 * running in another scv's foreground, which prints its own result. */
export function jobsToWaitFor(refs: readonly string[], env: Env): string[] {
  const jobs: string[] = [];
  const add = (job: string) => {
    if (!jobs.includes(job)) jobs.push(job);
  };
  for (const text of refs) {
    const ref = parseTurnRef(text);
    const running = readRunning(ref.handle, env);
    const foreground = running !== undefined && !running.background && turnOwnerAlive(running);
    if (ref.kind === "job") {
      if (running?.tag === ref.job && foreground) throw foregroundTurn(ref.job, running);
      if (running?.tag !== ref.job && readFinished(ref.job, env) === undefined) {
        throw new ScvError(
          "USAGE",
          `no job ${ref.job} — its result was read already, or it never ran (scv ps lists running turns)`,
        );
      }
      add(ref.job);
      continue;
    }
    const finished = finishedJobs(ref.handle, env)
      .map((job) => ({ job, endedAt: readFinished(job, env)?.endedAt ?? "" }))
      .sort((a, b) => a.endedAt.localeCompare(b.endedAt))
      .map((each) => each.job);
    if (running !== undefined && !foreground && !finished.includes(running.tag)) finished.push(running.tag);
    if (finished.length === 0) {
      if (running !== undefined && foreground) throw foregroundTurn(ref.handle, running);
      throw new ScvError("USAGE", `no turn ${ref.handle} — scv ps lists running turns`);
    }
    for (const job of finished) add(job);
  }
  return jobs;
}

function foregroundTurn(name: string, running: RunningTurnRecord): ScvError {
  return new ScvError(
    "USAGE",
    `${name} runs in the foreground of scv pid ${running.scv.pid}, which prints its result — only --background turns can be waited for`,
  );
}

/** The results of `jobs` (distinct), in that order, once all have one; after `timeoutMs`, refuses
 * with the jobs still running. `onQuestion` hears of each permission question a job waits on (an
 * `scv mcp` job's), once. */
export async function waitForResults(
  jobs: readonly string[],
  env: Env,
  timeoutMs?: number,
  onQuestion?: (job: string, approval: PendingApproval) => void,
): Promise<TurnResult[]> {
  const results = new Map<string, TurnResult>();
  const told = new Set<string>();
  const deadline = timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
  for (;;) {
    for (const job of jobs) {
      if (results.has(job)) continue;
      const result = await settled(job, env);
      if (result !== undefined) {
        results.set(job, result);
        continue;
      }
      const approval = onQuestion === undefined ? undefined : pendingApproval(job, env);
      if (approval !== undefined && !told.has(approval.id)) {
        told.add(approval.id);
        onQuestion?.(job, approval);
      }
    }
    if (results.size === jobs.length) break;
    if (Date.now() >= deadline) {
      const still = jobs.filter((job) => !results.has(job));
      throw new ScvError(
        "TURN_TIMEOUT",
        `still running after ${formatDuration(timeoutMs ?? 0)}: ${still.join(", ")} — wait again later, or stop one: scv kill <job>`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return jobs.map((job) => results.get(job) as TurnResult);
}

/** Where a job stands now: finished with its result (a job whose scv died is reaped first, and so
 * has one), running under a live scv, or unknown (no such job, or its result was read). */
export type TurnState =
  | { readonly kind: "finished"; readonly result: TurnResult }
  | { readonly kind: "running"; readonly record: RunningTurnRecord }
  | { readonly kind: "unknown" };

export async function turnState(job: string, env: Env): Promise<TurnState> {
  const handle = jobHandle(job);
  if (handle === undefined) return { kind: "unknown" };
  // The running record first: a runner saves the result before it drops the record, so a record
  // gone by now means the result is there.
  const running = readRunning(handle, env);
  const finished = readFinished(job, env);
  if (finished !== undefined) return { kind: "finished", result: finished.result };
  if (running === undefined || running.tag !== job) return { kind: "unknown" };
  if (!turnOwnerAlive(running)) {
    try {
      await reapHandle(handle, env);
    } catch (error) {
      // The disk that took the job's result still takes nothing: what its scv logged says why.
      const unsaved = running.background ? unsavedLine(jobFile(job, "log", env)) : undefined;
      if (unsaved !== undefined) throw new ScvError("IO", unsaved, { cause: error });
      throw error;
    }
    const reaped = readFinished(job, env);
    return reaped === undefined ? { kind: "unknown" } : { kind: "finished", result: reaped.result };
  }
  return { kind: "running", record: running };
}

/** The job's result once it has one. */
async function settled(job: string, env: Env): Promise<TurnResult | undefined> {
  const state = await turnState(job, env);
  if (state.kind === "unknown") {
    // Something is there that is not a result scv wrote (a FIFO, a link, damaged bytes).
    const path = jobFile(job, "done", env);
    if (lstatSync(path, { throwIfNoEntry: false }) !== undefined) {
      throw new ScvError("AGENT_FAILED", `the result of ${job} in ${path} cannot be read — remove it`);
    }
    throw new ScvError("USAGE", `the result of ${job} was read meanwhile (by another scv wait)`);
  }
  return state.kind === "finished" ? state.result : undefined;
}
