// `scv kill <job|handle>`: asks the turn's scv to stop it, and ends what it can itself when that scv
// does not answer.

import { hostname } from "node:os";
import { ScvError } from "../errors.js";
import { writeAtomicSync } from "../home/atomic.js";
import type { Env } from "../home/paths.js";
import { removeIfPresent } from "../home/remove.js";
import { finishedJobs, turnFile } from "../home/turn-files.js";
import { ownerAlive } from "../home/turn-owner.js";
import { readFinished, readRunning, turnEnded } from "../home/turn-records.js";
import { isRunning, type ProcessTable, systemProcessTable } from "../os/processes.js";
import { timing } from "../timing.js";
import { killLeftovers, reapHandle } from "../turn/reap.js";
import { parseTurnRef } from "./handle.js";

export type KillOutcome = "stopped" | "reaped";

/** Stops the running turn `name` names (its job, or its conversation's handle): asks its scv (SIGUSR2 and a cancel file naming the turn's tag),
 * which ends the agent's group as on SIGTERM and records the turn; if the scv does not answer in
 * time, kills the agent directly, and a background turn's scv last. */
export async function killTurn(
  name: string,
  env: Env,
  options: { table?: ProcessTable; graceMs?: number } = {},
): Promise<KillOutcome> {
  const table = options.table ?? systemProcessTable;
  const graceMs = options.graceMs ?? timing("killGrace");
  const ref = parseTurnRef(name);
  const handle = ref.handle;
  const running = readRunning(handle, env);
  const record = ref.kind === "job" && running?.tag !== ref.job ? undefined : running;
  if (record === undefined) {
    const ended =
      ref.kind === "job" ? readFinished(ref.job, env) !== undefined : finishedJobs(handle, env).length > 0;
    throw new ScvError(
      "USAGE",
      ended
        ? `turn ${name} has ended already — read its result: scv wait ${name}`
        : `no running turn ${name} — scv ps lists them`,
    );
  }
  if (record.host !== hostname()) {
    throw new ScvError("USAGE", `turn ${handle} runs on ${record.host} — stop it there`);
  }
  if (!ownerAlive(record, table)) {
    await reapHandle(handle, env, table);
    return "reaped";
  }
  const cancelFile = turnFile(handle, "cancel", env);
  writeAtomicSync(cancelFile, `${record.tag}\n`, { fsync: false });
  try {
    table.kill(record.scv.pid, "SIGUSR2", false);
    const ended = () => turnEnded(handle, record.tag, env);
    if (await until(ended, graceMs + timing("killAnswer"))) return "stopped";
    // The scv did not answer; it sees its agent end when the agent is killed.
    killLeftovers(record, table);
    if (await until(ended, timing("killAnswer"))) return "stopped";
    // A background turn's scv runs nothing else.
    if (record.background && isRunning(record.scv, table)) {
      table.kill(record.scv.pid, "SIGKILL", false);
      await until(() => !isRunning(record.scv, table), timing("killAnswer"));
      await reapHandle(handle, env, table, true);
      return "reaped";
    }
  } finally {
    removeIfPresent(cancelFile);
  }
  throw new ScvError(
    "AGENT_FAILED",
    `could not stop ${handle}: its scv (pid ${record.scv.pid}) does not answer — end it with: kill ${record.scv.pid}`,
  );
}

/** Polls `done` every 50 ms for at most `withinMs`. */
async function until(done: () => boolean, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (done()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
