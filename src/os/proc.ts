// Reading Linux's /proc: the one place scv parses it. Every reader answers "unknown" (undefined or
// false) where /proc is missing or a file cannot be read, and its callers fall back from there.

import { closeSync, openSync, readdirSync, readSync } from "node:fs";

/** One buffer for every /proc file scv reads, made on the first: their sizes read as 0, so
 * readFileSync would allocate a fresh 64 KB buffer for each, and the end-of-turn sweep reads one per
 * process on the machine. */
let procBuffer: Buffer | undefined;

/** The contents of a /proc file, valid until the next call. Throws as openSync does. */
export function readProcFile(path: string): Buffer {
  const fd = openSync(path, "r");
  procBuffer ??= Buffer.allocUnsafe(64 * 1024);
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

/** A /proc file holding one number, or undefined. */
export function readProcNumber(path: string): number | undefined {
  try {
    const text = readProcFile(path).toString("latin1").trim();
    return /^\d+$/.test(text) ? Number(text) : undefined;
  } catch {
    return undefined;
  }
}

let procReadable: boolean | undefined;

/** Whether this system has a readable /proc (Linux); elsewhere scv asks `ps`. */
export function hasProc(): boolean {
  if (procReadable === undefined) {
    try {
      readProcFile("/proc/self/stat");
      procReadable = true;
    } catch {
      procReadable = false;
    }
  }
  return procReadable;
}

/** The pids listed in /proc, in its order. Throws as readdirSync does. */
export function procPids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    const first = entry.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    pids.push(Number(entry));
  }
  return pids;
}

/** The fields of /proc/<pid>/stat after the parenthesised command name (which may itself contain
 * spaces and parentheses): index 0 is field 3 (state), 2 is field 5 (pgrp), 19 is field 22 (starttime). */
function statFields(stat: string): string[] | undefined {
  const close = stat.lastIndexOf(")");
  if (close < 0) return undefined;
  return stat
    .slice(close + 2)
    .trim()
    .split(/\s+/);
}

/** The start-time field of /proc/<pid>/stat: field 22, counted after the parenthesised command
 * name. */
export function parseProcStatStartTime(stat: string): string | undefined {
  return statFields(stat)?.[19];
}

/** The fields of `pid`'s stat file; undefined when it cannot be read (gone, or no /proc). */
function procStat(pid: number | string): string[] | undefined {
  try {
    return statFields(readProcFile(`/proc/${pid}/stat`).toString("latin1"));
  } catch {
    return undefined;
  }
}

/** The start-time token of `pid` from /proc, or undefined. */
export function procStartTime(pid: number): string | undefined {
  return procStat(pid)?.[19];
}

/** Whether `pid` has exited and waits to be reaped (a zombie, or dead): whatever its start time says. */
export function procZombie(pid: number): boolean {
  const state = procStat(pid)?.[0];
  return state === "Z" || state === "X";
}

/** Whether a process of group `pgid` is alive and not a zombie; undefined when /proc is unreadable. */
export function procGroupHasLiving(pgid: number): boolean | undefined {
  let pids: number[];
  try {
    pids = procPids();
  } catch {
    return undefined;
  }
  for (const pid of pids) {
    const fields = procStat(pid);
    if (fields === undefined) continue;
    if (Number(fields[2]) === pgid && fields[0] !== "Z" && fields[0] !== "X") return true;
  }
  return false;
}

let cachedBoot: string | undefined | null = null;

/** The kernel's boot id, where there is one: after a reboot no recorded pid means anything. */
export function bootId(): string | undefined {
  if (cachedBoot === null) {
    try {
      cachedBoot = readProcFile("/proc/sys/kernel/random/boot_id").toString("latin1").trim() || undefined;
    } catch {
      cachedBoot = undefined;
    }
  }
  return cachedBoot;
}

/** Each process's parent, from /proc/<pid>/stat (field 4); empty where /proc is unreadable. */
function procParents(): Map<number, number> {
  const parents = new Map<number, number>();
  let pids: number[];
  try {
    pids = procPids();
  } catch {
    return parents;
  }
  for (const pid of pids) {
    const parent = Number(procStat(pid)?.[1]);
    if (Number.isInteger(parent)) parents.set(pid, parent);
  }
  return parents;
}

/** `pid`'s resident memory in bytes (VmRSS of /proc/<pid>/status); undefined when it cannot be read
 * (gone, a zombie, not ours). */
function procResidentBytes(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readProcFile(`/proc/${pid}/status`).toString("latin1"));
    return match?.[1] === undefined ? undefined : Number(match[1]) * 1024;
  } catch {
    return undefined;
  }
}

/** For each of `roots`, the resident memory of it and every process below it, in bytes (shared
 * pages counted in each process, as `ps` does); undefined for a root that is gone, or without /proc. */
export function residentTreeBytes(roots: readonly number[]): Map<number, number | undefined> {
  const totals = new Map<number, number | undefined>();
  if (!hasProc()) return totals;
  const children = new Map<number, number[]>();
  for (const [pid, parent] of procParents()) children.set(parent, [...(children.get(parent) ?? []), pid]);
  for (const root of roots) {
    const own = procResidentBytes(root);
    if (own === undefined) {
      totals.set(root, undefined);
      continue;
    }
    let total = own;
    const queue = [...(children.get(root) ?? [])];
    for (let pid = queue.pop(); pid !== undefined; pid = queue.pop()) {
      total += procResidentBytes(pid) ?? 0;
      queue.push(...(children.get(pid) ?? []));
    }
    totals.set(root, total);
  }
  return totals;
}
