// `scv usage`'s sums, as a table: usage missing or partial, failed turns, a cost never reported
// against one reported as 0, and days split at UTC midnight.

import { describe, expect, it } from "vitest";
import type { UsageEntry } from "../../src/home/usage-log.js";
import {
  NO_CONVERSATION,
  NO_MODEL,
  type UsageGrouping,
  usageReport,
  usageReportSchema,
} from "../../src/home/usage-totals.js";

function turn(overrides: Partial<UsageEntry>): UsageEntry {
  return {
    v: 1,
    startedAt: "2026-12-03T10:00:00.000Z",
    durationMs: 1000,
    agent: "codex",
    account: "default",
    conversation: "codex-aaaaaa",
    status: "completed",
    exitCode: 0,
    ...overrides,
  };
}

const TURNS: UsageEntry[] = [
  turn({ usage: { input: 100, cached: 50, output: 10, reasoning: 4 }, model: "gpt-5" }),
  // A failed turn that reported nothing.
  turn({ status: "failed", exitCode: 5, failure: "rate-limit", durationMs: 200 }),
  // Claude: a cost of 0 is a cost; just before midnight UTC.
  turn({
    agent: "claude",
    startedAt: "2026-12-03T23:59:59.999Z",
    usage: { input: 7, cacheWrite: 3, output: 1, costUsd: 0 },
    conversation: null,
  }),
  // Just after midnight, with a cost.
  turn({
    agent: "claude",
    startedAt: "2026-12-04T00:00:00.000Z",
    usage: { input: 1, output: 1, costUsd: 0.25 },
    model: "sonnet",
    durationMs: 500,
  }),
  // Usage with no fields at all (a turn stopped before any report).
  turn({ agent: "gemini", status: "cancelled", exitCode: 130, usage: {} }),
];

const SINCE = new Date("2026-12-01T00:00:00Z");
const UNTIL = new Date("2026-12-05T00:00:00Z");

function report(by: UsageGrouping, entries: UsageEntry[] = TURNS) {
  const value = usageReport(entries, { since: SINCE, until: UNTIL, by });
  usageReportSchema().parse(value);
  return value;
}

describe("usage totals", () => {
  it.each([
    [
      "agent",
      [
        [
          "claude",
          { turns: 2, failures: 0, input: 8, cacheWrite: 3, output: 2, costUsd: 0.25, withoutUsage: 0 },
        ],
        [
          "codex",
          {
            turns: 2,
            failures: 1,
            input: 100,
            cached: 50,
            output: 10,
            reasoning: 4,
            costUsd: null,
            withoutUsage: 1,
            durationMs: 1200,
          },
        ],
        ["gemini", { turns: 1, failures: 1, input: 0, costUsd: null, withoutUsage: 1 }],
      ],
    ],
    [
      "day",
      [
        // The claude turn at 23:59:59.999 counts in the 3rd, the next one at midnight in the 4th.
        ["2026-12-03", { turns: 4, failures: 2, input: 107, costUsd: 0 }],
        ["2026-12-04", { turns: 1, failures: 0, input: 1, costUsd: 0.25 }],
      ],
    ],
    [
      "model",
      [
        [NO_MODEL, { turns: 3, failures: 2, costUsd: 0 }],
        ["gpt-5", { turns: 1, input: 100 }],
        ["sonnet", { turns: 1, costUsd: 0.25 }],
      ],
    ],
    [
      "conversation",
      [
        [NO_CONVERSATION, { turns: 1, costUsd: 0 }],
        ["codex-aaaaaa", { turns: 4 }],
      ],
    ],
    // An account is its agent's: codex@work and claude@work are two rows.
    [
      "account",
      [
        ["claude@default", { turns: 2, failures: 0 }],
        ["codex@default", { turns: 2, failures: 1 }],
        ["gemini@default", { turns: 1, failures: 1 }],
      ],
    ],
  ] as const)("--by %s", (by, expected) => {
    const { groups } = report(by);
    expect(groups.map((group) => group.key)).toEqual(expected.map(([key]) => key));
    for (const [index, [, totals]] of expected.entries())
      expect(groups[index]).toMatchObject(totals as object);
  });

  it("totals every turn, whatever the grouping", () => {
    for (const by of ["agent", "day", "model"] as const) {
      expect(report(by).total).toEqual({
        turns: 5,
        failures: 2,
        input: 108,
        cached: 50,
        cacheWrite: 3,
        output: 12,
        reasoning: 4,
        costUsd: 0.25,
        withoutUsage: 2,
        durationMs: 3700,
      });
    }
  });

  it("has no cost where no turn reported one, and zeros for no turns", () => {
    expect(report("agent", TURNS.slice(0, 2)).total.costUsd).toBeNull();
    expect(report("agent", [TURNS[2] as UsageEntry]).total.costUsd).toBe(0);
    expect(report("agent", [])).toMatchObject({ groups: [], total: { turns: 0, costUsd: null } });
  });

  it("saturates instead of overflowing", () => {
    const huge = turn({ usage: { input: 1e15, costUsd: 1e9 } });
    expect(report("agent", [huge, huge, huge]).total).toMatchObject({ input: 1e15, costUsd: 1e9 });
  });
});
