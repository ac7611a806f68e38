// Identifying processes across scv invocations without trusting a bare pid: a pid plus its start
// time names one process for its whole life, so a reused pid is never mistaken for ours. Also finds
// processes by the environment tag every spawned agent carries, for those that escaped the group.

import { execFileSync } from "node:child_process";
import { closeSync, openSync, readdirSync, readlinkSync, readSync } from "node:fs";

/** A process as scv records it: pid plus an opaque start-time token from the OS. */
export interface ProcessIdentity {
  readonly pid: number;
  readonly startTime: string;
}

/** The OS view scv needs; injectable so reaping is testable without real processes. */
export interface ProcessTable {
  /** The start-time token of `pid`, or undefined when no such process exists. */
  startTime(pid: number): string | undefined;
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

function readProcNumber(path: string): number | undefined {
  try {
    const text = readProcFile(path).toString("latin1").trim();
    return /^\d+$/.test(text) ? Number(text) : undefined;
  } catch {
    return undefined;
  }
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

function takePidMark(): PidMark | undefined {
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
function candidatePids(since: PidMark | undefined): number[] {
  const range = since === undefined ? undefined : rangeSince(since);
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    const first = entry.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    const pid = Number(entry);
    if (range === undefined || (pid >= range.from && pid <= range.to)) pids.push(pid);
  }
  return pids;
}

function rangeSince(since: PidMark): { from: number; to: number } | undefined {
  const now = takePidMark();
  const pidMax = readProcNumber("/proc/sys/kernel/pid_max");
  return now === undefined || pidMax === undefined ? undefined : pidsBetween(since, now, pidMax);
}

/** The start-time field of /proc/<pid>/stat: field 22, counted after the parenthesised command
 * name (which may itself contain spaces and parentheses). */
export function parseProcStatStartTime(stat: string): string | undefined {
  const close = stat.lastIndexOf(")");
  if (close < 0) return undefined;
  const fields = stat
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  // After the name come state (field 3) … starttime (field 22): index 22 - 3 = 19.
  return fields[19];
}

/** One buffer for every /proc file scv reads. Their sizes read as 0, so readFileSync allocates a
 * fresh 64 KB buffer for each (and fstats it first): the sweep for escaped processes reads one per
 * process on the machine at the end of every turn, and a fan-out of 16 allocated ~120 MB that way. */
let procBuffer = Buffer.allocUnsafe(64 * 1024);

/** The contents of a /proc file, valid until the next call. Throws as openSync does. */
function readProcFile(path: string): Buffer {
  const fd = openSync(path, "r");
  try {
    let length = 0;
    for (;;) {
      if (length === procBuffer.length) {
        const larger = Buffer.allocUnsafe(procBuffer.length * 2);
        procBuffer.copy(larger);
        procBuffer = larger;
      }
      const read = readSync(fd, procBuffer, length, procBuffer.length - length, null);
      if (read === 0) return procBuffer.subarray(0, length);
      length += read;
    }
  } finally {
    closeSync(fd);
  }
}

function procStartTime(pid: number): string | undefined {
  try {
    return parseProcStatStartTime(readProcFile(`/proc/${pid}/stat`).toString("latin1"));
  } catch {
    return undefined;
  }
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

const hasProc = (() => {
  try {
    readProcFile("/proc/self/stat");
    return true;
  } catch {
    return false;
  }
})();

/** Whether `environ` (NUL-separated `NAME=value` entries, as in /proc/<pid>/environ) holds the entry
 * `needle` names as `\0NAME=value\0`. */
export function hasVariable(environ: Buffer, needle: Buffer): boolean {
  if (environ.indexOf(needle) !== -1) return true;
  // The first entry has no NUL before it; the last may lack the one after it.
  const entry = needle.subarray(1, needle.length - 1);
  const first = environ.indexOf(0);
  if ((first === -1 ? environ : environ.subarray(0, first)).equals(entry)) return true;
  const tail = environ.at(-1) === 0 ? environ.subarray(0, -1) : environ;
  return (
    tail.length > entry.length &&
    tail[tail.length - entry.length - 1] === 0 &&
    tail.subarray(tail.length - entry.length).equals(entry)
  );
}

/** The value of the variable `prefix` names (`\0NAME=`) in `environ`, or undefined. */
export function variableValue(environ: Buffer, prefix: Buffer): string | undefined {
  const entry = prefix.subarray(1);
  let start: number;
  if (environ.subarray(0, entry.length).equals(entry)) start = entry.length;
  else {
    const at = environ.indexOf(prefix);
    if (at === -1) return undefined;
    start = at + prefix.length;
  }
  const end = environ.indexOf(0, start);
  return environ.toString("latin1", start, end === -1 ? environ.length : end);
}

export const systemProcessTable: ProcessTable = {
  startTime: (pid) => (hasProc ? procStartTime(pid) : psStartTime(pid)),
  pidsWithEnv(name, value) {
    if (!hasProc) return [];
    // Searched in the raw bytes, each variable between NULs: this runs at the end of every turn
    // over every process on the machine, and decoding and splitting each environment was most of
    // its cost.
    const needle = Buffer.from(`\0${name}=${value}\0`, "latin1");
    const found: number[] = [];
    for (const entry of readdirSync("/proc")) {
      const first = entry.charCodeAt(0);
      if (first < 48 || first > 57) continue;
      try {
        if (hasVariable(readProcFile(`/proc/${entry}/environ`), needle)) found.push(Number(entry));
      } catch {
        // Gone, or not ours to read.
      }
    }
    return found;
  },
  pidsByEnv(name, values, since) {
    const found = new Map<string, number[]>();
    if (!hasProc) return found;
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
  pidMark: () => (hasProc ? takePidMark() : undefined),
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
