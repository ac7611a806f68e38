// Real captures of Cline (`--json`), Factory Droid (`exec -o stream-json`), Kilo Code (`run --format
// json`, OpenCode's), Qoder (`-p -o json|stream-json`, Claude Code's shapes) and Auggie (signed out,
// stderr only), against the lab's loopback mock: each replayed through its format's parser, the whole
// turn asserted; and the streams cut short.

import { describe, expect, it } from "vitest";
import type { OutputFormatKind } from "../../src/adapters.js";
import type { ParsedTurn } from "../../src/parsers/event-types.js";
import { createParser, endWith, feed, fixtureStdout, runFixture } from "./run.js";

const ZERO = { input: 0, cached: 0, cacheWrite: 0, output: 0, costUsd: 0 };
const RATE_LIMIT =
  "Rate limit reached for requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 1s. (mock)";

const EXPECTED: readonly (readonly [OutputFormatKind, string, string, ParsedTurn])[] = [
  [
    "cline-json",
    "cline",
    "turn1",
    {
      status: "completed",
      reply: "MOCK-REPLY-2",
      // run_result's usage, the run's whole; the stream names no session.
      usage: { input: 5409, cached: 0, cacheWrite: 0, output: 7, costUsd: 0 },
      cumulativeUsage: false,
      badLines: 0,
    },
  ],
  [
    "cline-json",
    "cline",
    "tool",
    {
      status: "completed",
      reply: "MOCK-REPLY-3",
      usage: { input: 10929, cached: 0, cacheWrite: 0, output: 15, costUsd: 0 },
      cumulativeUsage: false,
      badLines: 0,
    },
  ],
  [
    "cline-json",
    "cline",
    "auth-fail",
    {
      status: "failed",
      reply: "",
      usage: ZERO,
      cumulativeUsage: false,
      // errorClass "auth".
      failure: { kind: "auth", message: "Incorrect API key provided: sk-mock***. (mock)" },
      badLines: 0,
    },
  ],
  [
    "cline-json",
    "cline",
    "rate-limit",
    {
      status: "failed",
      reply: "",
      usage: ZERO,
      cumulativeUsage: false,
      // errorClass "unknown": the message says what it was.
      failure: { kind: "rate-limit", message: RATE_LIMIT, resetsAt: "1s" },
      badLines: 0,
    },
  ],
  // Signed out, its default provider (Cline's own service) is out of reach: it waits, and the lab's
  // 30 s limit ended it.
  [
    "cline-json",
    "cline",
    "signed-out",
    { status: "timeout", reply: "", cumulativeUsage: false, badLines: 0 },
  ],
  [
    "droid-stream-json",
    "droid",
    "turn1",
    {
      status: "completed",
      reply: "MOCK-REPLY-1",
      sessionId: "5bfb14da-6a0a-4468-8a1a-1a70ebe5ac76",
      usage: { input: 10254, cached: 0, cacheWrite: 0, output: 6 },
      cumulativeUsage: false,
      badLines: 0,
    },
  ],
  [
    "droid-stream-json",
    "droid",
    "tool",
    {
      status: "completed",
      reply: "MOCK-REPLY-16",
      sessionId: "465bcfff-4e5c-4b59-9dde-3871d2b2e910",
      usage: { input: 25208, cached: 0, cacheWrite: 0, output: 41 },
      cumulativeUsage: false,
      badLines: 0,
    },
  ],
  [
    "droid-stream-json",
    "droid",
    "auth-fail",
    {
      status: "failed",
      reply: "",
      sessionId: "d1190f44-f5ac-4c4a-bf71-0f3d03c7d3da",
      cumulativeUsage: false,
      failure: { kind: "auth", message: "401 Incorrect API key provided: sk-mock***. (mock)" },
      badLines: 0,
    },
  ],
  [
    "droid-stream-json",
    "droid",
    "rate-limit",
    {
      status: "failed",
      reply: "",
      sessionId: "1c7256be-4374-4686-9e99-0d94260adf14",
      cumulativeUsage: false,
      failure: { kind: "rate-limit", message: `429 ${RATE_LIMIT}`, resetsAt: "1s" },
      badLines: 0,
    },
  ],
  [
    "droid-stream-json",
    "droid",
    "signed-out",
    {
      status: "failed",
      reply: "",
      sessionId: "55281e4f-165c-4ea1-9227-c3c0b405df1d",
      cumulativeUsage: false,
      failure: {
        kind: "auth",
        message:
          "Error: Authentication failed. Please log in using /login or set a valid FACTORY_API_KEY environment variable.",
      },
      badLines: 0,
    },
  ],
  [
    "opencode-json",
    "kilo",
    "turn1",
    {
      status: "completed",
      reply: "MOCK-REPLY-1",
      sessionId: "ses_daf4a0276ffene6mlUM4J3SDss",
      usage: { input: 12612, cached: 0, cacheWrite: 0, output: 6, reasoning: 0, costUsd: 0 },
      cumulativeUsage: false,
      badLines: 0,
    },
  ],
  [
    "opencode-json",
    "kilo",
    "turn2-resume",
    {
      status: "completed",
      reply: "MOCK-REPLY-2",
      sessionId: "ses_daf4a0276ffene6mlUM4J3SDss",
      usage: { input: 12694, cached: 0, cacheWrite: 0, output: 7, reasoning: 0, costUsd: 0 },
      cumulativeUsage: false,
      badLines: 0,
    },
  ],
  [
    "claude-stream-json",
    "qoder",
    "signed-out",
    {
      status: "failed",
      reply: "",
      sessionId: "27688004-cba7-4d9b-8e04-160031cc7477",
      usage: ZERO,
      cumulativeUsage: true,
      // `subtype: "success"` with `is_error: true`.
      failure: { kind: "auth", message: "Not logged in · Please run /login" },
      badLines: 0,
    },
  ],
  [
    "claude-stream-json",
    "qoder",
    "byok-not-logged-in",
    {
      status: "failed",
      reply: "",
      sessionId: "156df34f-3c51-4809-ad00-01619902942e",
      mode: "default",
      usage: ZERO,
      cumulativeUsage: true,
      failure: { kind: "auth", message: "Not logged in · Please run /login" },
      badLines: 0,
    },
  ],
  [
    "text",
    "auggie",
    "signed-out",
    {
      status: "failed",
      reply: "",
      cumulativeUsage: false,
      failure: {
        kind: "auth",
        message:
          "Reason: Cannot create API setup: Authentication failed: No auth provided. Please log in with `auggie login` or set the AUGMENT_SESSION_AUTH environment variable.",
      },
      badLines: 0,
    },
  ],
];

