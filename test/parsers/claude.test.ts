// Claude Code's traps, on real captures and on captures reconstructed from them (see the fixture's .json note).

import { describe, expect, it } from "vitest";
import { turnShare } from "../../src/parsers/usage.js";
import { jsonLines, parse, runFixture } from "./run.js";

const SESSION = "3f0c9a52-6a53-4a8e-9c1e-2f7d5b8e4a10";

describe("claude-stream-json traps", () => {
  it("reads hook lines before init and skips ANSI junk, counting the bare junk line", () => {
    const { turn, events } = runFixture("claude-stream-json", "claude", "hooks-and-ansi");
    expect(turn).toMatchObject({
      status: "completed",
      reply: "MOCK-REPLY-1",
      sessionId: SESSION,
      mode: "bypassPermissions",
      badLines: 1,
    });
    // The session is known from the first hook line, before init.
    expect(events[0]).toEqual({ type: "session", sessionId: SESSION });
  });

  it("rebuilds a reply that result.result cut to its first block, leaving out tool chatter and subagents", () => {
    const { turn, events } = runFixture("claude-stream-json", "claude", "split-reply");
    expect(turn.status).toBe("completed");
    expect(turn.reply).toBe("There is one open pull request, #12, which fixes rate limits.");
    expect(events.filter((event) => event.type === "tool-start" || event.type === "tool-end")).toEqual([
      { type: "tool-start", id: "toolu_01", name: "Bash", summary: "$ GH_TOKEN=… gh pr list --limit 5" },
      { type: "tool-end", id: "toolu_01", name: "Bash", ok: true },
    ]);
    expect(turn.failure).toBeUndefined();
  });

  it("rebuilds the reply when result.result is empty", () => {
    const { turn } = runFixture("claude-stream-json", "claude", "empty-result");
    expect([turn.status, turn.reply]).toEqual(["completed", "MOCK-REPLY-1"]);
  });

  it("does not call a stream without its result a success, even with exit 0", () => {
    const { turn } = runFixture("claude-stream-json", "claude", "no-result");
    expect(turn.status).toBe("failed");
    expect(turn.reply).toBe("MOCK-REPLY-1");
    expect(turn.failure).toEqual({
      kind: "other",
      message: "exited with code 0 without a final result event",
    });
  });

  it("reports a refusal stop reason as declined", () => {
    const { turn } = runFixture("claude-stream-json", "claude", "refusal");
    expect(turn.status).toBe("declined");
    expect(turn.reply).toBe("I can't help with that.");
    expect(turn.failure).toBeUndefined();
  });

  it("keeps the quota window rate_limit_event reports, for the account's status", () => {
    expect(runFixture("claude-stream-json", "claude", "usage-limit").turn.quota).toEqual([
      { window: "five_hour", status: "rejected", utilization: 1, resetsAt: "2027-02-04T01:00:00.000Z" },
    ]);
    // A turn whose CLI reported none has none.
    expect(runFixture("claude-stream-json", "claude", "turn1").turn.quota).toBeUndefined();
  });

  it("takes a subscription limit's reset time from rate_limit_event", () => {
    const { turn, events } = runFixture("claude-stream-json", "claude", "usage-limit");
    expect(turn.status).toBe("failed");
    expect(turn.failure).toEqual({
      kind: "rate-limit",
      message: "You've hit your limit · resets Feb 7, 11am (Asia/Seoul)",
      resetsAt: "2027-02-04T01:00:00.000Z",
    });
    expect(events).toContainEqual({
      type: "error",
      message: "usage limit reached",
      kind: "rate-limit",
      terminal: false,
      resetsAt: "2027-02-04T01:00:00.000Z",
    });
  });

  it("takes the reset time from the text when no rate_limit_event gave one", () => {
    const stream = jsonLines(
      { type: "system", subtype: "init", session_id: "s", permissionMode: "default" },
      {
        type: "assistant",
        message: { content: [{ type: "text", text: "limit" }] },
        error: "rate_limit",
        session_id: "s",
      },
      {
        type: "result",
        subtype: "success",
        is_error: true,
        result: "Claude AI usage limit reached|1755615600",
      },
    );
    expect(parse("claude-stream-json", stream, { exitCode: 1 }).turn.failure).toEqual({
      kind: "rate-limit",
      message: "Claude AI usage limit reached|1755615600",
      resetsAt: "2025-08-19T15:00:00.000Z",
    });
  });

  it("keeps a successful reply that discusses rate limits and invalid API keys a success", () => {
    const { turn } = runFixture("claude-stream-json", "claude", "reply-about-errors");
    expect(turn.status).toBe("completed");
    expect(turn.failure).toBeUndefined();
    expect(turn.reply).toContain("rate limit (429, RESOURCE_EXHAUSTED)");
  });

  it("completes after retried 429s when the result says success", () => {
    const stream = jsonLines(
      { type: "system", subtype: "init", session_id: "s", permissionMode: "default" },
      {
        type: "system",
        subtype: "api_retry",
        attempt: 1,
        max_retries: 10,
        error_status: 429,
        error: "rate_limit",
      },
      { type: "assistant", message: { id: "m", content: [{ type: "text", text: "ok" }] }, session_id: "s" },
      { type: "result", subtype: "success", is_error: false, result: "ok", session_id: "s" },
    );
    const { turn } = parse("claude-stream-json", stream);
    expect([turn.status, turn.reply, turn.failure]).toEqual(["completed", "ok", undefined]);
  });

  it("reads a billing error as billing, not a rate limit", () => {
    const stream = jsonLines(
      {
        type: "assistant",
        message: { content: [{ type: "text", text: "x" }] },
        error: "billing_error",
        api_error_status: 400,
      },
      { type: "result", subtype: "success", is_error: true, result: "Credit balance is too low" },
    );
    expect(parse("claude-stream-json", stream, { exitCode: 1 }).turn.failure).toEqual({
      kind: "billing",
      message: "Credit balance is too low",
    });
  });

  it("reports error subtypes with their errors[]", () => {
    const stream = jsonLines({
      type: "result",
      subtype: "error_during_execution",
      is_error: true,
      errors: ["No conversation found with session ID: 1234"],
      session_id: "s",
    });
    const { turn } = parse("claude-stream-json", stream, { exitCode: 1 });
    expect(turn.failure).toEqual({ kind: "other", message: "No conversation found with session ID: 1234" });
    expect(turn.sessionId).toBe("s");
  });

  it("takes --json-schema's structured_output as the reply, over the text the model wrote after it", () => {
    // Real captures (2.1.332, the mock calling StructuredOutput): the result's `result` is the text the
    // model wrote after its call, or the object as JSON when it wrote none.
    const findings = {
      verdict: "request-changes",
      summary: "Adds a greeting; the loop is off by one.",
      findings: [
        {
          severity: "blocker",
          file: "app.js",
          line: 2,
          endLine: null,
          title: "Off-by-one in the loop",
          body: "i <= n reads past the end of the array.",
          suggestion: "i < n",
        },
      ],
    };
    for (const name of ["review-structured-then-text", "review-structured"]) {
      const { turn } = runFixture("claude-stream-json", "claude", name);
      expect(turn.status, name).toBe("completed");
      expect(JSON.parse(turn.reply), name).toEqual(findings);
    }
  });

  it("follows permission mode changes reported by system/status", () => {
    const stream = jsonLines(
      { type: "system", subtype: "init", session_id: "s", permissionMode: "default" },
      { type: "system", subtype: "status", status: null, permissionMode: "plan", session_id: "s" },
      { type: "result", subtype: "success", is_error: false, result: "ok", session_id: "s" },
    );
    expect(parse("claude-stream-json", stream).turn.mode).toBe("plan");
  });

  it("turns the cumulative totals of two real turns into the second turn's share", () => {
    const first = runFixture("claude-stream-json", "claude", "turn1").turn.usage;
    const second = runFixture("claude-stream-json", "claude", "turn2-resume").turn.usage;
    expect(second && turnShare(second, first)).toEqual({
      input: 12273,
      cached: 0,
      cacheWrite: 0,
      output: 7,
      reasoning: 0,
      costUsd: 0.024616,
    });
  });
});
