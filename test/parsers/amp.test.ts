import { describe, expect, it } from "vitest";
import { runFixture } from "./run.js";

describe("amp-stream-json (reconstructed from vendor types and a quoted capture)", () => {
  it("reads the reply and thread id, and sums usage over the assistant messages", () => {
    const { turn, events } = runFixture("amp-stream-json", "amp", "turn");
    expect(turn).toEqual({
      status: "completed",
      reply: "4",
      sessionId: "T-019e47a8-5090-7538-9035-f2fde26859b7",
      usage: { input: 12, cached: 28009, cacheWrite: 5, output: 33 },
      cumulativeUsage: false,
      badLines: 0,
    });
    expect(events.filter((event) => event.type.startsWith("tool"))).toEqual([
      { type: "tool-start", id: "toolu_a1", name: "Bash", summary: "$ echo $((2+2))" },
      { type: "tool-end", id: "toolu_a1", name: "Bash", ok: true },
    ]);
  });

  it("reads the error string of a failed result; a credit balance is billing", () => {
    expect(runFixture("amp-stream-json", "amp", "error-result").turn.failure).toEqual({
      kind: "billing",
      message: "Insufficient credit balance. Add credits at ampcode.com/settings to continue.",
    });
  });
});
