import { describe, expect, it } from "vitest";
import { runFixture } from "./run.js";

describe("cursor-stream-json (reconstructed from vendor docs)", () => {
  it("reads the reply, chat id, mode, camelCase usage and tool_call events", () => {
    const { turn, events } = runFixture("cursor-stream-json", "cursor", "turn");
    expect(turn).toEqual({
      status: "completed",
      reply: "README.md describes a CLI.",
      sessionId: "c6b62c6f-7ead-4fd6-9922-e952131177ff",
      mode: "default",
      usage: { input: 740, cached: 28160, cacheWrite: 0, output: 307 },
      cumulativeUsage: false,
      badLines: 0,
    });
    expect(events.filter((event) => event.type.startsWith("tool"))).toEqual([
      {
        type: "tool-start",
        id: "toolu_vrtx_01NnjaR886UcE8whekg2MGJd",
        name: "read",
        summary: "read README.md",
      },
      { type: "tool-end", id: "toolu_vrtx_01NnjaR886UcE8whekg2MGJd", name: "read", ok: true },
      {
        type: "tool-start",
        id: "toolu_2",
        name: "shell",
        summary: "$ curl -H 'Authorization: Bearer …' https://api.example.com",
      },
      { type: "tool-end", id: "toolu_2", name: "shell", ok: false },
    ]);
    // The mid-turn message with model_call_id is not repeated as reply text.
    expect(events.filter((event) => event.type === "text")).toEqual([
      { type: "text", text: "README.md describes a CLI." },
    ]);
  });

  it("reads a failure from stderr and the exit code when no JSON came", () => {
    expect(runFixture("cursor-stream-json", "cursor", "signed-out").turn).toEqual({
      status: "failed",
      reply: "",
      cumulativeUsage: false,
      failure: { kind: "auth", message: "Error: Not authenticated" },
      badLines: 0,
    });
  });

  it("fails a stream that stops without a result", () => {
    const { turn } = runFixture("cursor-stream-json", "cursor", "cut-off");
    expect(turn.status).toBe("failed");
    expect(turn.sessionId).toBe("c6b62c6f-7ead-4fd6-9922-e952131177ff");
    expect(turn.failure).toEqual({ kind: "other", message: "Error: Connection lost (stream ended)" });
  });
});
