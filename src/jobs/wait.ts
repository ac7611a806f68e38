// Waiting for background turns: each turn's result once it has one, a turn whose scv died reaped on
// the way (so it has one too). Results stay until the caller has delivered them (`consumeResult`).

import { formatDuration } from "../duration.js";
import { ScvError } from "../errors.js";
import type { Env } from "../home/paths.js";
import { type RunningTurnRecord, readFinished, readRunning } from "../home/turn-records.js";
import type { TurnResult } from "../result.js";
import { reapHandle, turnOwnerAlive } from "../turn/reap.js";
import { checkHandle } from "./handle.js";

/** How often a waiter looks. */
const POLL_MS = 100;

/** The results of the turns `handles` names (distinct), in that order, once all have one; refuses
 * at once a handle with no turn or a foreground turn's, and after `timeoutMs` one still running. */
export async function waitForResults(
  handles: readonly string[],
  env: Env,
  timeoutMs?: number,
): Promise<TurnResult[]> {
  for (const handle of handles) {
    checkHandle(handle);
    const running = readRunning(handle, env);
    if (running === undefined && readFinished(handle, env) === undefined) {
      throw new ScvError("USAGE", `no turn ${handle} — scv ps lists running turns`);
    }
    if (running !== undefined && !running.background && turnOwnerAlive(running)) {
      throw new ScvError(
        "USAGE",
        `${handle} runs in the foreground of scv pid ${running.scv.pid}, which prints its result — only --background turns can be waited for`,
      );
    }
  }

  const results = new Map<string, TurnResult>();
  const deadline = timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
  for (;;) {
    for (const handle of handles) {
      if (results.has(handle)) continue;
      const result = await settled(handle, env);
      if (result !== undefined) results.set(handle, result);
    }
    if (results.size === handles.length) break;
    if (Date.now() >= deadline) {
      const still = handles.filter((handle) => !results.has(handle));
      throw new ScvError(
        "TURN_TIMEOUT",
        `still running after ${formatDuration(timeoutMs ?? 0)}: ${still.join(", ")} — wait again later, or stop one: scv kill <handle>`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return handles.map((handle) => results.get(handle) as TurnResult);
}

/** Where a turn stands now: finished with its result (a turn whose scv died is reaped first, and so
 * has one), running under a live scv, or unknown (no such turn, or its result was read). */
export type TurnState =
  | { readonly kind: "finished"; readonly result: TurnResult }
  | { readonly kind: "running"; readonly record: RunningTurnRecord }
  | { readonly kind: "unknown" };

export async function turnState(handle: string, env: Env): Promise<TurnState> {
  const running = readRunning(handle, env);
  const finished = readFinished(handle, env);
  if (finished !== undefined && (running === undefined || running.tag === finished.tag))
    return { kind: "finished", result: finished.result };
  if (running === undefined) return { kind: "unknown" };
  if (!turnOwnerAlive(running)) {
    await reapHandle(handle, env);
    const reaped = readFinished(handle, env);
    return reaped === undefined ? { kind: "unknown" } : { kind: "finished", result: reaped.result };
  }
  return { kind: "running", record: running };
}

/** The turn's result once it has one. */
async function settled(handle: string, env: Env): Promise<TurnResult | undefined> {
  const state = await turnState(handle, env);
  if (state.kind === "unknown") {
    throw new ScvError("USAGE", `the result of ${handle} was read meanwhile (by another scv wait)`);
  }
  return state.kind === "finished" ? state.result : undefined;
}
