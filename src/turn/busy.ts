// What "conversation busy" says: which job holds the conversation and what to do, or, when no running
// turn holds its lock (an scv killed between taking the lock and registering its turn), what the lock
// is and when it frees by itself (the stale rule in src/home/lock.ts).

import { formatDuration } from "../duration.js";
import { ScvError } from "../errors.js";
import { LOCK_STALE_MS, lockStaleAt } from "../home/conversations.js";
import type { Env } from "../home/paths.js";
import { ownerAlive } from "../home/turn-owner.js";
import { type RunningTurnRecord, readRunning } from "../home/turn-records.js";
import { systemProcessTable } from "../os/processes.js";
import { timing } from "../timing.js";

/** Whether `error` is the refusal of a busy conversation. */
export function isBusy(error: unknown): boolean {
  return error instanceof ScvError && error.code === "CONVERSATION_BUSY";
}

/** The refusal of a turn of `handle` while `running`, seen alive, holds its conversation. A caller
 * that has seen the holder says so from what it saw: read again, the holder may have ended meanwhile,
 * and the refusal would then speak of a free or a killed scv's conversation. */
export function busyWithError(handle: string, running: RunningTurnRecord): ScvError {
  const job = running.tag;
  return new ScvError(
    "CONVERSATION_BUSY",
    running.background
      ? `conversation ${handle} is busy with job ${job} — wait for it: scv wait ${job}`
      : `conversation ${handle} is busy with job ${job}, in the foreground of scv pid ${running.scv.pid} — continue it once that ends, or stop it: scv kill ${job}`,
  );
}

/** The refusal of a turn of `handle` while its conversation is taken. */
function busyError(handle: string, env: Env, now = Date.now()): ScvError {
  const running = readRunning(handle, env);
  if (running !== undefined && ownerAlive(running, systemProcessTable)) return busyWithError(handle, running);
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

/** How often a live holder refreshes a conversation's lock: proper-lockfile's `update`, at least 1 s. */
function lockRefreshMs(): number {
  return Math.max(1_000, timing("lockRefresh"));
}

/** `busyError`, once a lock no running turn is seen to hold has shown what holds it. A turn takes its
 * conversation's lock just before it registers and lets it go just after; on a loaded machine either
 * step may take seconds. So a fixed wait cannot tell a turn still starting from a killed scv's lock:
 * the lock's own refreshes can. A live holder refreshes it every `lockRefresh`; a lock left unrefreshed
 * for longer (plus the `busySettle` slack) is a killed scv's. One that keeps being refreshed with no
 * turn shown belongs to a live scv that holds it without a turn (`scv attach`, `conversations rm`,
 * or a turn that has not registered yet): it is in use, not left. */
export async function settledBusyError(handle: string, env: Env): Promise<ScvError> {
  const settle = timing("busySettle");
  const unrefreshedLimit = lockRefreshMs() + settle;
  // A second more for a lock's mtime, which proper-lockfile may set up to a second ahead.
  const deadline = Date.now() + unrefreshedLimit + 1_000;
  for (;;) {
    const running = readRunning(handle, env);
    if (running !== undefined && ownerAlive(running, systemProcessTable)) return busyError(handle, env);
    const staleAt = lockStaleAt(handle, env);
    if (staleAt === undefined) return busyError(handle, env);
    const refreshedAgo = Date.now() - (staleAt - LOCK_STALE_MS);
    if (refreshedAgo > unrefreshedLimit) return busyError(handle, env);
    if (Date.now() >= deadline)
      // A live holder has refreshed it within the last refresh (give or take a late timer) by now; a
      // killed scv's just-taken lock has not been touched since before this wait began.
      return refreshedAgo > lockRefreshMs() + settle / 2
        ? busyError(handle, env)
        : new ScvError(
            "CONVERSATION_BUSY",
            `conversation ${handle} is in use by another scv that holds its lock (scv attach, conversations rm, or a turn starting or ending) — try again once it is done`,
          );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
