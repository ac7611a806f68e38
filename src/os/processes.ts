// Identifying processes across scv invocations without trusting a bare pid: a pid plus its start
// time names one process for its whole life, so a reused pid is never mistaken for ours. Also finds
// processes by a variable in their environment (every spawned agent carries its turn's tag), for
// those that escaped their group.

import { execFileSync } from "node:child_process";
import { hasVariable, variableValue } from "./environ.js";
import { candidatePids, type PidMark, takePidMark } from "./pid-marks.js";
import { hasProc, procPids, procStartTime, procZombie, readProcFile } from "./proc.js";

/** A process as scv records it: pid plus an opaque start-time token from the OS. */
export interface ProcessIdentity {
  readonly pid: number;
  readonly startTime: string;
}

/** The OS view scv needs; injectable so reaping is testable without real processes. */
export interface ProcessTable {
  /** The start-time token of `pid`, or undefined when no such process exists. */
  startTime(pid: number): string | undefined;
  /** Whether `pid` has exited (a zombie): whatever its start time says, it runs nothing. */
  zombie(pid: number): boolean;
  /** Pids whose environment has `name=value`. */
  pidsWithEnv(name: string, value: string): number[];
  /** For each of `values`, the pids whose environment has `name=<that value>`, in one pass; with
   * `since`, only among the processes created after that mark was taken, where that can be told. */
  pidsByEnv?(name: string, values: ReadonlySet<string>, since?: PidMark): Map<string, number[]>;
  /** Where the kernel's pid allocation stands now; undefined where it cannot be read. */
  pidMark?(): PidMark | undefined;
  /** Sends `signal` to the process group led by `pid` and to `pid` itself; ignores missing ones. */
  kill(pid: number, signal: NodeJS.Signals, group: boolean): void;
}

function psStartTime(pid: number): string | undefined {
  try {
    const out = execFileSync("ps", ["-o", "lstart=", "-p", String(pid)], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    return out === "" ? undefined : out;
  } catch {
    return undefined;
  }
}

export const systemProcessTable: ProcessTable = {
  startTime: (pid) => (hasProc() ? procStartTime(pid) : psStartTime(pid)),
  zombie: (pid) => procZombie(pid),
  pidsWithEnv(name, value) {
    if (!hasProc()) return [];
    const needle = Buffer.from(`\0${name}=${value}\0`, "latin1");
    const found: number[] = [];
    for (const pid of procPids()) {
      try {
        if (hasVariable(readProcFile(`/proc/${pid}/environ`), needle)) found.push(pid);
      } catch {
        // Gone, or not ours to read.
      }
    }
    return found;
  },
  pidsByEnv(name, values, since) {
    const found = new Map<string, number[]>();
    if (!hasProc()) return found;
    const prefix = Buffer.from(`\0${name}=`, "latin1");
    for (const pid of candidatePids(since)) {
      try {
        const value = variableValue(readProcFile(`/proc/${pid}/environ`), prefix);
        if (value !== undefined && values.has(value)) found.set(value, [...(found.get(value) ?? []), pid]);
      } catch {
        // Gone, or not ours to read.
      }
    }
    return found;
  },
  pidMark: () => (hasProc() ? takePidMark() : undefined),
  kill(pid, signal, group) {
    if (group) {
      try {
        process.kill(-pid, signal);
      } catch {
        // No such group.
      }
    }
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  },
};

/** The identity of a live process, for recording. */
export function identify(pid: number, table: ProcessTable = systemProcessTable): ProcessIdentity | undefined {
  const startTime = table.startTime(pid);
  return startTime === undefined ? undefined : { pid, startTime };
}

/** Whether the recorded process is still the same live process. */
export function isAlive(identity: ProcessIdentity, table: ProcessTable = systemProcessTable): boolean {
  return table.startTime(identity.pid) === identity.startTime;
}

/** Whether the identity still names the process it named when recorded, and that process has not
 * exited. */
export function isRunning(identity: ProcessIdentity, table: ProcessTable = systemProcessTable): boolean {
  return isAlive(identity, table) && !table.zombie(identity.pid);
}
