import { describe, expect, it } from "vitest";
import { parse } from "./run.js";

describe("text parser", () => {
  it("is the reply with exit 0, blank lines inside kept", () => {
    expect(parse("text", "Hello\n\nWorld\n").turn).toEqual({
      status: "completed",
      reply: "Hello\n\nWorld",
      cumulativeUsage: false,
      badLines: 0,
    });
  });

  it("fails with a non-zero exit and takes the failure from stderr, not stdout", () => {
    const { turn } = parse("text", "You hit a rate limit (429), try later.\n", {
      exitCode: 1,
      stderrTail: "Warning: something cosmetic\nError: invalid API key\n",
    });
    expect([turn.status, turn.failure]).toEqual([
      "failed",
      { kind: "auth", message: "Error: invalid API key" },
    ]);
  });

  it("says how the process ended when stderr is silent", () => {
    expect(parse("text", "", { exitCode: 3 }).turn.failure).toEqual({
      kind: "other",
      message: "exited with code 3",
    });
  });

  it("reports scv's own timeout", () => {
    expect(
      parse("text", "partial", { exitCode: null, signal: "SIGTERM", termination: "timeout" }).turn.status,
    ).toBe("timeout");
  });
});
