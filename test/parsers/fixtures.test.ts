// Every real capture in test/fixtures, replayed through the framer and its format's parser, with
// the reply, session, usage, status and failure asserted exactly.

import { describe, expect, it } from "vitest";
import { runFixture } from "./run.js";

const CLAUDE_SESSION = "3f0c9a52-6a53-4a8e-9c1e-2f7d5b8e4a10";
const ZERO_CLAUDE_USAGE = { input: 0, cached: 0, cacheWrite: 0, output: 0, costUsd: 0 };

describe("claude fixtures", () => {
  it("turn1: the reply, session, mode and cumulative usage with cost", () => {
    expect(runFixture("claude-stream-json", "claude", "turn1").turn).toEqual({
      status: "completed",
      reply: "MOCK-REPLY-1",
      sessionId: CLAUDE_SESSION,
      mode: "bypassPermissions",
      usage: {
        input: 12245,
        cached: 0,
        cacheWrite: 0,
        output: 6,
        reasoning: 0,
        costUsd: 0.024550000000000002,
      },
      cumulativeUsage: true,
      badLines: 0,
    });
  });

  it("turn2-resume: modelUsage and cost carry on from turn 1", () => {
    expect(runFixture("claude-stream-json", "claude", "turn2-resume").turn).toEqual({
      status: "completed",
      reply: "MOCK-REPLY-2",
      sessionId: CLAUDE_SESSION,
      mode: "bypassPermissions",
      usage: { input: 24518, cached: 0, cacheWrite: 0, output: 13, reasoning: 0, costUsd: 0.049166 },
      cumulativeUsage: true,
      badLines: 0,
    });
  });

  it("auth-fail: subtype success with is_error true is an auth failure, not a reply", () => {
    const { turn, events } = runFixture("claude-stream-json", "claude", "auth-fail");
    expect(turn).toEqual({
      status: "failed",
      reply: "",
      sessionId: CLAUDE_SESSION,
      mode: "bypassPermissions",
      usage: ZERO_CLAUDE_USAGE,
      cumulativeUsage: true,
      failure: { kind: "auth", message: "Invalid API key · Fix external API key" },
      badLines: 0,
    });
    expect(events.filter((event) => event.type === "retry")).toEqual([
      { type: "retry", message: "authentication_failed (401)", attempt: 2, status: 401 },
      { type: "retry", message: "authentication_failed (401)", attempt: 2, status: 401 },
    ]);
    expect(events.some((event) => event.type === "text")).toBe(false);
  });

  it("rate-limit: a terminal 429 is a rate limit", () => {
    expect(runFixture("claude-stream-json", "claude", "rate-limit").turn).toEqual({
      status: "failed",
      reply: "",
      sessionId: CLAUDE_SESSION,
      mode: "bypassPermissions",
      usage: ZERO_CLAUDE_USAGE,
      cumulativeUsage: true,
      failure: {
        kind: "rate-limit",
        message:
          "API Error: Request rejected (429) · This request would exceed the rate limit for your organization of 50 requests per minute. (mock)",
      },
      badLines: 0,
    });
  });

  it("signed-out: Not logged in is an auth failure", () => {
    const { turn } = runFixture("claude-stream-json", "claude", "signed-out");
    expect(turn.status).toBe("failed");
    expect(turn.reply).toBe("");
    expect(turn.failure).toEqual({ kind: "auth", message: "Not logged in · Please run /login" });
  });

  it("root-bypass-refused: stderr only, the root refusal", () => {
    expect(runFixture("claude-stream-json", "claude", "root-bypass-refused").turn).toEqual({
      status: "failed",
      reply: "",
      cumulativeUsage: true,
      failure: {
        kind: "root-refused",
        message:
          "--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons",
      },
      badLines: 0,
    });
  });

  it("stream-json-without-verbose: stderr only, another failure", () => {
    expect(runFixture("claude-stream-json", "claude", "stream-json-without-verbose").turn.failure).toEqual({
      kind: "other",
      message: "Error: When using --print, --output-format=stream-json requires --verbose",
    });
  });
});

