// The timing table (src/timing.ts): each duration named once, the test scale that can only shorten
// the graces and never a limit, and no module keeping a grace of its own.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  DURATIONS,
  MIN_SCALE,
  TEST_TIME_SCALE_VARIABLE,
  timeScale,
  timing,
  timingAt,
} from "../../src/timing.js";

describe("the timing table", () => {
  it("has the real durations scv waits through", () => {
    expect(DURATIONS).toMatchObject({
      endGrace: 5_000,
      killGrace: 3_000,
      helperKillGrace: 2_000,
      backgroundLockWait: 2_000,
      busySettle: 2_000,
      helloLimit: 2_000,
      progressInterval: 5_000,
      progressTick: 1_000,
    });
  });

  it("reads a scale that can only shorten, down to MIN_SCALE; anything else is the real time", () => {
    for (const value of [undefined, "", " ", "1", "2", "10", "0", "-0.5", "NaN", "Infinity", "fast", "0x1"])
      expect(timeScale(value), String(value)).toBe(1);
    expect(timeScale("0.5")).toBe(0.5);
    expect(timeScale("0.1")).toBe(0.1);
    expect(timeScale("0.000001")).toBe(MIN_SCALE);
  });

  it("scales the graces and never a limit, nor the time a cooperating step is given", () => {
    expect(timingAt("endGrace", 0.1)).toBe(500);
    expect(timingAt("killGrace", 0.1)).toBe(300);
    expect(timingAt("progressInterval", 0.1)).toBe(500);
    expect(timingAt("progressTick", 0.1)).toBe(100);
    expect(timingAt("helloLimit", 0.1)).toBe(2_000);
    expect(timingAt("initializeLimit", 0.1)).toBe(60_000);
    // A loaded machine's pipe still draining, a lock about to be let go, an answer on its way.
    expect(timingAt("outputDrain", 0.1)).toBe(3_000);
    expect(timingAt("backgroundLockWait", 0.1)).toBe(2_000);
    expect(timingAt("busySettle", 0.1)).toBe(2_000);
    expect(timingAt("cancelGrace", 0.1)).toBe(5_000);
    for (const name of Object.keys(DURATIONS) as (keyof typeof DURATIONS)[])
      expect(timingAt(name, 1), name).toBe(DURATIONS[name]);
  });

  it("takes the scale from this process's environment", () => {
    const before = process.env[TEST_TIME_SCALE_VARIABLE];
    try {
      process.env[TEST_TIME_SCALE_VARIABLE] = "0.5";
      expect(timing("endGrace")).toBe(2_500);
      delete process.env[TEST_TIME_SCALE_VARIABLE];
      expect(timing("endGrace")).toBe(5_000);
    } finally {
      if (before === undefined) delete process.env[TEST_TIME_SCALE_VARIABLE];
      else process.env[TEST_TIME_SCALE_VARIABLE] = before;
    }
  });

  it("is where every grace, settle and kill wait is defined: no module keeps its own", () => {
    const src = join(import.meta.dirname, "..", "..", "src");
    const found: string[] = [];
    for (const name of readdirSync(src, { recursive: true, encoding: "utf8" })) {
      if (!name.endsWith(".ts") || name === "timing.ts") continue;
      const text = readFileSync(join(src, name), "utf8");
      for (const match of text.matchAll(
        /\b(?:const|let)\s+([A-Z_]*(?:GRACE|SETTLE|HELLO|PROGRESS)[A-Z_]*)\s*=/g,
      ))
        found.push(`${name}: ${match[1]}`);
      for (const match of text.matchAll(/graceMs\s*\?\?\s*[\d_]+/g)) found.push(`${name}: ${match[0]}`);
    }
    expect(found).toEqual([]);
  });
});
