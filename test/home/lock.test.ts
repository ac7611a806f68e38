// src/home/lock.ts, scv's one way to lock a file: a held lock refuses without retries and is waited
// for with them, a lock nobody refreshed for `stale` ms is taken over, a lost lock never ends scv, and
// the lock of a dead scv is removed only when it is that very folder.

import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  rmdirSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { heldLock, type LockIdentity, removeDeadLock, takeLock } from "../../src/home/lock.js";

let root = "";
let path = "";
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "scv-lock-"));
  path = join(root, "record.json");
  writeFileSync(path, "{}\n");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function identityOf(folder: string): LockIdentity {
  const stats = lstatSync(folder, { bigint: true });
  return { dev: String(stats.dev), ino: String(stats.ino), born: String(stats.birthtimeNs) };
}

describe("takeLock", () => {
  it("takes a free lock, refuses a held one without retries, and waits for it with them", async () => {
    const release = await takeLock(path, { stale: 10_000 });
    expect(existsSync(`${path}.lock`)).toBe(true);
    expect(heldLock(path)).toEqual(identityOf(`${path}.lock`));
    await expect(takeLock(path, { stale: 10_000 })).rejects.toMatchObject({ code: "ELOCKED" });

    const waiting = takeLock(path, {
      stale: 10_000,
      retries: { retries: 40, factor: 1, minTimeout: 25, maxTimeout: 25 },
    });
    let taken = false;
    void waiting.then(() => {
      taken = true;
    });
    await sleep(100);
    expect(taken).toBe(false);
    await release();
    const second = await waiting;
    expect(existsSync(`${path}.lock`)).toBe(true);
    await second();
    expect(existsSync(`${path}.lock`)).toBe(false);
    expect(heldLock(path)).toBeUndefined();
  });

  it("takes over a lock nobody refreshed for `stale` ms", async () => {
    mkdirSync(`${path}.lock`);
    const past = new Date(Date.now() - 3_000);
    utimesSync(`${path}.lock`, past, past);
    const release = await takeLock(path, { stale: 2_000 });
    await release();
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it("goes on quietly when the lock is lost while held", async () => {
    const errors: unknown[] = [];
    const onError = (error: unknown) => errors.push(error);
    process.on("uncaughtException", onError);
    try {
      const release = await takeLock(path, { stale: 2_000, update: 1_000 });
      rmdirSync(`${path}.lock`);
      // The library refreshes the lock every second and notices then that it is gone.
      await sleep(1_500);
      await release();
      expect(errors).toEqual([]);
    } finally {
      process.off("uncaughtException", onError);
    }
  });
});

describe("removeDeadLock", () => {
  it("removes only the very folder a dead scv took, never a held one, never one about to go stale", async () => {
    const folder = `${path}.lock`;
    const release = await takeLock(path, { stale: 30_000 });
    const held = identityOf(folder);
    expect(removeDeadLock(path, held, 30_000)).toBe(false);
    await release();

    mkdirSync(folder);
    const dead = identityOf(folder);
    expect(removeDeadLock(path, { ...dead, born: "1" }, 30_000)).toBe(false);
    const past = new Date(Date.now() - 25_000);
    utimesSync(folder, past, past);
    expect(removeDeadLock(path, dead, 30_000)).toBe(false);
    const now = new Date();
    utimesSync(folder, now, now);
    expect(removeDeadLock(path, dead, 30_000)).toBe(true);
    expect(existsSync(folder)).toBe(false);
    expect(removeDeadLock(path, dead, 30_000)).toBe(false);
  });
});
