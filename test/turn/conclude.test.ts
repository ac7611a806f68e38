// A conversation's usage across a turn stopped before its report. Real captures of one Claude Code
// session (test/real/claude-usage.test.ts made them): turn 1 completed; turn 2 answered a tool call and
// was stopped (SIGINT to scv) while the model held its next request, so it printed no result; turn 3
// resumed. Claude Code's `modelUsage` is the session's running total, restored from its transcript, so
// turn 3's total counts turn 2's model call too: scv must count turn 3 as what it alone spent.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { adapter } from "../../src/adapters.js";
import { readConversation } from "../../src/home/conversations.js";
import { readUsage } from "../../src/home/usage-log.js";
import type { ParsedTurn } from "../../src/parsers/event-types.js";
import { conclude } from "../../src/turn/conclude.js";
import type { TurnContext, TurnPlan } from "../../src/turn/turn-types.js";
import { fixtureEnd, runFixture } from "../parsers/run.js";

const SESSION = "87e24974-ff6b-4240-881b-b5b7be679d75";
const HANDLE = "claude-iy2sry";

let root: string;
let context: TurnContext;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "scv-conclude-"));
  context = { env: { SCV_HOME: join(root, "scv"), HOME: root }, cwd: root, config: {} };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function plan(first: boolean): TurnPlan {
  const entry = adapter("claude");
  if (entry === undefined) throw new Error("no claude row");
  return {
    entry,
    transport: "process",
    executable: "/bin/claude",
    args: [],
    home: join(root, "scv", "agents", "claude"),
    account: "default",
    cwd: root,
    handle: HANDLE,
    ...(first ? {} : { record: readConversation(HANDLE, context.env) }),
    session: first ? { kind: "start", id: SESSION } : { kind: "continue", id: SESSION },
    model: "sonnet",
    policy: "default",
    extraEnv: {},
    prompt: "usage",
    recordConversation: true,
    keepUsage: true,
  };
}

function turn(name: string, first = false) {
  const parsed: ParsedTurn = runFixture("claude-stream-json", "claude", `interrupt-${name}`).turn;
  return conclude(
    plan(first),
    { parsed, end: { ...fixtureEnd("claude", `interrupt-${name}`), durationMs: 0 }, started: Date.now() },
    context,
  );
}

describe("the turn after one stopped before its report", () => {
  it("counts only its own tokens, and the stopped turn's model call as the stopped turn's", () => {
    const first = turn("turn1", true);
    expect(first.usage).toMatchObject({ input: 12362, output: 6, costUsd: 0.024784 });

    const stopped = turn("turn2-stopped");
    // Its one model call as the stream showed it: input as billed, output as first counted.
    expect(stopped.usage).toEqual({ input: 12391, cached: 0, cacheWrite: 0, output: 1 });
    expect(readConversation(HANDLE, context.env).cumulative).toMatchObject({ input: 12362 + 12391 });

    const third = turn("turn3");
    // Claude Code reported a running total of 37,255 input tokens; turn 3's own model call had 12,502
    // (the mock's per-request figure, and the result's main-loop `usage`). Before: 37,255.
    expect(third.usage?.input).toBe(12502);
    expect(readConversation(HANDLE, context.env)).toMatchObject({
      turns: 3,
      usage: { input: 37255 },
      cumulative: { input: 37255, output: 21, costUsd: 0.07472 },
    });
  });

  it("keeps the running total when the stopped turn showed no model call", () => {
    turn("turn1", true);
    const stopped = conclude(
      plan(false),
      {
        parsed: { status: "cancelled", reply: "", cumulativeUsage: true, badLines: 0 },
        end: { exitCode: null, signal: "SIGTERM", stderrTail: "", durationMs: 0 },
        started: Date.now(),
      },
      context,
    );
    expect(stopped.usage).toBeNull();
    expect(readConversation(HANDLE, context.env).cumulative).toMatchObject({ input: 12362, output: 6 });
  });
});

describe("the usage log", () => {
  it("keeps every turn's own share, outcome, account and start, the stopped turn included", () => {
    const before = Date.now();
    const results = [turn("turn1", true), turn("turn2-stopped"), turn("turn3")];
    const { entries } = readUsage(new Date(before - 1000), new Date(Date.now() + 1000), context.env);
    expect(entries.map((entry) => entry.usage ?? null)).toEqual(results.map((result) => result.usage));
    expect(entries.map((entry) => [entry.status, entry.exitCode])).toEqual(
      results.map((result) => [result.status, result.exitCode]),
    );
    for (const entry of entries) {
      expect(entry).toMatchObject({
        agent: "claude",
        account: "default",
        model: "sonnet",
        conversation: HANDLE,
      });
      expect(Date.parse(entry.startedAt)).toBeGreaterThanOrEqual(before - 1000);
    }
  });

  it("keeps nothing of a turn asked to leave no record", () => {
    const parsed = runFixture("claude-stream-json", "claude", "interrupt-turn1").turn;
    conclude(
      { ...plan(true), recordConversation: false, keepUsage: false },
      { parsed, end: { ...fixtureEnd("claude", "interrupt-turn1"), durationMs: 0 }, started: Date.now() },
      context,
    );
    expect(readUsage(new Date(0), new Date(Date.now() + 1000), context.env).entries).toEqual([]);
  });
});
