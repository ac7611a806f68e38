// Every real capture in test/fixtures, replayed through the framer and its format's parser, with
// the whole turn (reply, session, mode, usage, status, failure, bad lines) asserted exactly.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { adapter, type OutputFormatKind } from "../../src/adapters.js";
import type { ParsedTurn } from "../../src/parsers/event-types.js";
import { FIXTURES, fixtureStdout, runFixture } from "./run.js";

const CLAUDE = "3f0c9a52-6a53-4a8e-9c1e-2f7d5b8e4a10";
const CLAUDE_ZERO_USAGE = { input: 0, cached: 0, cacheWrite: 0, output: 0, costUsd: 0 };
const CODEX_THREAD = "01a23648-e58b-7653-a8e1-80985ae37ee1";
const PI_ZERO_USAGE = { input: 0, cached: 0, cacheWrite: 0, output: 0, costUsd: 0 };
const QWEN = "7db7d536-6945-47a5-b41b-98a8777cef2c";
const OPENCODE = "ses_dc9b277faffepcwmd73pn0Rq2h";
const COPILOT = "6d2b8f0e-1c4a-4e7b-9a35-0f8e2c7d1b54";
const GEMINI = "3df7c9fb-01d5-4918-ad13-9da397ec056e";

/** The long reply a reconstructed capture was built with: Codex's last-message file, or the
 * `result` of Claude's result line. */
function readFixtureReply(cli: "claude" | "codex", name: string): string {
  if (cli === "codex") return readFileSync(`${FIXTURES}codex/${name}.last-message.txt`, "utf8");
  const lines = fixtureStdout(cli, name).toString("utf8").trim().split("\n");
  return (JSON.parse(lines.at(-1) ?? "{}") as { result: string }).result;
}

function claudeFailure(failure: ParsedTurn["failure"]): ParsedTurn {
  return {
    status: "failed",
    reply: "",
    sessionId: CLAUDE,
    mode: "bypassPermissions",
    usage: CLAUDE_ZERO_USAGE,
    cumulativeUsage: true,
    failure,
    badLines: 0,
  };
}

function stderrOnly(cumulativeUsage: boolean, failure: ParsedTurn["failure"]): ParsedTurn {
  return { status: "failed", reply: "", cumulativeUsage, failure, badLines: 0 };
}

