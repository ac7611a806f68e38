import { describe, expect, it } from "vitest";
import { addUsage, cumulativeWentDown, turnShare } from "../../src/parsers/usage.js";

describe("turnShare", () => {
  it("is the whole report when there is no previous total", () => {
    expect(turnShare({ input: 12245, output: 6, costUsd: 0.02455 })).toEqual({
      input: 12245,
      output: 6,
      costUsd: 0.02455,
    });
  });

  it("subtracts the previous total field by field (Claude turn 2 after turn 1, from the fixtures)", () => {
    const turn1 = { input: 12245, cached: 0, cacheWrite: 0, output: 6, costUsd: 0.024550000000000002 };
    const turn2 = { input: 24518, cached: 0, cacheWrite: 0, output: 13, costUsd: 0.049166 };
    expect(turnShare(turn2, turn1)).toEqual({
      input: 12273,
      cached: 0,
      cacheWrite: 0,
      output: 7,
      costUsd: 0.024616,
    });
  });

  it("never goes below zero when a counter restarted", () => {
    expect(turnShare({ input: 100, output: 5 }, { input: 500, output: 2 })).toEqual({ input: 0, output: 3 });
  });

  it("keeps only the fields the new report has", () => {
    expect(turnShare({ output: 10 }, { input: 3, output: 4 })).toEqual({ output: 6 });
  });

  it("never counts a total twice across three turns", () => {
    const totals = [{ input: 10 }, { input: 25 }, { input: 45 }];
    let previous: { input: number } | undefined;
    let sum = 0;
    for (const total of totals) {
      sum += turnShare(total, previous).input ?? 0;
      previous = total;
    }
    expect(sum).toBe(45);
  });
});

describe("cumulativeWentDown", () => {
  it("tells a restarted counter from a growing one", () => {
    expect(cumulativeWentDown({ input: 5 }, { input: 10 })).toBe(true);
    expect(cumulativeWentDown({ input: 15 }, { input: 10 })).toBe(false);
    expect(cumulativeWentDown({ input: 15 }, { output: 10 })).toBe(false);
  });
});

describe("addUsage", () => {
  it("sums fields present on either side", () => {
    expect(addUsage({ input: 1, costUsd: 0.1 }, { input: 2, output: 3, costUsd: 0.2 })).toEqual({
      input: 3,
      output: 3,
      costUsd: 0.3,
    });
  });

  it("copies the right side when there is nothing yet", () => {
    expect(addUsage(undefined, { output: 4 })).toEqual({ output: 4 });
  });
});
