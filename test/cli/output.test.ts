// The --events line schema against every normalized event kind, and what a turn's output writes
// where (in-process, with fake streams).

import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { turnOutput } from "../../src/cli/turn-output.js";
import { eventLine, eventLineSchema, resultLine } from "../../src/events.js";
import type { CliIo } from "../../src/io.js";
import { turnResultJson } from "../../src/json-shapes.js";
import type { TurnEvent } from "../../src/parsers/event-types.js";
import type { TurnResult } from "../../src/result.js";
import type { TurnPlan } from "../../src/turn/turn-types.js";
import { entry } from "../helpers/scv.js";

const EVERY_EVENT: TurnEvent[] = [
  { type: "session", sessionId: "s-1" },
  { type: "mode", mode: "bypassPermissions" },
  { type: "text", text: "hé\n" },
  { type: "text", text: "x", delta: true },
  { type: "tool-start", id: "t1", name: "Bash", summary: "$ ls" },
  { type: "tool-end", id: "t1", name: "Bash", ok: false },
  { type: "usage", usage: { input: 1, cached: 2, cacheWrite: 3, output: 4, reasoning: 5, costUsd: 0.1 } },
  { type: "retry", message: "overloaded", attempt: 2, status: 529 },
  { type: "error", message: "limit", kind: "rate-limit", terminal: true, resetsAt: "2026-01-01T00:00:00Z" },
  { type: "turn-end", ok: true, declined: false },
];

const RESULT: TurnResult = {
  reply: "ok",
  status: "completed",
  agent: "claude",
  conversation: "claude-abc123",
  session: "s-1",
  usage: { input: 1, output: 4 },
  cost: 0.1,
  duration: 12,
  exitCode: 0,
  error: null,
  hint: null,
  fallbacks: [],
  notes: [],
  mode: "bypassPermissions",
  badLines: 0,
};

describe("the event line schema", () => {
  it("parses every event kind back to the same line, with agent, conversation and t", () => {
    for (const event of EVERY_EVENT) {
      const line = eventLine(event, { agent: "claude", conversation: "claude-abc123", t: 41.6 });
      const parsed = eventLineSchema().parse(JSON.parse(JSON.stringify(line)));
      expect(parsed).toEqual({ ...event, agent: "claude", conversation: "claude-abc123", t: 42 });
    }
  });

  it("wraps the --json object in the result line; conversation is left out when there is none", () => {
    const line = resultLine({ ...RESULT, conversation: null }, { agent: "claude", t: 5 });
    expect(eventLineSchema().parse(JSON.parse(JSON.stringify(line)))).toEqual({
      type: "result",
      agent: "claude",
      t: 5,
      // As --json prints it: every field there, null where there is no value.
      result: turnResultJson({ ...RESULT, conversation: null }),
    });
    expect(line).toMatchObject({ result: { account: null, skipped: null, resetsAt: null } });
    expect(Object.keys(line)).not.toContain("conversation");
  });

  it("refuses a line of an unknown type or without its envelope", () => {
    expect(eventLineSchema().safeParse({ type: "nope", agent: "a", t: 0 }).success).toBe(false);
    expect(eventLineSchema().safeParse({ type: "text", text: "x" }).success).toBe(false);
  });
});

function io(): { io: CliIo; out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString("utf8");
  });
  stderr.on("data", (chunk: Buffer) => {
    err += chunk.toString("utf8");
  });
  return {
    io: { stdout, stderr, stdin: new PassThrough(), env: {}, cwd: "/", exitCode: 0 },
    out: () => out,
    err: () => err,
  };
}

const TURN = { entry: entry("claude"), handle: "claude-abc123" } as TurnPlan;

describe("turnOutput", () => {
  it("--events: one line per event then the result; progress on stderr", async () => {
    const { io: cli, out, err } = io();
    let now = 1_000;
    const output = turnOutput(cli, { events: true }, "claude", () => now);
    now = 1_010;
    output.onEvent({ type: "tool-start", id: "1", name: "Bash", summary: "$ ls" }, TURN);
    now = 1_020;
    output.finish(RESULT);
    await new Promise((resolve) => setImmediate(resolve));
    const lines = out()
      .trimEnd()
      .split("\n")
      .map((line) => eventLineSchema().parse(JSON.parse(line)));
    expect(lines.map((line) => [line.type, line.t])).toEqual([
      ["tool-start", 10],
      ["result", 20],
    ]);
    expect(err()).toBe("claude 0s $ ls\n");
  });

  it("--events: the lines of one stretch of events go out as one write, in order, before the result", async () => {
    const { io: cli, out } = io();
    const writes: string[] = [];
    const write = cli.stdout.write.bind(cli.stdout);
    cli.stdout.write = ((chunk: string) => {
      writes.push(chunk);
      return write(chunk);
    }) as typeof cli.stdout.write;
    const output = turnOutput(cli, { events: true, quiet: true }, "claude", () => 0);
    for (let i = 1; i <= 1_000; i += 1)
      output.onEvent({ type: "tool-start", id: String(i), name: "Bash", summary: `$ step ${i}` }, TURN);
    await Promise.resolve();
    expect(writes).toHaveLength(1);
    output.onEvent({ type: "tool-end", id: "1000", name: "Bash", ok: true }, TURN);
    output.finish(RESULT);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(3);
    const lines = out()
      .trimEnd()
      .split("\n")
      .map((line) => eventLineSchema().parse(JSON.parse(line)));
    expect(lines).toHaveLength(1_002);
    expect(lines.map((line) => (line.type === "tool-start" ? line.summary : line.type)).slice(-3)).toEqual([
      "$ step 1000",
      "tool-end",
      "result",
    ]);
  });

  it("--quiet without --events: nothing at all", async () => {
    const { io: cli, out, err } = io();
    const output = turnOutput(cli, { quiet: true }, "claude");
    output.onEvent({ type: "tool-start", id: "1", name: "Bash", summary: "$ ls" }, TURN);
    output.finish(RESULT);
    await new Promise((resolve) => setImmediate(resolve));
    expect([out(), err()]).toEqual(["", ""]);
  });
});
