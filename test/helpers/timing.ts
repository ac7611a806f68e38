// The time scale end-to-end tests run scv and the fake agents at: their graces and sleeps a tenth of
// the real ones (src/timing.ts), so a test that waits one out waits 0.5 s, not 5 s. A case that proves
// a real duration passes REAL_TIME (and lives in a *.stress.test.ts file, which CI runs).

import { afterEach, beforeEach } from "vitest";
import { type DurationName, TEST_TIME_SCALE_VARIABLE, timeScale, timingAt } from "../../src/timing.js";

export const TEST_TIME_SCALE = 0.1;

/** What scv and the fake agents get in a test's world. */
export const SCALED_TIME: Readonly<Record<string, string>> = {
  [TEST_TIME_SCALE_VARIABLE]: String(TEST_TIME_SCALE),
  FAKE_AGENT_TIME_SCALE: String(TEST_TIME_SCALE),
};

/** Added to a world's env for a case that keeps the real durations. */
export const REAL_TIME: Readonly<Record<string, string>> = {
  [TEST_TIME_SCALE_VARIABLE]: "1",
  FAKE_AGENT_TIME_SCALE: "1",
};

/** What a test's world passes on to the built scv and the fake agents: the scale its tier runs at
 * (vitest.config.ts: the stress tier's is the real time), else SCALED_TIME. */
export function worldTime(): Record<string, string> {
  const scale = process.env[TEST_TIME_SCALE_VARIABLE];
  return scale === undefined
    ? { ...SCALED_TIME }
    : { [TEST_TIME_SCALE_VARIABLE]: scale, FAKE_AGENT_TIME_SCALE: scale };
}

/** The duration the built scv waits in a test's world. */
export function worldTiming(name: DurationName): number {
  return timingAt(name, timeScale(worldTime()[TEST_TIME_SCALE_VARIABLE]));
}

/** For the tests of a file that prove a real duration in-process: scv's table at its real scale while
 * each runs (a thread runs one file at a time). */
export function useRealTime(): void {
  let before: string | undefined;
  beforeEach(() => {
    before = process.env[TEST_TIME_SCALE_VARIABLE];
    process.env[TEST_TIME_SCALE_VARIABLE] = "1";
  });
  afterEach(() => {
    if (before === undefined) delete process.env[TEST_TIME_SCALE_VARIABLE];
    else process.env[TEST_TIME_SCALE_VARIABLE] = before;
  });
}
