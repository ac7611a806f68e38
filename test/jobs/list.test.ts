// A running turn's record as `scv ps` lists it: its account, tokens so far and state, from what the
// turn wrote in its record (a question asked on its terminal, a wait for a rate limit's reset).

import { describe, expect, it } from "vitest";
import type { RunningTurnRecord } from "../../src/home/turn-records.js";
import { runningTurn } from "../../src/jobs/list.js";

const NOW = Date.parse("2026-12-07T12:00:00Z");

function record(overrides: Partial<RunningTurnRecord>): RunningTurnRecord {
  return {
    version: 1,
    handle: "gemini-k3f9x2",
    tag: "gemini-k3f9x2.a1b2c3d4",
    agent: "gemini",
    prompt: "use a tool",
    cwd: "/work",
    depth: 0,
    background: false,
    host: "here",
    startedAt: "2026-12-07T11:59:00Z",
    scv: { pid: 10, startTime: "1" },
    ...overrides,
  };
}

describe("a running turn as listed", () => {
  it("is running, in its default account, with no tokens before the CLI reports any", () => {
    expect(runningTurn(record({}), {}, NOW)).toMatchObject({
      account: "default",
      tokens: null,
      state: "running",
      question: null,
      coolingUntil: null,
      elapsedMs: 60_000,
    });
  });

  it("needs approval while its agent's question waits on its terminal", () => {
    const listed = runningTurn(
      record({ account: "work", tokens: 1234, asking: { tool: "execute", summary: "$ touch x" } }),
      {},
      NOW,
    );
    expect(listed).toMatchObject({
      account: "work",
      tokens: 1234,
      state: "needs-approval",
      question: "gemini asks to run execute: $ touch x",
      approval: null,
    });
  });

  it("is cooling while it waits for a rate limit's reset", () => {
    const listed = runningTurn(
      record({ background: true, cooling: { until: "2026-12-07T12:05:00Z", reason: "429" } }),
      { SCV_HOME: "/nonexistent" },
      NOW,
    );
    expect(listed).toMatchObject({ state: "cooling", coolingUntil: "2026-12-07T12:05:00Z" });
  });
});
