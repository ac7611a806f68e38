import { describe, expect, it } from "vitest";
import {
  addUsage,
  cleanUsage,
  cumulativeWentDown,
  MAX_COST_USD,
  MAX_TOKENS,
  turnShare,
} from "../../src/parsers/usage.js";
import { createParser, feed, fixtureEnd, fixtureStdout, runFixture } from "./run.js";

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

describe("numbers from the agent", () => {
  const BAD = [1e308, -5, 2.5, -0.5, 1e16, 5e300];

  it("drops what cannot be a count or a cost, rounds fractional tokens", () => {
    expect(cleanUsage({ input: 2.5, output: -3, cached: 1e16, reasoning: 7, costUsd: 1e308 })).toEqual({
      input: 3,
      reasoning: 7,
    });
    expect(cleanUsage({ input: Number.NaN, output: Number.POSITIVE_INFINITY, costUsd: -0.01 })).toEqual({});
    expect(cleanUsage({ costUsd: 0.024550000000000002, input: 0 })).toEqual({
      costUsd: 0.024550000000000002,
      input: 0,
    });
  });

  it("never sums to Infinity: a total saturates at its limit, and stays JSON", () => {
    let total: ReturnType<typeof addUsage> | undefined;
    for (let turn = 0; turn < 5; turn += 1)
      total = addUsage(total, { input: MAX_TOKENS, costUsd: MAX_COST_USD, output: 1 });
    expect(total).toEqual({ input: MAX_TOKENS, costUsd: MAX_COST_USD, output: 5 });
    expect(JSON.parse(JSON.stringify(total))).toEqual(total);
    // A bad value on either side is not counted; an earlier record's null neither.
    expect(
      addUsage({ input: 10, costUsd: null as unknown as number }, { input: -4, costUsd: 1e308 }),
    ).toEqual({
      input: 10,
    });
    expect(turnShare({ input: 1e308, output: 9 }, { input: 5, output: -2 })).toEqual({ output: 9 });
    expect(cumulativeWentDown({ input: -1 }, { input: 5 })).toBe(false);
  });

  /** Every turn1 capture with numbers in it, each usage number replaced by `bad`. */
  const CAPTURES = [
    ["claude-stream-json", "claude"],
    ["codex-jsonl", "codex"],
    ["gemini-stream-json", "gemini"],
    ["qwen-stream-json", "qwen"],
    ["pi-json", "pi"],
    ["opencode-json", "opencode"],
    ["copilot-json", "copilot"],
  ] as const;
  const USAGE_NUMBER = /"(\w*(?:token|cost|input|output|cache|reasoning|total)\w*)":(-?[0-9][0-9.eE+-]*)/gi;

  for (const [format, cli] of CAPTURES) {
    it.each(BAD)(`${cli}: a real capture with every usage number made %d gives believable usage`, (bad) => {
      const original = fixtureStdout(cli, "turn1").toString("utf8");
      const mutated = original.replace(USAGE_NUMBER, (_, key: string) => `"${key}":${bad}`);
      expect(mutated, "the capture has usage numbers to mutate").not.toBe(original);
      const run = feed(createParser(format), [mutated], fixtureEnd(cli, "turn1"));
      const reports = [
        ...run.events.flatMap((event) => (event.type === "usage" ? [event.usage] : [])),
        ...(run.turn.usage === undefined ? [] : [run.turn.usage]),
      ];
      for (const usage of reports) {
        for (const [field, value] of Object.entries(usage)) {
          expect(Number.isFinite(value), `${field} ${value}`).toBe(true);
          expect(value, field).toBeGreaterThanOrEqual(0);
          if (field !== "costUsd") expect(Number.isInteger(value), `${field} ${value}`).toBe(true);
          expect(value, field).toBeLessThanOrEqual(field === "costUsd" ? MAX_COST_USD : MAX_TOKENS);
        }
      }
      // The reply is unaffected.
      expect(run.turn.reply).toBe(runFixture(format, cli, "turn1").turn.reply);
    });
  }
});
