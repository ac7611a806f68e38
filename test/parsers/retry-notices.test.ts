// Retry notices as retry events, from each CLI's real bytes: what failed, which attempt of how many,
// how long until the next, and whether a credential was refused (the early verdict's cue).
import { describe, expect, it } from "vitest";
import type { TurnEvent } from "../../src/parsers/event-types.js";
import {
  createParser,
  endWith,
  feed,
  fixtureStderr,
  jsonLines,
  parse,
  runFixture,
  stderrEvents,
} from "./run.js";

const QUOTA = "You exceeded your current quota, please check your plan and billing details. (mock)";

function retries(events: readonly TurnEvent[]): TurnEvent[] {
  return events.filter((event) => event.type === "retry");
}

describe("Gemini CLI's retry notices on stderr", () => {
  it("each `Attempt n failed: … Retrying after Nms...` is a rate-limit retry (real 0.61.0 stderr)", () => {
    const parser = createParser("gemini-stream-json");
    const events = stderrEvents(parser, fixtureStderr("gemini", "rate-limit-retrying"));
    const message = `${QUOTA} Suggested retry after 1s.`;
    expect(events).toEqual([
      { type: "retry", message, attempt: 1, delayMs: 5399, kind: "rate-limit" },
      { type: "retry", message, attempt: 2, delayMs: 10488, kind: "rate-limit" },
      { type: "retry", message, attempt: 3, delayMs: 23927, kind: "rate-limit" },
      { type: "retry", message, attempt: 4, delayMs: 32702, kind: "rate-limit" },
    ]);
  });

  it("`… Max attempts reached` is the last attempt, not a retry (real capture)", () => {
    const parser = createParser("gemini-stream-json");
    expect(stderrEvents(parser, fixtureStderr("gemini", "rate-limit"))).toEqual([]);
  });

  it("`Attempt n failed with status 503. Retrying with backoff...` carries its status", () => {
    const parser = createParser("gemini-stream-json");
    const stderr = [
      "Attempt 2 failed with status 503. Retrying with backoff... ApiError: {",
      "  status: 503",
      "}",
      "Attempt 3 failed with status 429. Retrying with backoff...",
      "",
    ].join("\n");
    expect(stderrEvents(parser, stderr)).toEqual([
      { type: "retry", message: "status 503", attempt: 2, status: 503 },
      { type: "retry", message: "status 429", attempt: 3, status: 429, kind: "rate-limit" },
    ]);
  });

  it("the last retry is the clue when the turn ends without a result (scv's --timeout)", () => {
    const parser = createParser("gemini-stream-json");
    stderrEvents(parser, fixtureStderr("gemini", "rate-limit-retrying"));
    const run = feed(parser, [], endWith({ exitCode: null, signal: "SIGTERM", termination: "timeout" }));
    expect(run.turn.status).toBe("timeout");
  });
});

describe("retry notices on stdout", () => {
  it("claude api_retry: attempt of max_retries, the delay, 429 as a rate limit (real capture)", () => {
    const first = retries(runFixture("claude-stream-json", "claude", "rate-limit").events)[0];
    expect(first).toEqual({
      type: "retry",
      message: "rate_limit (429)",
      attempt: 1,
      maxAttempts: 2,
      delayMs: 1207,
      status: 429,
      kind: "rate-limit",
    });
  });

  it("claude api_retry with 403 is not a refused credential: 403 also refuses a model", () => {
    const stream = jsonLines({
      type: "system",
      subtype: "api_retry",
      attempt: 1,
      max_retries: 10,
      retry_delay_ms: 500,
      error_status: 403,
      error: "authentication_failed",
      session_id: "s1",
    });
    const [retry] = retries(parse("claude-stream-json", stream).events);
    expect(retry).toEqual({
      type: "retry",
      message: "authentication_failed (403)",
      attempt: 1,
      maxAttempts: 10,
      delayMs: 500,
      status: 403,
    });
  });

  it("pi auto_retry_start: attempt of maxAttempts, the delay, the status its message begins with (real capture)", () => {
    expect(retries(runFixture("pi-json", "pi", "rate-limit").events)[0]).toEqual({
      type: "retry",
      message: "429 Rate limit reached for requests (mock)",
      attempt: 1,
      maxAttempts: 3,
      delayMs: 2000,
      status: 429,
      kind: "rate-limit",
    });
  });

  it("codex Reconnecting n/m (…429…): the reason, attempt of max, a rate limit", () => {
    const stream = jsonLines({
      type: "error",
      message: "Reconnecting... 2/5 (unexpected status 429 Too Many Requests: Rate limit reached (mock))",
    });
    expect(retries(parse("codex-jsonl", stream).events)).toEqual([
      {
        type: "retry",
        message: "unexpected status 429 Too Many Requests: Rate limit reached (mock)",
        attempt: 2,
        maxAttempts: 5,
        status: 429,
        kind: "rate-limit",
      },
    ]);
  });

  it("copilot: a 401 outside bring-your-own-key mode may be a GitHub token its retry refreshes", () => {
    const stream = jsonLines(
      { type: "model.call_failure", data: { statusCode: 401, retryAttempt: 0, isByok: false } },
      { type: "assistant.turn_retry", data: { reason: "transient_auth_error" } },
    );
    expect(retries(parse("copilot-json", stream).events)).toEqual([
      { type: "retry", message: "transient_auth_error", attempt: 1, status: 401 },
    ]);
  });
});

describe("a CLI that cannot reach its endpoint (real captures against a closed loopback port)", () => {
  it("Codex 0.171.0's `Reconnecting... waiting for network (…)` is a retry of kind unreachable", () => {
    const run = runFixture("codex-jsonl", "codex", "unreachable");
    const expected = {
      type: "retry",
      message: "Connection failed: error sending request",
      kind: "unreachable",
    };
    expect(retries(run.events)).toEqual([expected, expected, expected, expected]);
    expect(run.turn.status).toBe("timeout");
  });

  it("OpenCode 1.18.33's `stream error` log lines that cannot connect are retries of kind unreachable", () => {
    for (const [name, where] of [
      ["unreachable", "mock/mock-model"],
      ["unreachable-default-model", "opencode/big-pickle"],
    ] as const) {
      const parser = createParser("opencode-json");
      const events = stderrEvents(parser, fixtureStderr("opencode", name));
      // The title request's last line (AI_RetryError: Failed after 3 attempts. Last error: …) too.
      expect(events, name).toHaveLength(5);
      expect(events[0]).toEqual({
        type: "retry",
        message: `${where}: Unable to connect. Is the computer able to access the url?`,
        kind: "unreachable",
      });
    }
  });

  it("OpenCode's other stream errors (a 401, a 429) are not read from its log: stdout says them", () => {
    const parser = createParser("opencode-json");
    const line = (error: string) =>
      `timestamp=2026-12-07T14:09:44.592Z level=ERROR run=e07e4483 message="stream error" providerID=mock modelID=mock-model small=true error.error="${error}"`;
    expect(parser.stderr?.(line("AI_APICallError: Incorrect API key provided: sk-mock***. (mock)"))).toEqual(
      [],
    );
    expect(parser.stderr?.(line("AI_APICallError: Rate limit reached for requests per min (RPM)"))).toEqual(
      [],
    );
    expect(parser.stderr?.('level=INFO message="stream error Cannot connect to API"')).toEqual([]);
  });
});
