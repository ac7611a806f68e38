// Narrowing a search of /proc to the processes created since a moment: where the kernel's pid
// allocation stood then, and the pids it can have handed out since.

import { readlinkSync } from "node:fs";
import { procPids, readProcFile, readProcNumber } from "./proc.js";

/** Where the kernel's pid allocation stood at a moment: the last pid it handed out in this pid
 * namespace, and how many processes and threads were forked since boot (all namespaces). */
export interface PidMark {
  readonly lastPid: number;
  readonly forks: number;
}

/** Linux hands out pids cyclically from `lastPid` upward, wrapping to 300 (RESERVED_PIDS) after
 * `pid_max`. */
const FIRST_PID_AFTER_WRAP = 300;

/**
 * The pids handed out between two marks, as the range `[from, to]`; undefined when the allocator may
 * have wrapped around in between (then any pid may be new). Every process created after `before` has
 * a pid in the range: the allocator moved up from `before.lastPid` to `after.lastPid` and, to wrap
 * and still end at or above where it started, it would have had to pass over `pidMax - 300` pids —
 * while fewer than half that many forks happened (a fork that fails after taking its pid moves the
 * allocator without counting: the margin covers that many failures).
 */
export function pidsBetween(
  before: PidMark,
  after: PidMark,
  pidMax: number,
): { from: number; to: number } | undefined {
  if (after.lastPid < before.lastPid || after.forks < before.forks) return undefined;
  if (after.forks - before.forks >= (pidMax - FIRST_PID_AFTER_WRAP) / 2) return undefined;
  return { from: before.lastPid + 1, to: after.lastPid };
}

/** The `processes` line of /proc/stat: forks since boot. */
export function forksSinceBoot(stat: string): number | undefined {
  const match = /^processes (\d+)$/m.exec(stat);
  return match === null ? undefined : Number(match[1]);
}

/** Whether /proc shows this process's own pid namespace (a /proc mounted from another one would
 * name other processes than the pids ns_last_pid speaks of). */
let procIsOurs: boolean | undefined;

function procShowsOurNamespace(): boolean {
  if (procIsOurs === undefined) {
    try {
      procIsOurs = readlinkSync("/proc/self") === String(process.pid);
    } catch {
      procIsOurs = false;
    }
  }
  return procIsOurs;
}

/** Where the pid allocation stands now; undefined where /proc cannot tell. */
export function takePidMark(): PidMark | undefined {
  if (!procShowsOurNamespace()) return undefined;
  const lastPid = readProcNumber("/proc/sys/kernel/ns_last_pid");
  let forks: number | undefined;
  try {
    forks = forksSinceBoot(readProcFile("/proc/stat").toString("latin1"));
  } catch {
    forks = undefined;
  }
  return lastPid === undefined || forks === undefined ? undefined : { lastPid, forks };
}

/** The pids in /proc worth reading for processes created after `since`: all of them when that
 * cannot be narrowed. */
export function candidatePids(since: PidMark | undefined): number[] {
  const range = since === undefined ? undefined : rangeSince(since);
  const pids = procPids();
  return range === undefined ? pids : pids.filter((pid) => pid >= range.from && pid <= range.to);
}

function rangeSince(since: PidMark): { from: number; to: number } | undefined {
  const now = takePidMark();
  const pidMax = readProcNumber("/proc/sys/kernel/pid_max");
  return now === undefined || pidMax === undefined ? undefined : pidsBetween(since, now, pidMax);
}
