// Whether a running turn's scv is alive: read by the turn (a busy conversation, the reaper), by jobs
// (wait, kill, follow) and by a session host (whether its turn is still there), so it sits below
// them all, beside the records it reads.

import { hostname } from "node:os";
import { bootId } from "../os/proc.js";
import { isRunning, type ProcessTable, systemProcessTable } from "../os/processes.js";
import type { RunningTurnRecord } from "./turn-records.js";

/** Whether the scv running `record` is alive; a record from before a reboot has no live process. */
export function ownerAlive(record: RunningTurnRecord, table: ProcessTable): boolean {
  const boot = bootId();
  if (record.boot !== undefined && boot !== undefined && record.boot !== boot) return false;
  return isRunning(record.scv, table);
}

/** Whether a running record's scv is alive; a record from another host is taken as alive. */
export function turnOwnerAlive(record: RunningTurnRecord, table = systemProcessTable): boolean {
  return record.host !== hostname() || ownerAlive(record, table);
}