describe("codex fixtures", () => {
  it("turn1: the last agent_message, thread id, cumulative usage", () => {
    expect(runFixture("codex-jsonl", "codex", "turn1").turn).toEqual({
      status: "completed",
      reply: "MOCK-REPLY-1",
      sessionId: "01a23648-e58b-7653-a8e1-80985ae37ee1",
      usage: { input: 9147, cached: 0, cacheWrite: 0, output: 6, reasoning: 0 },
      cumulativeUsage: true,
      badLines: 0,
    });
  });

  it("turn2-resume: the same thread, usage carried over", () => {
    expect(runFixture("codex-jsonl", "codex", "turn2-resume").turn).toEqual({
      status: "completed",
      reply: "MOCK-REPLY-2",
      sessionId: "01a23648-e58b-7653-a8e1-80985ae37ee1",
      usage: { input: 18370, cached: 0, cacheWrite: 0, output: 13, reasoning: 0 },
      cumulativeUsage: true,
      badLines: 0,
    });
  });

  it("not-git-repo: completes", () => {
    const { turn } = runFixture("codex-jsonl", "codex", "not-git-repo");
    expect([turn.status, turn.reply, turn.sessionId]).toEqual([
      "completed",
      "MOCK-REPLY-1",
      "01a23648-ee91-7b71-9242-cf98766c945c",
    ]);
  });

  it("auth-fail: Reconnecting lines are retries; turn.failed is the 401", () => {
    const { turn, events } = runFixture("codex-jsonl", "codex", "auth-fail");
    expect(turn).toEqual({
      status: "failed",
      reply: "",
      sessionId: "01a23649-0d26-78d2-8e10-0e7e6c825f6a",
      cumulativeUsage: true,
      failure: {
        kind: "auth",
        message:
          "unexpected status 401 Unauthorized: Incorrect API key provided: sk-mock***. (mock), url: http://127.0.0.1:45509/v1/responses, request id: req_mock_401",
      },
      badLines: 0,
    });
    expect(events.filter((event) => event.type === "retry").map((event) => event.attempt)).toEqual([
      1, 2, 3, 4, 5,
    ]);
  });

  it("signed-out: still reconnecting when scv's timeout ended it", () => {
    const { turn } = runFixture("codex-jsonl", "codex", "signed-out");
    expect(turn).toEqual({
      status: "timeout",
      reply: "",
      sessionId: "01a23647-f58e-75e1-a082-276edfcc8b95",
      cumulativeUsage: true,
      badLines: 0,
    });
  });
});

describe("pi fixtures", () => {
  it("turn1: the last assistant message, header id, usage with cost", () => {
    expect(runFixture("pi-json", "pi", "turn1").turn).toEqual({
      status: "completed",
      reply: "MOCK-REPLY-1",
      sessionId: "01a23649-3e3c-7680-be58-664ee3a8aca0",
      usage: { input: 1359, cached: 0, cacheWrite: 0, output: 6, costUsd: 0 },
      cumulativeUsage: false,
      badLines: 0,
    });
  });

  it("turn2-resume", () => {
    const { turn } = runFixture("pi-json", "pi", "turn2-resume");
    expect([turn.status, turn.reply, turn.usage]).toEqual([
      "completed",
      "MOCK-REPLY-2",
      { input: 1387, cached: 0, cacheWrite: 0, output: 7, costUsd: 0 },
    ]);
  });

  it("auth-fail: exit 0, but stopReason error makes it an auth failure", () => {
    const { turn } = runFixture("pi-json", "pi", "auth-fail");
    expect(turn).toEqual({
      status: "failed",
      reply: "",
      sessionId: "01a23649-d1cb-74bd-b0d4-c33bcae801d4",
      usage: { input: 0, cached: 0, cacheWrite: 0, output: 0, costUsd: 0 },
      cumulativeUsage: false,
      failure: { kind: "auth", message: "401 Incorrect API key provided: sk-mock***. (mock)" },
      badLines: 0,
    });
  });

  it("signed-out: only the header, then stderr and exit 1", () => {
    expect(runFixture("pi-json", "pi", "signed-out").turn).toEqual({
      status: "failed",
      reply: "",
      sessionId: "01a23649-34f9-72a4-aa4d-0c87fcd233db",
      cumulativeUsage: false,
      failure: { kind: "auth", message: "No API key found for the selected model." },
      badLines: 0,
    });
  });
});

