// src/home/lock.ts: a free lock is taken at once (synchronously), a held one refuses without
// retries and waits for its release with them.

import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { takeLock } from "../../src/home/lock.js";

let root = "";
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "scv-lock-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("takeLock", () => {
  it("takes a free lock, refuses a held one without retries, and waits for it with them", async () => {
    const path = join(root, "record.json");
    writeFileSync(path, "{}\n");
    const release = await takeLock(path, { realpath: false, stale: 10_000 });
    expect(existsSync(`${path}.lock`)).toBe(true);
    await expect(takeLock(path, { realpath: false, stale: 10_000 })).rejects.toMatchObject({
      code: "ELOCKED",
    });

    const waiting = takeLock(path, {
      realpath: false,
      stale: 10_000,
      retries: { retries: 40, factor: 1, minTimeout: 25, maxTimeout: 25 },
    });
    let taken = false;
    void waiting.then(() => {
      taken = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(taken).toBe(false);
    await release();
    const second = await waiting;
    expect(existsSync(`${path}.lock`)).toBe(true);
    await second();
    expect(existsSync(`${path}.lock`)).toBe(false);
  });
});
