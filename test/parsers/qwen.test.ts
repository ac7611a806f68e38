import { describe, expect, it } from "vitest";
import { jsonLines, parse } from "./run.js";

describe("qwen-stream-json traps", () => {
  it("reports system/retry notices and completes after them", () => {
    const stream = jsonLines(
      { type: "system", subtype: "init", session_id: "q1", permission_mode: "default" },
      {
        type: "system",
        subtype: "retry",
        session_id: "q1",
        data: { attempt: 1, maxRetries: 10, delayMs: 60000 },
      },
      { type: "assistant", session_id: "q1", message: { id: "m1", content: [{ type: "text", text: "hi" }] } },
      {
        type: "result",
        subtype: "success",
        is_error: false,
        result: "hi",
        session_id: "q1",
        usage: { input_tokens: 5, output_tokens: 1 },
      },
    );
    const { turn, events } = parse("qwen-stream-json", stream);
    expect(events).toContainEqual({
      type: "retry",
      message: "retrying the model request",
      attempt: 1,
      maxAttempts: 10,
      delayMs: 60000,
    });
    expect(turn).toEqual({
      status: "completed",
      reply: "hi",
      sessionId: "q1",
      mode: "default",
      usage: { input: 5, output: 1 },
      cumulativeUsage: true,
      badLines: 0,
    });
  });

  it("reads a 429 in error.message as a rate limit", () => {
    const stream = jsonLines({
      type: "result",
      subtype: "error_during_execution",
      is_error: true,
      session_id: "q1",
      error: { message: "[API Error: 429 Rate limit exceeded (mock)]" },
    });
    expect(parse("qwen-stream-json", stream, { exitCode: 1 }).turn.failure).toEqual({
      kind: "rate-limit",
      message: "[API Error: 429 Rate limit exceeded (mock)]",
    });
  });
});