describe("gemini fixtures", () => {
  it("turn1: deltas concatenated, init session, stats usage", () => {
    expect(runFixture("gemini-stream-json", "gemini", "turn1").turn).toEqual({
      status: "completed",
      reply: "MOCK-REPLY-1",
      sessionId: "3df7c9fb-01d5-4918-ad13-9da397ec056e",
      usage: { input: 12166, cached: 0, output: 6 },
      cumulativeUsage: false,
      badLines: 0,
    });
  });

  it("turn2-resume", () => {
    const { turn } = runFixture("gemini-stream-json", "gemini", "turn2-resume");
    expect([turn.status, turn.reply, turn.sessionId, turn.usage]).toEqual([
      "completed",
      "MOCK-REPLY-2",
      "3df7c9fb-01d5-4918-ad13-9da397ec056e",
      { input: 12191, cached: 0, output: 7 },
    ]);
  });

  it("auth-fail: result status error with the API's 401", () => {
    const { turn } = runFixture("gemini-stream-json", "gemini", "auth-fail");
    expect(turn.status).toBe("failed");
    expect(turn.reply).toBe("");
    expect(turn.failure?.kind).toBe("auth");
    expect(turn.failure?.message).toMatch(
      /^\[API Error: \{"error":\{"code":401,"message":"API key not valid/,
    );
  });

  it("signed-out: stderr only and exit 41", () => {
    expect(runFixture("gemini-stream-json", "gemini", "signed-out").turn).toEqual({
      status: "failed",
      reply: "",
      cumulativeUsage: false,
      failure: {
        kind: "auth",
        message:
          "Please set an Auth method in your /home/user/.gemini/settings.json or specify one of the following environment variables before running: GEMINI_API_KEY, GOOGLE_GENAI_USE_VERTEXAI, GOOGLE_GENAI_USE_GCA",
      },
      badLines: 0,
    });
  });
});

describe("qwen fixtures", () => {
  it("turn1: result.result, snake_case permission_mode, result usage", () => {
    expect(runFixture("qwen-stream-json", "qwen", "turn1").turn).toEqual({
      status: "completed",
      reply: "MOCK-REPLY-1",
      sessionId: "7db7d536-6945-47a5-b41b-98a8777cef2c",
      mode: "yolo",
      usage: { input: 30585, cached: 0, output: 13 },
      cumulativeUsage: true,
      badLines: 0,
    });
  });

  it("turn2-resume: usage carries on across the resume", () => {
    const { turn } = runFixture("qwen-stream-json", "qwen", "turn2-resume");
    expect([turn.status, turn.reply, turn.usage]).toEqual([
      "completed",
      "MOCK-REPLY-3",
      { input: 61226, cached: 0, output: 30 },
    ]);
  });

  it("auth-fail: error_during_execution with error.message; the echoed error is not the reply", () => {
    const { turn } = runFixture("qwen-stream-json", "qwen", "auth-fail");
    expect([turn.status, turn.reply, turn.failure]).toEqual([
      "failed",
      "",
      { kind: "auth", message: "[API Error: 401 Incorrect API key provided: sk-mock***. (mock)]" },
    ]);
  });

  it("signed-out: a lone error result", () => {
    const { turn } = runFixture("qwen-stream-json", "qwen", "signed-out");
    expect([turn.status, turn.sessionId, turn.failure]).toEqual([
      "failed",
      "3a300378-ed81-4260-855c-2ab0ec65e450",
      {
        kind: "auth",
        message:
          "No auth type is selected. Please configure an auth type (e.g. via settings or `--auth-type`) before running in non-interactive mode.",
      },
    ]);
  });
});

describe("opencode fixtures", () => {
  it("turn1: the step's text, sessionID, step tokens and cost", () => {
    expect(runFixture("opencode-json", "opencode", "turn1").turn).toEqual({
      status: "completed",
      reply: "MOCK-REPLY-2",
      sessionId: "ses_dc9b277faffepcwmd73pn0Rq2h",
      usage: { input: 7673, cached: 0, cacheWrite: 0, output: 7, reasoning: 0, costUsd: 0 },
      cumulativeUsage: false,
      badLines: 0,
    });
  });

  it("turn2-resume", () => {
    const { turn } = runFixture("opencode-json", "opencode", "turn2-resume");
    expect([turn.status, turn.reply, turn.sessionId]).toEqual([
      "completed",
      "MOCK-REPLY-3",
      "ses_dc9b277faffepcwmd73pn0Rq2h",
    ]);
  });

  it("auth-fail: an error line with statusCode 401", () => {
    expect(runFixture("opencode-json", "opencode", "auth-fail").turn).toEqual({
      status: "failed",
      reply: "",
      sessionId: "ses_dc9b21535ffeJC6H9aZMItJvVp",
      cumulativeUsage: false,
      failure: { kind: "auth", message: "Incorrect API key provided: sk-mock***. (mock)" },
      badLines: 0,
    });
  });

  it("signed-out: no output until scv's timeout", () => {
    expect(runFixture("opencode-json", "opencode", "signed-out").turn).toEqual({
      status: "timeout",
      reply: "",
      cumulativeUsage: false,
      badLines: 0,
    });
  });
});

describe("copilot fixtures", () => {
  it("turn1: the last assistant.message, result.sessionId, no token counts", () => {
    expect(runFixture("copilot-json", "copilot", "turn1").turn).toEqual({
      status: "completed",
      reply: "MOCK-REPLY-1",
      sessionId: "6d2b8f0e-1c4a-4e7b-9a35-0f8e2c7d1b54",
      cumulativeUsage: false,
      badLines: 0,
    });
  });

  it("turn2-resume", () => {
    const { turn } = runFixture("copilot-json", "copilot", "turn2-resume");
    expect([turn.status, turn.reply, turn.sessionId]).toEqual([
      "completed",
      "MOCK-REPLY-2",
      "6d2b8f0e-1c4a-4e7b-9a35-0f8e2c7d1b54",
    ]);
  });

  it("auth-fail: session.error authentication, result exitCode 1", () => {
    const { turn, events } = runFixture("copilot-json", "copilot", "auth-fail");
    expect(turn.status).toBe("failed");
    expect(turn.sessionId).toBe("2e66cb88-b04d-43d1-9b50-7eb62bee5ece");
    expect(turn.failure).toEqual({
      kind: "auth",
      message:
        "Authentication failed with provider at http://127.0.0.1:40045/v1 (HTTP 401).\n  Check your COPILOT_PROVIDER_API_KEY, COPILOT_PROVIDER_API_KEY_COMMAND, or COPILOT_PROVIDER_BEARER_TOKEN.",
    });
    expect(events.filter((event) => event.type === "retry")).toHaveLength(2);
  });

  it("signed-out: stderr only", () => {
    expect(runFixture("copilot-json", "copilot", "signed-out").turn.failure).toEqual({
      kind: "auth",
      message: "Error: No authentication information found.",
    });
  });
});

describe("amp fixtures", () => {
  it("signed-out: a login prompt in plain text counts as bad lines; scv's timeout ends it", () => {
    expect(runFixture("amp-stream-json", "amp", "signed-out").turn).toEqual({
      status: "timeout",
      reply: "",
      cumulativeUsage: false,
      badLines: 4,
    });
  });
});
