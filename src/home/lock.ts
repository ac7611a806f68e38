// proper-lockfile locks, taken synchronously when they are free. The library's asynchronous lock
// is four trips through libuv's thread pool (mkdir, stat, utimes; rmdir to release) — the only ones
// a turn made, so it also started the pool's threads — where the same calls made synchronously
// cost a fraction of that. Only a lock someone holds waits, asynchronously, with the retries asked.
// The library is imported on the first lock: a first turn takes none, and loading it (with retry and
// signal-exit, which listens to a dozen signals) cost each turn ~1 ms.

import {
  mkdir,
  mkdirSync,
  realpath,
  realpathSync,
  rmdir,
  rmdirSync,
  stat,
  statSync,
  utimes,
  utimesSync,
} from "node:fs";
import type lockfile from "proper-lockfile";

export type LockOptions = Omit<NonNullable<Parameters<typeof lockfile.lock>[1]>, "retries" | "fs"> & {
  readonly retries?: { retries: number; factor?: number; minTimeout?: number; maxTimeout?: number };
};

/** The file system calls the library makes, each way. Its sync API copies the `fs` it is given
 * (`{ ...fs }`), and copying node:fs itself reads its `promises` getter, which loads
 * node:fs/promises. Named imports: a namespace import of node:fs is copied, getter by getter, when
 * the bundle starts. */
const LOCK_FS = {
  mkdir,
  mkdirSync,
  realpath,
  realpathSync,
  rmdir,
  rmdirSync,
  stat,
  statSync,
  utimes,
  utimesSync,
};

/** Locks `path`; rejects with proper-lockfile's ELOCKED once its retries are spent. */
export async function takeLock(path: string, options: LockOptions): Promise<() => Promise<void>> {
  const { default: lockfile } = await import("proper-lockfile");
  try {
    const release = lockfile.lockSync(path, { ...options, fs: LOCK_FS, retries: 0 });
    return async () => release();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ELOCKED" || !options.retries?.retries) throw error;
  }
  return lockfile.lock(path, { ...options, fs: LOCK_FS });
}
