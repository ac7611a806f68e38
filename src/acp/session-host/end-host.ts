// Ending session hosts from outside: `scv kill <handle>` and a turn that finds its conversation's host
// stuck or started another way ask it to end (SIGTERM: it closes its server and removes its files),
// and kill it and its server when it does not; the reaper, which every scv start runs, ends the
// server of a host that died (SIGKILL, the OOM killer) and removes what it left. Nothing here loads
// more than the host's record: the reaper runs on every start.

import { hostname } from "node:os";
import { hostHandles, removeHostFiles } from "../../home/host-files.js";
import { type HostRecord, readHostRecord } from "../../home/host-records.js";
import type { Env } from "../../home/paths.js";
import { isTurnTemp, removeTurnTemp } from "../../home/turn-temp.js";
import { bootId } from "../../os/proc.js";
import { isRunning, type ProcessTable, systemProcessTable } from "../../os/processes.js";
import { killTagged } from "../../os/tagged.js";
import { timing } from "../../timing.js";

/** Whether the host process of `record` runs (on this machine, since its boot). */
export function sessionHostAlive(record: HostRecord, table: ProcessTable = systemProcessTable): boolean {
  const boot = bootId();
  if (record.host !== hostname()) return false;
  if (record.boot !== undefined && boot !== undefined && record.boot !== boot) return false;
  return isRunning(record.scv, table);
}

/** Ends the host and its server: asked first, then killed; `stuck` (it did not answer a turn): killed
 * at once. */
export async function endSessionHost(
  record: HostRecord,
  env: Env,
  table: ProcessTable = systemProcessTable,
  stuck = false,
): Promise<void> {
  if (stuck && sessionHostAlive(record, table)) table.kill(record.scv.pid, "SIGKILL", false);
  else if (sessionHostAlive(record, table)) {
    table.kill(record.scv.pid, "SIGTERM", false);
    const deadline = Date.now() + timing("hostEndLimit");
    while (isRunning(record.scv, table) && Date.now() < deadline) await pause(25);
    if (isRunning(record.scv, table)) table.kill(record.scv.pid, "SIGKILL", false);
  }
  removeLeftovers(record, env, table);
}

/** Ends the server of every host whose scv died, and removes what it left; the handles reaped. */
export function reapSessionHosts(env: Env, table: ProcessTable = systemProcessTable): string[] {
  const reaped: string[] = [];
  for (const handle of hostHandles(env)) {
    const record = readHostRecord(handle, env);
    if (record === undefined || record.host !== hostname() || sessionHostAlive(record, table)) continue;
    try {
      removeLeftovers(record, env, table);
      reaped.push(handle);
    } catch {
      // Tried again by the next scv.
    }
  }
  return reaped;
}

/** The hosts running now, oldest first. */
export function liveSessionHosts(env: Env, table: ProcessTable = systemProcessTable): HostRecord[] {
  return hostHandles(env)
    .map((handle) => readHostRecord(handle, env))
    .filter((record): record is HostRecord => record !== undefined && sessionHostAlive(record, table))
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}

function removeLeftovers(record: HostRecord, env: Env, table: ProcessTable): void {
  const boot = bootId();
  const sameBoot = record.boot === undefined || boot === undefined || record.boot === boot;
  if (sameBoot && record.server !== undefined && isRunning(record.server, table))
    table.kill(record.server.pid, "SIGKILL", true);
  if (sameBoot) killTagged(record.tag, table);
  if (record.tmp !== undefined && isTurnTemp(record.tmp, record.handle)) removeTurnTemp(record.tmp);
  // A new host of the conversation may have its record there already.
  const current = readHostRecord(record.handle, env);
  if (current === undefined || current.scv.pid === record.scv.pid) removeHostFiles(record.handle, env);
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
