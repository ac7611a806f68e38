import { describe, expect, it } from "vitest";
import { jsonLines, parse } from "./run.js";

function event(type: string, data: Record<string, unknown>) {
  return { type, data, id: `${type}-id`, timestamp: "2026-01-01T00:00:00Z" };
}

const RESULT_OK = {
  type: "result",
  sessionId: "bff77b8b-cc7e-4b96-b2ae-8f52dbff73ab",
  exitCode: 0,
  usage: { premiumRequests: 1 },
};

describe("copilot-json traps", () => {
  it("takes the last assistant.message that spoke, reports tools and sums assistant.usage", () => {
    const stream = jsonLines(
      event("assistant.message", {
        messageId: "m1",
        content: "",
        toolRequests: [{ toolCallId: "toolu_1", name: "bash" }],
      }),
      event("tool.execution_start", {
        toolCallId: "toolu_1",
        toolName: "bash",
        arguments: { command: "cat sample.txt" },
      }),
      event("tool.execution_complete", { toolCallId: "toolu_1", success: true, result: { content: "x" } }),
      event("assistant.usage", { model: "m", inputTokens: 100, outputTokens: 5 }),
      event("assistant.message", { messageId: "m2", content: "sample.txt says x", toolRequests: [] }),
      event("assistant.usage", { model: "m", inputTokens: 120, outputTokens: 7 }),
      RESULT_OK,
    );
    const { turn, events } = parse("copilot-json", stream);
    expect(turn).toEqual({
      status: "completed",
      reply: "sample.txt says x",
      sessionId: "bff77b8b-cc7e-4b96-b2ae-8f52dbff73ab",
      usage: { input: 220, output: 12 },
      cumulativeUsage: false,
      badLines: 0,
    });
    expect(events.filter((e) => e.type.startsWith("tool"))).toEqual([
      { type: "tool-start", id: "toolu_1", name: "bash", summary: "$ cat sample.txt" },
      { type: "tool-end", id: "toolu_1", name: "bash", ok: true },
    ]);
  });

  it("rebuilds a reply cut off mid-stream from its deltas, and fails without a result", () => {
    const stream = jsonLines(
      event("assistant.message_start", { messageId: "m1" }),
      event("assistant.message_delta", { messageId: "m1", deltaContent: "Half " }),
      event("assistant.message_delta", { messageId: "m1", deltaContent: "a reply" }),
    );
    const { turn } = parse("copilot-json", stream, { exitCode: null, signal: "SIGKILL" });
    expect([turn.status, turn.reply]).toEqual(["failed", "Half a reply"]);
    expect(turn.failure?.message).toBe("was ended by SIGKILL without a final result event");
  });

  it("reads session.error rate_limit with a failing result as a rate limit", () => {
    const stream = jsonLines(
      event("session.error", {
        errorType: "rate_limit",
        message: "Sorry, you've hit a rate limit.",
        statusCode: 429,
      }),
      { ...RESULT_OK, exitCode: 1 },
    );
    expect(parse("copilot-json", stream, { exitCode: 1 }).turn.failure).toEqual({
      kind: "rate-limit",
      message: "Sorry, you've hit a rate limit.",
    });
  });
});
