// Every lock scv takes on its files, one way: proper-lockfile's lock folder beside the file
// (`<file>.lock`), taken with the library's own lock and retries.
//
// The stale rule. The holder refreshes its lock folder's mtime (every `update` ms, by default half of
// `stale`); a lock not refreshed for `stale` ms belongs to an scv that died, and the next taker takes
// it over. The reaper, once it has proven the scv that took a lock dead, removes it at once
// (`removeDeadLock`) rather than letting the next turn wait for it to go stale — but only that very
// folder (its device, inode and birth time), and only while it is not close to going stale, when a
// live turn may be taking it over.
//
// The library is imported on the first lock a process takes: a first turn takes none.

import { type BigIntStats, lstatSync, rmdirSync } from "node:fs";
import type lockfile from "proper-lockfile";

export type LockOptions = NonNullable<Parameters<typeof lockfile.lock>[1]>;

/** One lock folder, as created: its device and inode and its birth time. A lock taken over after it
 * went stale is a new folder, which may reuse the inode number but is born later. */
export interface LockIdentity {
  readonly dev: string;
  readonly ino: string;
  readonly born: string;
}

/** How close to going stale a dead scv's lock is left to the next taker instead. */
const TAKEOVER_MARGIN_MS = 10_000;

/** The locks this process holds, by lock folder. */
const heldLocks = new Map<string, LockIdentity>();

const lockFolder = (path: string) => `${path}.lock`;

/** Locks `path`; rejects with proper-lockfile's ELOCKED once its retries are spent. A lock lost while
 * held (its folder removed, or not refreshed in time: a suspended laptop) is no longer held, and its
 * holder goes on: the library's default would throw from a timer and end scv mid-turn. */
export async function takeLock(path: string, options: LockOptions): Promise<() => Promise<void>> {
  const { default: lockfile } = await import("proper-lockfile");
  let compromised = false;
  const release = await lockfile.lock(path, {
    realpath: false,
    ...options,
    onCompromised: () => {
      compromised = true;
    },
  });
  const folder = lockFolder(path);
  const identity = lockState(folder)?.identity;
  if (identity !== undefined) heldLocks.set(folder, identity);
  return async () => {
    heldLocks.delete(folder);
    if (!compromised) await release().catch(() => {});
  };
}

/** The identity of the lock this process holds on `path`, for its running-turn record; undefined
 * when it holds none or the file system cannot tell lock folders apart. */
export function heldLock(path: string): LockIdentity | undefined {
  return heldLocks.get(lockFolder(path));
}

/** Removes the lock on `path` that a now dead scv took (`identity`, from its record) and that has
 * `staleMs` to go stale: never one this process holds, nor one close to going stale. True when it
 * removed it. */
export function removeDeadLock(path: string, identity: LockIdentity, staleMs: number): boolean {
  const folder = lockFolder(path);
  if (heldLocks.has(folder)) return false;
  const state = lockState(folder);
  if (state === undefined) return false;
  const same =
    state.identity.dev === identity.dev &&
    state.identity.ino === identity.ino &&
    state.identity.born === identity.born;
  if (!same || state.mtimeMs < Date.now() - staleMs + TAKEOVER_MARGIN_MS) return false;
  try {
    rmdirSync(folder);
    return true;
  } catch {
    return false;
  }
}

/** When the lock on `path` was last refreshed (its folder's mtime); undefined when there is none. */
export function lockRefreshedAt(path: string): number | undefined {
  try {
    const stats = lstatSync(lockFolder(path));
    return stats.isDirectory() ? stats.mtimeMs : undefined;
  } catch {
    return undefined;
  }
}

/** The lock folder's identity and mtime now; undefined when there is none, or when the file system
 * keeps no birth time (then one lock folder cannot be told from a later one). */
function lockState(folder: string): { identity: LockIdentity; mtimeMs: number } | undefined {
  let stats: BigIntStats;
  try {
    stats = lstatSync(folder, { bigint: true });
  } catch {
    return undefined;
  }
  if (!stats.isDirectory() || stats.birthtimeNs === 0n) return undefined;
  return {
    identity: { dev: String(stats.dev), ino: String(stats.ino), born: String(stats.birthtimeNs) },
    mtimeMs: Number(stats.mtimeMs),
  };
}