describe("real captures of the newer CLIs", () => {
  it.each(EXPECTED)("%s %s/%s", (format, cli, name, expected) => {
    expect(runFixture(format, cli, name).turn).toEqual(expected);
  });
});

describe("tools as they run", () => {
  it("cline: a tool's content_start and content_end", () => {
    const { events } = runFixture("cline-json", "cline", "tool");
    expect(events.filter((event) => event.type.startsWith("tool"))).toEqual([
      { type: "tool-start", id: "call_mock_0002", name: "run_commands", summary: "run_commands" },
      { type: "tool-end", id: "call_mock_0002", name: "run_commands", ok: true },
    ]);
  });

  it("droid: tool_call and tool_result", () => {
    const { events } = runFixture("droid-stream-json", "droid", "tool");
    expect(events.filter((event) => event.type.startsWith("tool"))).toEqual([
      { type: "tool-start", id: "call_mock_0015", name: "Execute", summary: "$ touch scv-tool-probe.txt" },
      { type: "tool-end", id: "call_mock_0015", name: "Execute", ok: true },
    ]);
  });
});

/** The capture's lines up to (not including) the first whose type is `type`, the last one cut in half. */
function cutBefore(cli: string, name: string, type: string): string {
  const lines = fixtureStdout(cli, name).toString("utf8").trim().split("\n");
  const at = lines.findIndex((line) => line.includes(`"type":"${type}"`));
  const kept = lines.slice(0, at);
  const last = lines[at] ?? "";
  return `${[...kept, last.slice(0, last.length / 2)].join("\n")}`;
}

describe("a stream cut short (the CLI killed mid-line)", () => {
  it("cline: the text so far, no verdict, the half line counted", () => {
    const stdout = cutBefore("cline", "turn1", "done");
    const { turn } = feed(
      createParser("cline-json"),
      [stdout],
      endWith({ exitCode: null, signal: "SIGKILL" }),
    );
    expect(turn).toMatchObject({ status: "failed", reply: "MOCK-REPLY-2", badLines: 1 });
  });

  it("droid: the session and the text so far, no verdict, the half line counted", () => {
    const stdout = cutBefore("droid", "turn1", "completion");
    const { turn } = feed(
      createParser("droid-stream-json"),
      [stdout],
      endWith({ exitCode: null, signal: "SIGTERM", termination: "timeout" }),
    );
    expect(turn).toMatchObject({
      status: "timeout",
      reply: "MOCK-REPLY-1",
      sessionId: "5bfb14da-6a0a-4468-8a1a-1a70ebe5ac76",
      badLines: 1,
    });
  });
});
