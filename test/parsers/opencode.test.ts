import { describe, expect, it } from "vitest";
import { jsonLines, parse } from "./run.js";

const S = "ses_1";

function line(type: string, part: Record<string, unknown>) {
  return { type, timestamp: 1, sessionID: S, part };
}

function stepFinish(reason: string, input: number, output: number, cost: number) {
  return line("step_finish", {
    type: "step-finish",
    reason,
    cost,
    tokens: { input, output, reasoning: 0, cache: { read: 1, write: 0 } },
  });
}

describe("opencode-json traps", () => {
  it("takes the last step's text, sums steps' usage, and reports finished tools", () => {
    const stream = jsonLines(
      line("step_start", { type: "step-start" }),
      line("text", { type: "text", text: "Checking the tests." }),
      line("tool_use", {
        type: "tool",
        tool: "bash",
        callID: "c1",
        state: { status: "completed", input: { command: "npm test" }, output: "ok" },
      }),
      stepFinish("tool-calls", 100, 10, 0.01),
      line("step_start", { type: "step-start" }),
      line("text", { type: "text", text: "All tests pass." }),
      stepFinish("stop", 200, 20, 0.02),
    );
    const { turn, events } = parse("opencode-json", stream);
    expect(turn).toEqual({
      status: "completed",
      reply: "All tests pass.",
      sessionId: S,
      usage: { input: 300, cached: 2, cacheWrite: 0, output: 30, reasoning: 0, costUsd: 0.03 },
      cumulativeUsage: false,
      badLines: 0,
    });
    expect(events.filter((event) => event.type.startsWith("tool"))).toEqual([
      { type: "tool-start", id: "c1", name: "bash", summary: "$ npm test" },
      { type: "tool-end", id: "c1", name: "bash", ok: true },
    ]);
  });

  it("keeps the earlier step's text when the closing step says nothing", () => {
    const stream = jsonLines(
      line("step_start", {}),
      line("text", { type: "text", text: "Done." }),
      stepFinish("tool-calls", 1, 1, 0),
      line("step_start", {}),
      stepFinish("stop", 1, 1, 0),
    );
    expect(parse("opencode-json", stream).turn.reply).toBe("Done.");
  });

  it("does not complete while steps still end in tool-calls", () => {
    const stream = jsonLines(line("step_start", {}), stepFinish("tool-calls", 1, 1, 0));
    expect(parse("opencode-json", stream).turn.status).toBe("failed");
  });

  it("lets an error after a finished step fail the turn", () => {
    const stream = jsonLines(line("step_start", {}), stepFinish("stop", 1, 1, 0), {
      type: "error",
      timestamp: 2,
      sessionID: S,
      error: { name: "APIError", data: { message: "Too Many Requests", statusCode: 429 } },
    });
    expect(parse("opencode-json", stream, { exitCode: 1 }).turn.failure).toEqual({
      kind: "rate-limit",
      message: "Too Many Requests",
    });
  });

  it("accepts the newer done event as the end", () => {
    const stream = jsonLines(line("text", { type: "text", text: "hi" }), {
      type: "done",
      sessionID: S,
      reason: "idle",
      rejected: [],
    });
    expect(parse("opencode-json", stream).turn.status).toBe("completed");
  });
});
