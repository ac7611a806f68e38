import { describe, expect, it } from "vitest";
import { fixtureStdout, jsonLines, parse, runFixture } from "./run.js";

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

describe("amp signed out: its plain-text login prompt (the lab's capture)", () => {
  const stdout = fixtureStdout("amp", "signed-out").toString("utf8");
  const token = /authToken=([0-9a-f]{64})/.exec(stdout)?.[1] ?? "";
  const signedOut = { kind: "auth", message: "not signed in (it started its browser login)" };

  it("the capture holds the prompt and its one-time token", () => {
    expect(stdout.startsWith("No API key found. Starting login flow...\n")).toBe(true);
    expect(token).toHaveLength(64);
  });

  it("its first line is a terminal auth failure; the rest of the prompt is neither events nor bad lines", () => {
    const { turn, events } = runFixture("amp-stream-json", "amp", "signed-out");
    expect(events).toEqual([
      { type: "error", message: signedOut.message, kind: "auth", terminal: true },
      { type: "turn-end", ok: false },
    ]);
    expect(turn).toEqual({
      status: "failed",
      reply: "",
      cumulativeUsage: false,
      failure: signedOut,
      badLines: 0,
    });
  });

  it("stays an auth failure however the process ended (scv stops amp at the prompt)", () => {
    for (const end of [
      { exitCode: null, signal: "SIGTERM", termination: "cancelled" as const },
      { exitCode: null, signal: "SIGTERM", termination: "timeout" as const },
      { exitCode: 1, signal: null },
      { exitCode: 0, signal: null },
    ]) {
      expect(parse("amp-stream-json", stdout, end).turn, JSON.stringify(end)).toMatchObject({
        status: "failed",
        failure: signedOut,
        badLines: 0,
      });
    }
  });

  it("never repeats the login URL or its token", () => {
    const { turn, events } = runFixture("amp-stream-json", "amp", "signed-out");
    const said = JSON.stringify({ turn, events });
    expect(said).not.toContain(token);
    expect(said).not.toContain("ampcode.com/auth");
  });

  it("is recognised with escapes around it, or cut off after its first line", () => {
    for (const text of [
      "\u001b[1mNo API key found. Starting login flow...\u001b[0m\n",
      "No API key found. Starting login flow",
    ]) {
      expect(parse("amp-stream-json", text, { exitCode: null, signal: "SIGTERM" }).turn).toMatchObject({
        status: "failed",
        failure: signedOut,
      });
    }
  });

  it("the words inside amp's JSON stream (a reply quoting them) are a reply, not a sign-in failure", () => {
    const quoted = "No API key found. Starting login flow...";
    const { turn } = parse(
      "amp-stream-json",
      jsonLines(
        {
          type: "assistant",
          message: { id: "m1", content: [{ type: "text", text: quoted }] },
          session_id: "T-1",
        },
        { type: "result", subtype: "success", is_error: false, result: quoted, session_id: "T-1" },
      ),
    );
    expect(turn).toMatchObject({ status: "completed", reply: quoted, badLines: 0 });
    expect(turn.failure).toBeUndefined();
  });

  it("other plain-text lines are still bad lines", () => {
    expect(parse("amp-stream-json", "Starting…\n", { exitCode: 1, signal: null }).turn).toMatchObject({
      status: "failed",
      badLines: 1,
    });
  });
});
