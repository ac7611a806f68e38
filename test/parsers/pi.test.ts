import { describe, expect, it } from "vitest";
import { jsonLines, parse, runFixture } from "./run.js";

const HEADER = { type: "session", version: 3, id: "uuid-1", timestamp: "t", cwd: "/p" };

function assistantEnd(text: string, stopReason: string, extra: Record<string, unknown> = {}) {
  return {
    type: "message_end",
    message: {
      role: "assistant",
      content: [{ type: "text", text }],
      usage: { input: 10, output: 2, cacheRead: 5, cacheWrite: 0, totalTokens: 17, cost: { total: 0.001 } },
      stopReason,
      ...extra,
    },
  };
}

describe("pi-json traps", () => {
  it("reads a 429 as a rate limit although pi exits 0", () => {
    const { turn, events } = runFixture("pi-json", "pi", "rate-limit");
    expect(turn.status).toBe("failed");
    expect(turn.failure).toEqual({
      kind: "rate-limit",
      message: "429 Rate limit reached for requests (mock)",
    });
    expect(events.filter((event) => event.type === "retry").map((event) => event.attempt)).toEqual([1, 2, 3]);
  });

  it("sums usage over the run's assistant messages and reports tools", () => {
    const stream = jsonLines(
      HEADER,
      { type: "agent_start" },
      assistantEnd("", "toolUse"),
      { type: "tool_execution_start", toolCallId: "c1", toolName: "bash", args: { command: "npm test" } },
      { type: "tool_execution_end", toolCallId: "c1", toolName: "bash", result: {}, isError: true },
      assistantEnd("Tests fail in a.ts.", "stop"),
      { type: "agent_end", messages: [] },
    );
    const { turn, events } = parse("pi-json", stream);
    expect(turn).toEqual({
      status: "completed",
      reply: "Tests fail in a.ts.",
      sessionId: "uuid-1",
      usage: { input: 20, cached: 10, cacheWrite: 0, output: 4, costUsd: 0.002 },
      cumulativeUsage: false,
      badLines: 0,
    });
    expect(events.filter((event) => event.type.startsWith("tool"))).toEqual([
      { type: "tool-start", id: "c1", name: "bash", summary: "$ npm test" },
      { type: "tool-end", id: "c1", name: "bash", ok: false },
    ]);
  });

  it("fails an aborted run", () => {
    const stream = jsonLines(HEADER, assistantEnd("partial", "aborted"), { type: "agent_end" });
    const { turn } = parse("pi-json", stream);
    expect([turn.status, turn.failure]).toEqual([
      "failed",
      { kind: "other", message: "the model request ended with stopReason aborted" },
    ]);
  });

  it("does not complete without agent_end", () => {
    const stream = jsonLines(HEADER, assistantEnd("hello", "stop"));
    expect(parse("pi-json", stream).turn.status).toBe("failed");
  });
});