const EXPECTED: readonly (readonly [OutputFormatKind, string, string, ParsedTurn])[] = [
  // `-c` of a session the CLI does not have: its own words, which the row's resume.lost reads.
  [
    "gemini-stream-json",
    "gemini",
    "resume-lost",
    stderrOnly(false, {
      kind: "other",
      message: 'Error resuming session: Invalid session identifier "5c78984d-0521-4e1d-bf52-219fd3920ec8".',
    }),
  ],
  [
    "qwen-stream-json",
    "qwen",
    "resume-lost",
    stderrOnly(true, {
      kind: "other",
      message:
        "exited with code 1 without a final result event (stderr: No saved session found with ID 287579ff-2a27-413f-9738-407c48c6cd85. Run `qwen --resume` without an ID to choose from existing sessions.)",
    }),
  ],
  [
    "claude-stream-json",
    "claude",
    "turn1",
    {
      status: "completed",
      reply: "MOCK-REPLY-1",
      sessionId: CLAUDE,
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
    },
  ],
  [
    "claude-stream-json",
    "claude",
    "turn2-resume",
    {
      status: "completed",
      reply: "MOCK-REPLY-2",
      sessionId: CLAUDE,
      mode: "bypassPermissions",
      // modelUsage and total_cost_usd carry on from turn 1.
      usage: { input: 24518, cached: 0, cacheWrite: 0, output: 13, reasoning: 0, costUsd: 0.049166 },
      cumulativeUsage: true,
      badLines: 0,
    },
  ],
  // Long tool outputs, cut by the framer before decoding: the turn reads the same.
  [
    "claude-stream-json",
    "claude",
    "tool-outputs",
    {
      status: "completed",
      reply: readFixtureReply("claude", "tool-outputs"),
      sessionId: CLAUDE,
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
    },
  ],
  // subtype "success" with is_error true: failures, not replies.
  [
    "claude-stream-json",
    "claude",
    "auth-fail",
    claudeFailure({ kind: "auth", message: "Invalid API key · Fix external API key" }),
  ],
  [
    "claude-stream-json",
    "claude",
    "rate-limit",
    claudeFailure({
      kind: "rate-limit",
      message:
        "API Error: Request rejected (429) · This request would exceed the rate limit for your organization of 50 requests per minute. (mock)",
    }),
  ],
  // A model the account cannot use: "model", not "auth", although Claude says "Failed to authenticate".
  [
    "claude-stream-json",
    "claude",
    "model-not-found",
    {
      ...claudeFailure({
        kind: "model",
        message:
          "There's an issue with the selected model (claude-sonnet-5-5). It may not exist or you may not have access to it. Run --model to pick a different model.",
      }),
      mode: "default",
    },
  ],
  [
    "claude-stream-json",
    "claude",
    "model-denied",
    {
      ...claudeFailure({
        kind: "model",
        message:
          "Failed to authenticate. API Error: 403 Your organization does not have access to model claude-mock-denied. (mock)",
      }),
      mode: "default",
    },
  ],
  [
    "claude-stream-json",
    "claude",
    "signed-out",
    claudeFailure({ kind: "auth", message: "Not logged in · Please run /login" }),
  ],
  [
    "claude-stream-json",
    "claude",
    "root-bypass-refused",
    stderrOnly(true, {
      kind: "root-refused",
      message: "--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons",
    }),
  ],
  [
    "claude-stream-json",
    "claude",
    "stream-json-without-verbose",
    stderrOnly(true, {
      kind: "other",
      message: "Error: When using --print, --output-format=stream-json requires --verbose",
    }),
  ],
  [
    "codex-jsonl",
    "codex",
    "turn1",
    {
      status: "completed",
      reply: "MOCK-REPLY-1",
      sessionId: CODEX_THREAD,
      usage: { input: 9147, cached: 0, cacheWrite: 0, output: 6, reasoning: 0 },
      cumulativeUsage: true,
      badLines: 0,
    },
  ],
  [
    "codex-jsonl",
    "codex",
    "tool-items",
    {
      status: "completed",
      reply: readFixtureReply("codex", "tool-items"),
      sessionId: CODEX_THREAD,
      usage: { input: 9147, cached: 0, cacheWrite: 0, output: 6, reasoning: 0 },
      cumulativeUsage: true,
      badLines: 0,
    },
  ],
  [
    "codex-jsonl",
    "codex",
    "turn2-resume",
    {
      status: "completed",
      reply: "MOCK-REPLY-2",
      sessionId: CODEX_THREAD,
      usage: { input: 18370, cached: 0, cacheWrite: 0, output: 13, reasoning: 0 },
      cumulativeUsage: true,
      badLines: 0,
    },
  ],
  [
    "codex-jsonl",
    "codex",
    "not-git-repo",
    {
      status: "completed",
      reply: "MOCK-REPLY-1",
      sessionId: "01a23648-ee91-7b71-9242-cf98766c945c",
      usage: { input: 9137, cached: 0, cacheWrite: 0, output: 6, reasoning: 0 },
      cumulativeUsage: true,
      badLines: 0,
    },
  ],
  [
    "codex-jsonl",
    "codex",
    "auth-fail",
    {
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
    },
  ],
  [
    "codex-jsonl",
    "codex",
    "model-not-found",
    {
      status: "failed",
      reply: "",
      sessionId: "01a23a66-9dc7-7e02-b278-f0c0553e57bf",
      cumulativeUsage: true,
      failure: {
        kind: "model",
        message: "The model `gpt-mock-missing` does not exist or you do not have access to it.",
      },
      badLines: 0,
    },
  ],
  [
    "codex-jsonl",
    "codex",
    "model-denied",
    {
      status: "failed",
      reply: "",
      sessionId: "01a23a66-9f45-7883-9ea8-77e170ddc699",
      cumulativeUsage: true,
      failure: {
        kind: "model",
        message: "Project `proj_mock` does not have access to model `gpt-mock-denied`",
      },
      badLines: 0,
    },
  ],
  // Still reconnecting when the lab's timeout (scv's, here) ended it.
  [
    "codex-jsonl",
    "codex",
    "signed-out",
    {
      status: "timeout",
      reply: "",
      sessionId: "01a23647-f58e-75e1-a082-276edfcc8b95",
      cumulativeUsage: true,
      badLines: 0,
    },
  ],
  [
    "pi-json",
    "pi",
    "turn1",
    {
      status: "completed",
      reply: "MOCK-REPLY-1",
      sessionId: "01a23649-3e3c-7680-be58-664ee3a8aca0",
      usage: { input: 1359, cached: 0, cacheWrite: 0, output: 6, costUsd: 0 },
      cumulativeUsage: false,
      badLines: 0,
    },
  ],
  [
    "pi-json",
    "pi",
    "turn2-resume",
    {
      status: "completed",
      reply: "MOCK-REPLY-2",
      sessionId: "01a23649-3e3c-7680-be58-664ee3a8aca0",
      usage: { input: 1387, cached: 0, cacheWrite: 0, output: 7, costUsd: 0 },
      cumulativeUsage: false,
      badLines: 0,
    },
  ],
  // Exit 0, but the last assistant message stopped with an error.
  [
    "pi-json",
    "pi",
    "auth-fail",
    {
      status: "failed",
      reply: "",
      sessionId: "01a23649-d1cb-74bd-b0d4-c33bcae801d4",
      usage: PI_ZERO_USAGE,
      cumulativeUsage: false,
      failure: { kind: "auth", message: "401 Incorrect API key provided: sk-mock***. (mock)" },
      badLines: 0,
    },
  ],
  [
    "pi-json",
    "pi",
    "signed-out",
    {
      status: "failed",
      reply: "",
      sessionId: "01a23649-34f9-72a4-aa4d-0c87fcd233db",
      cumulativeUsage: false,
      failure: { kind: "auth", message: "No API key found for the selected model." },
      badLines: 0,
    },
  ],
  [
    "gemini-stream-json",
    "gemini",
    "turn1",
    {
      status: "completed",
      reply: "MOCK-REPLY-1",
      sessionId: GEMINI,
      usage: { input: 12166, cached: 0, output: 6 },
      cumulativeUsage: false,
      badLines: 0,
    },
  ],
  [
    "gemini-stream-json",
    "gemini",
    "turn2-resume",
    {
      status: "completed",
      reply: "MOCK-REPLY-2",
      sessionId: GEMINI,
      usage: { input: 12191, cached: 0, output: 7 },
      cumulativeUsage: false,
      badLines: 0,
    },
  ],
  [
    "gemini-stream-json",
    "gemini",
    "auth-fail",
    {
      status: "failed",
      reply: "",
      sessionId: "a7b74f9c-e603-4f2c-980a-062c659c7613",
      usage: { input: 0, cached: 0, output: 0 },
      cumulativeUsage: false,
      failure: {
        kind: "auth",
        // One readable line, not the API's JSON body that Gemini CLI wraps into its message.
        message: "API key not valid. Please pass a valid API key. (mock) (401 UNAUTHENTICATED)",
      },
      badLines: 0,
    },
  ],
  // Its retry hint on the message's second line, the whole in brackets.
  [
    "gemini-stream-json",
    "gemini",
    "rate-limit",
    {
      status: "failed",
      reply: "",
      sessionId: GEMINI,
      usage: { input: 0, cached: 0, output: 0 },
      cumulativeUsage: false,
      failure: {
        kind: "rate-limit",
        message:
          "[API Error: You exceeded your current quota, please check your plan and billing details. (mock)\nSuggested retry after 1s.]\nPlease wait and try again later. To increase your limits, request a quota increase through AI Studio, or switch to another /auth method",
        resetsAt: "1s",
      },
      badLines: 0,
    },
  ],
  [
    "gemini-stream-json",
    "gemini",
    "model-not-found",
    {
      status: "failed",
      reply: "",
      sessionId: GEMINI,
      usage: { input: 0, cached: 0, output: 0 },
      cumulativeUsage: false,
      failure: {
        kind: "model",
        message:
          "[API Error: models/gemini-mock-missing is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.]",
      },
      badLines: 0,
    },
  ],
  // stderr only, exit 41.
  [
    "gemini-stream-json",
    "gemini",
    "signed-out",
    stderrOnly(false, {
      kind: "auth",
      message:
        "Please set an Auth method in your /home/user/.gemini/settings.json or specify one of the following environment variables before running: GEMINI_API_KEY, GOOGLE_GENAI_USE_VERTEXAI, GOOGLE_GENAI_USE_GCA",
    }),
  ],
  [
    "qwen-stream-json",
    "qwen",
    "turn1",
    {
      status: "completed",
      reply: "MOCK-REPLY-1",
      sessionId: QWEN,
      mode: "yolo",
      usage: { input: 30585, cached: 0, output: 13 },
      cumulativeUsage: true,
      badLines: 0,
    },
  ],
  [
    "qwen-stream-json",
    "qwen",
    "turn2-resume",
    {
      status: "completed",
      reply: "MOCK-REPLY-3",
      sessionId: QWEN,
      mode: "yolo",
      usage: { input: 61226, cached: 0, output: 30 },
      cumulativeUsage: true,
      badLines: 0,
    },
  ],
  // The API error echoed as assistant text is not the reply.
  [
    "qwen-stream-json",
    "qwen",
    "auth-fail",
    {
      status: "failed",
      reply: "",
      sessionId: "48c10e2c-dd97-4bf2-84ce-11001286ee72",
      mode: "yolo",
      usage: { input: 0, cached: 0, output: 0 },
      cumulativeUsage: true,
      failure: { kind: "auth", message: "[API Error: 401 Incorrect API key provided: sk-mock***. (mock)]" },
      badLines: 0,
    },
  ],
  [
    "qwen-stream-json",
    "qwen",
    "signed-out",
    {
      status: "failed",
      reply: "",
      sessionId: "3a300378-ed81-4260-855c-2ab0ec65e450",
      usage: { input: 0, output: 0 },
      cumulativeUsage: true,
      failure: {
        kind: "auth",
        message:
          "No auth type is selected. Please configure an auth type (e.g. via settings or `--auth-type`) before running in non-interactive mode.",
      },
      badLines: 0,
    },
  ],
  [
    "opencode-json",
    "opencode",
    "turn1",
    {
      status: "completed",
      reply: "MOCK-REPLY-2",
      sessionId: OPENCODE,
      usage: { input: 7673, cached: 0, cacheWrite: 0, output: 7, reasoning: 0, costUsd: 0 },
      cumulativeUsage: false,
      badLines: 0,
    },
  ],
  [
    "opencode-json",
    "opencode",
    "turn2-resume",
    {
      status: "completed",
      reply: "MOCK-REPLY-3",
      sessionId: OPENCODE,
      usage: { input: 7696, cached: 0, cacheWrite: 0, output: 8, reasoning: 0, costUsd: 0 },
      cumulativeUsage: false,
      badLines: 0,
    },
  ],
  [
    "opencode-json",
    "opencode",
    "auth-fail",
    {
      status: "failed",
      reply: "",
      sessionId: "ses_dc9b21535ffeJC6H9aZMItJvVp",
      cumulativeUsage: false,
      failure: { kind: "auth", message: "Incorrect API key provided: sk-mock***. (mock)" },
      badLines: 0,
    },
  ],
  [
    "opencode-json",
    "opencode",
    "signed-out",
    { status: "timeout", reply: "", cumulativeUsage: false, badLines: 0 },
  ],
  // No token counts in Copilot's result.
  [
    "copilot-json",
    "copilot",
    "turn1",
    { status: "completed", reply: "MOCK-REPLY-1", sessionId: COPILOT, cumulativeUsage: false, badLines: 0 },
  ],
  [
    "copilot-json",
    "copilot",
    "turn2-resume",
    { status: "completed", reply: "MOCK-REPLY-2", sessionId: COPILOT, cumulativeUsage: false, badLines: 0 },
  ],
  [
    "copilot-json",
    "copilot",
    "auth-fail",
    {
      status: "failed",
      reply: "",
      sessionId: "2e66cb88-b04d-43d1-9b50-7eb62bee5ece",
      cumulativeUsage: false,
      failure: {
        kind: "auth",
        message:
          "Authentication failed with provider at http://127.0.0.1:40045/v1 (HTTP 401).\n  Check your COPILOT_PROVIDER_API_KEY, COPILOT_PROVIDER_API_KEY_COMMAND, or COPILOT_PROVIDER_BEARER_TOKEN.",
      },
      badLines: 0,
    },
  ],
  [
    "copilot-json",
    "copilot",
    "signed-out",
    stderrOnly(false, { kind: "auth", message: "Error: No authentication information found." }),
  ],
  // Its own provider configured but no model: refused before any request, on stderr only.
  [
    "copilot-json",
    "copilot",
    "byok-no-model",
    stderrOnly(false, {
      kind: "model",
      message:
        "exited with code 1 without a final result event (stderr: BYOK providers require an explicit model. Run `copilot help providers` for configuration details.)",
    }),
  ],
  // A plain-text login prompt: signed out, however the process was ended.
  [
    "amp-stream-json",
    "amp",
    "signed-out",
    stderrOnly(false, { kind: "auth", message: "not signed in (it started its browser login)" }),
  ],
];

