// What "conversation busy" says: which job holds the conversation and what to do, or, when no running
// turn holds its lock (an scv killed between taking the lock and registering its turn), what the lock
// is and when it frees by itself (the stale rule in src/home/lock.ts).

import { formatDuration } from "../duration.js";
import { ScvError } from "../errors.js";
import { LOCK_STALE_MS, lockStaleAt } from "../home/conversations.js";
import type { Env } from "../home/paths.js";
import { ownerAlive } from "../home/turn-owner.js";
import { readRunning } from "../home/turn-records.js";
import { systemProcessTable } from "../os/processes.js";
import { timing } from "../timing.js";

/** Whether `error` is the refusal of a busy conversation. */
export function isBusy(error: unknown): boolean {
  return error instanceof ScvError && error.code === "CONVERSATION_BUSY";
}

/** The refusal of a turn of `handle` while its conversation is taken. */
export function busyError(handle: string, env: Env, now = Date.now()): ScvError {
  const running = readRunning(handle, env);
  if (running !== undefined && ownerAlive(running, systemProcessTable)) {
    const job = running.tag;
    return new ScvError(
      "CONVERSATION_BUSY",
      running.background
        ? `conversation ${handle} is busy with job ${job} — wait for it: scv wait ${job}`
        : `conversation ${handle} is busy with job ${job}, in the foreground of scv pid ${running.scv.pid} — continue it once that ends, or stop it: scv kill ${job}`,
    );
  }
  const staleAt = lockStaleAt(handle, env);
  if (staleAt === undefined)
    return new ScvError("CONVERSATION_BUSY", `conversation ${handle} was busy and is free now — try again`);
  const frees =
    // (The lock's mtime may be set a little ahead: proper-lockfile rounds it up to a second.)
    `it frees by itself in ${formatDuration(Math.min(LOCK_STALE_MS, Math.max(1000, staleAt - now)))}`;
  return new ScvError(
    "CONVERSATION_BUSY",
    `conversation ${handle} is locked, but no running turn holds it (an scv that was killed left it) — ${frees}; continue it then`,
  );
}

/** `busyError`, once a lock no running turn is seen to hold has had the `busySettle` duration to show its turn (or
 * to go): only then is it one that a killed scv left. */
export async function settledBusyError(handle: string, env: Env): Promise<ScvError> {
  const deadline = Date.now() + timing("busySettle");
  for (;;) {
    const running = readRunning(handle, env);
    const shown = running !== undefined && ownerAlive(running, systemProcessTable);
    if (shown || lockStaleAt(handle, env) === undefined || Date.now() >= deadline)
      return busyError(handle, env);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
