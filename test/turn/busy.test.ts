// What a refused turn says about a busy conversation, when the lock is seen before the turn holding it
// has registered: the turn that is starting, not "an scv that was killed left it".

import { mkdirSync, mkdtempSync, rmSync, utimesSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lockConversation } from "../../src/home/conversations.js";
import { turnFile } from "../../src/home/turn-files.js";
import { writeTurnRecord } from "../../src/home/turn-records.js";
import { identify } from "../../src/os/processes.js";
import { DURATIONS, TEST_TIME_SCALE_VARIABLE } from "../../src/timing.js";
import { settledBusyError } from "../../src/turn/busy.js";
import { useRealTime } from "../helpers/timing.js";

const HANDLE = "claude-k3f9x2";
// The settle time as it is: what these cases prove happens within it, or after it.
useRealTime();
let root: string;
let env: Record<string, string>;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "scv-busy-"));
  env = { SCV_HOME: join(root, "scv"), HOME: root };
  mkdirSync(join(root, "scv", "conversations"), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function register(): void {
  const me = identify(process.pid);
  if (me === undefined) throw new Error("no identity for this process");
  const path = turnFile(HANDLE, "running", env);
  mkdirSync(dirname(path), { recursive: true });
  writeTurnRecord(
    path,
    {
      version: 1,
      handle: HANDLE,
      tag: `${HANDLE}.a1b2c3d4`,
      agent: "claude",
      prompt: "hi",
      cwd: root,
      depth: 0,
      background: true,
      host: hostname(),
      startedAt: new Date().toISOString(),
      scv: me,
    },
    false,
  );
}

/** The lock refresh at the test scale for one case (its floor, 1 s): what tells a live holder from a
 * killed one is a refresh, whatever its interval. useRealTime puts the real scale back after it. */
function scaled(): void {
  process.env[TEST_TIME_SCALE_VARIABLE] = "0.1";
}

describe("settledBusyError", () => {
  it("names the job of a turn that registers just after taking the lock", async () => {
    const release = await lockConversation(HANDLE, env, 0);
    setTimeout(register, 300);
    const error = await settledBusyError(HANDLE, env);
    expect(error.message).toBe(
      `conversation ${HANDLE} is busy with job ${HANDLE}.a1b2c3d4 — wait for it: scv wait ${HANDLE}.a1b2c3d4`,
    );
    await release();
  });

  it("says the conversation is free when its lock goes meanwhile", async () => {
    const release = await lockConversation(HANDLE, env, 0);
    setTimeout(() => void release(), 300);
    const error = await settledBusyError(HANDLE, env);
    expect(error.message).toBe(`conversation ${HANDLE} was busy and is free now — try again`);
  });

  it("a lock no live scv refreshes is one a killed scv left: said at once when it missed a refresh", async () => {
    const folder = join(root, "scv", "conversations", `${HANDLE}.json.lock`);
    mkdirSync(folder);
    const tenSecondsAgo = (Date.now() - 10_000) / 1000;
    utimesSync(folder, tenSecondsAgo, tenSecondsAgo);
    const started = Date.now();
    const error = await settledBusyError(HANDLE, env);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(error.message).toMatch(
      /^conversation claude-k3f9x2 is locked, but no running turn holds it \(an scv that was killed left it\) — it frees by itself in 2\ds; continue it then$/,
    );
  });

  it("a lock taken just before an scv was killed: left, once it has gone a refresh and the settle untouched", async () => {
    scaled();
    mkdirSync(join(root, "scv", "conversations", `${HANDLE}.json.lock`));
    const started = Date.now();
    const error = await settledBusyError(HANDLE, env);
    // The refresh at its floor of 1 s (proper-lockfile's), the settle as it is.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000 + DURATIONS.busySettle - 100);
    expect(error.message).toMatch(
      /is locked, but no running turn holds it \(an scv that was killed left it\)/,
    );
  });

  it("a lock a live scv keeps refreshing with no turn shown (attach, a slow start): in use, never 'killed'", async () => {
    scaled();
    const release = await lockConversation(HANDLE, env, 0);
    try {
      const error = await settledBusyError(HANDLE, env);
      expect(error.message).toBe(
        `conversation ${HANDLE} is in use by another scv that holds its lock (scv attach, conversations rm, or a turn starting or ending) — try again once it is done`,
      );
    } finally {
      await release();
    }
  });
});
