// Signalling a process group scv started: each agent and helper runs detached, in a group of its
// own, so that ending the group ends all it started. Which groups are still alive at scv's exit, and
// what then happens to them, is lifecycle.ts's.

import { procGroupHasLiving } from "../os/proc.js";

/** Sends `signal` to the group led by `pid`; false when there is no such group any more. */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  // kill(-0) would signal scv's own group.
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Whether any process of the group led by `pid` is still alive. A zombie does not count: under
 * an init that reaps late (or never, as in a container without one) it would hold every turn for
 * the whole grace period. */
export function groupAlive(pid: number): boolean {
  if (!signalGroup(pid, 0)) return false;
  return process.platform !== "linux" || (procGroupHasLiving(pid) ?? true);
}
