// How many session hosts may run at once (`max_warm_hosts`): each holds its ACP server's memory
// (a few hundred MB: docs/transports.md, "What a warm host costs"). A turn about to start a host
// first asks the least recently used idle ones to end until there is room; a host whose turn left
// ends the least recently used idle ones (itself among them) while there are more than the budget.
// A host in use is never ended for room: an idle one is asked (SIGUSR2), and one that a turn reached
// meanwhile stays.

import type { HostRecord } from "../../home/host-records.js";
import type { Env } from "../../home/paths.js";
import { type ProcessTable, systemProcessTable } from "../../os/processes.js";
import { liveSessionHosts } from "./end-host.js";

/** The default budget: four idle servers of the largest CLI hold about 2.5 GB. */
export const DEFAULT_MAX_WARM_HOSTS = 4;

/** The signal asking a host to end if no turn is connected to it. */
export const EVICT_SIGNAL = "SIGUSR2";

/** The idle hosts to end so that at most `keep` are left, least recently used first; `except` (a
 * conversation's handle) is not counted. */
export function hostsToEvict(hosts: readonly HostRecord[], keep: number, except?: string): HostRecord[] {
  const counted = hosts.filter((host) => host.handle !== except);
  const excess = counted.length - Math.max(0, keep);
  if (excess <= 0) return [];
  return counted
    .filter((host) => !host.inUse)
    .sort((a, b) => a.usedAt.localeCompare(b.usedAt))
    .slice(0, excess);
}

/** Asks the least recently used idle hosts to end until at most `keep` others than `except` run;
 * the handles asked. */
export function makeRoom(
  keep: number,
  env: Env,
  except?: string,
  table: ProcessTable = systemProcessTable,
): string[] {
  const evicted = hostsToEvict(liveSessionHosts(env, table), keep, except);
  for (const host of evicted) table.kill(host.scv.pid, EVICT_SIGNAL, false);
  return evicted.map((host) => host.handle);
}
