// Processes that escaped a turn's process group (setsid, a daemonizing tool) still carry its tag in
// their environment: at the end of a turn they are found by it and ended, and the reaper ends what
// a dead scv's turn left the same way.

import type { PidMark } from "./pid-marks.js";
import { identify, isRunning, type ProcessIdentity, type ProcessTable } from "./processes.js";

/** The variable naming a turn in its agent's environment (and its tools'). */
export const TAG_VARIABLE = "SCV_TURN";

/** Ends what still carries the turn's tag after its agent's group went: SIGTERM, then SIGKILL after
 * `graceMs`. Usually nothing is found. */
export async function sweep(
  tag: string,
  table: ProcessTable,
  graceMs: number,
  since: PidMark | undefined,
): Promise<void> {
  const tagged = await taggedSoon(tag, table, since);
  if (tagged.length === 0) return;
  for (const found of tagged) table.kill(found.pid, "SIGTERM", true);
  const deadline = Date.now() + graceMs;
  while (tagged.some((p) => isRunning(p, table)) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  for (const found of tagged) if (isRunning(found, table)) table.kill(found.pid, "SIGKILL", true);
}

/** Sweeps of turns that end together (a fan-out) share one pass over the process table, which
 * reads the environment of every process created since the earliest of their agents started (of
 * every process, when that cannot be told): each waits for the next pass that starts after it
 * asked, and which therefore sees whatever its agent left behind. */
interface SweepPass {
  readonly tags: Set<string>;
  /** The earliest mark of the pass's turns; undefined once one of them has none. */
  since: PidMark | undefined;
  readonly found: Promise<Map<string, number[]>>;
}
const sweepPasses = new Map<ProcessTable, SweepPass>();

function taggedSoon(
  tag: string,
  table: ProcessTable,
  since: PidMark | undefined,
): Promise<ProcessIdentity[]> {
  let pass = sweepPasses.get(table);
  if (pass === undefined) {
    const tags = new Set<string>();
    let resolveFound: (found: Map<string, number[]>) => void = () => {};
    const found = new Promise<Map<string, number[]>>((resolve) => {
      resolveFound = resolve;
    });
    const created: SweepPass = { tags, since, found };
    setImmediate(() => {
      sweepPasses.delete(table);
      resolveFound(
        table.pidsByEnv?.(TAG_VARIABLE, tags, created.since) ??
          new Map([...tags].map((each) => [each, table.pidsWithEnv(TAG_VARIABLE, each)])),
      );
    });
    pass = created;
    sweepPasses.set(table, pass);
  } else if (pass.since !== undefined && (since === undefined || since.forks < pass.since.forks)) {
    pass.since = since;
  }
  pass.tags.add(tag);
  return pass.found.then((found) => identities(found.get(tag) ?? [], table));
}

/** SIGKILLs every process carrying `tag` (never this one), a few rounds, in case one forks
 * meanwhile; returns those it killed. */
export function killTagged(tag: string, table: ProcessTable): ProcessIdentity[] {
  const victims: ProcessIdentity[] = [];
  for (let round = 0; round < 5; round += 1) {
    const tagged = taggedProcesses(tag, table).filter((found) => !table.zombie(found.pid));
    if (tagged.length === 0) break;
    for (const found of tagged) {
      victims.push(found);
      table.kill(found.pid, "SIGKILL", true);
    }
  }
  return victims;
}

/** Live processes carrying `tag`, never this one (an scv started by a reaped agent carries its tag). */
function taggedProcesses(tag: string, table: ProcessTable): ProcessIdentity[] {
  return identities(table.pidsWithEnv(TAG_VARIABLE, tag), table);
}

function identities(pids: readonly number[], table: ProcessTable): ProcessIdentity[] {
  const found: ProcessIdentity[] = [];
  for (const pid of pids) {
    if (pid === process.pid) continue;
    const identity = identify(pid, table);
    if (identity !== undefined) found.push(identity);
  }
  return found;
}