describe("real captures", () => {
  it.each(EXPECTED)("%s %s/%s", (format, cli, name, expected) => {
    expect(runFixture(format, cli, name).turn).toEqual(expected);
  });
});

describe("a session the CLI does not have", () => {
  it.each(["gemini", "qwen"])("%s: its resume-lost capture is what the row's resume.lost reads", (cli) => {
    const row = adapter(cli);
    const lost = row?.resume.kind === "supported" ? row.resume.lost : undefined;
    const format = row?.output.kind;
    if (lost === undefined || format === undefined) throw new Error(`${cli}'s row has no resume.lost`);
    expect(runFixture(format, cli, "resume-lost").turn.failure?.message).toMatch(lost);
    // Its first turn's capture is no lost session.
    expect(runFixture(format, cli, "turn1").turn.failure?.message ?? "").not.toMatch(lost);
  });
});

describe("events of real captures", () => {
  it("claude auth-fail: api_retry lines are retries; the synthetic error message is no text", () => {
    const { events } = runFixture("claude-stream-json", "claude", "auth-fail");
    const retry = { type: "retry", message: "authentication_failed (401)", attempt: 2, maxAttempts: 2 };
    // A refused credential (kind auth): turn/early-verdict.ts ends the turn at the first of them.
    expect(events.filter((event) => event.type === "retry")).toEqual([
      { ...retry, delayMs: 1074, status: 401, kind: "auth" },
      { ...retry, delayMs: 1205, status: 401, kind: "auth" },
    ]);
    expect(events.some((event) => event.type === "text")).toBe(false);
  });

  it("codex auth-fail: Reconnecting lines are retries, not errors", () => {
    const { events } = runFixture("codex-jsonl", "codex", "auth-fail");
    const retries = events.filter((event) => event.type === "retry");
    expect(retries.map((event) => event.attempt)).toEqual([1, 2, 3, 4, 5]);
    // The reason inside `Reconnecting... 1/5 (…)`, its status, and that the credential was refused.
    expect(retries[0]).toEqual({
      type: "retry",
      message:
        "unexpected status 401 Unauthorized: Incorrect API key provided: sk-mock***. (mock), url: http://127.0.0.1:45509/v1/responses, request id: req_mock_401",
      attempt: 1,
      maxAttempts: 5,
      status: 401,
      kind: "auth",
    });
    expect(events.filter((event) => event.type === "error").map((event) => event.terminal)).toEqual([
      false,
      true,
    ]);
  });

  it("copilot auth-fail: turn retries are reported", () => {
    const { events } = runFixture("copilot-json", "copilot", "auth-fail");
    // The failed call before each retry gives its status; the key is the user's own provider's
    // (isByok), so a 401 is a refused credential.
    expect(events.filter((event) => event.type === "retry")).toEqual([
      { type: "retry", message: "transient_auth_error", attempt: 1, status: 401, kind: "auth" },
      { type: "retry", message: "transient_auth_error", attempt: 2, status: 401, kind: "auth" },
    ]);
  });
});
