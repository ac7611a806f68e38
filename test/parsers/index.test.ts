import { describe, expect, it } from "vitest";
import { ADAPTERS } from "../../src/adapters.js";
import { createClaudeStreamJsonParser } from "../../src/parsers/claude-stream-json.js";
import { loadParser, OUTPUT_FORMAT_KINDS } from "../../src/parsers/index.js";
import { cleanUsage } from "../../src/parsers/usage.js";
import { parse } from "./run.js";

describe("loadParser", () => {
  it("gives every adapter's output format a parser that reads its own shape", async () => {
    for (const entry of ADAPTERS) {
      const parser = (await loadParser(entry.output.kind))();
      // A structured parser does not take a plain line for a reply; the text parser does.
      parser.push("plain words");
      const turn = parser.finish({ exitCode: 0, signal: null, stderrTail: "" });
      const expected = entry.output.kind === "text" ? ["completed", 0] : ["failed", 1];
      expect([entry.name, turn.status, turn.badLines]).toEqual([entry.name, ...expected]);
    }
  });

  it("has a parser for every format, each a factory of fresh parsers", async () => {
    expect(new Set(ADAPTERS.map((entry) => entry.output.kind)).size).toBeLessThanOrEqual(
      OUTPUT_FORMAT_KINDS.length,
    );
    const create = await loadParser("codex-jsonl");
    create().push('{"type":"thread.started","thread_id":"a"}');
    expect(create()).not.toBe(create());
    expect(parse("codex-jsonl", "").turn.sessionId).toBeUndefined();
  });
});

describe("loadParser's usage", () => {
  it("cleans what the parser reports of usage, and changes nothing else", async () => {
    const end = { exitCode: 0, signal: null, stderrTail: "" };
    const lines = [
      "plain words",
      '{"type":"result","subtype":"success","result":"hi","session_id":"s","usage":{"input_tokens":-3,"output_tokens":2.6},"total_cost_usd":1e308}',
    ];
    const loaded = (await loadParser("claude-stream-json"))();
    const raw = createClaudeStreamJsonParser();
    for (const line of lines) {
      const events = raw.push(line);
      expect(loaded.push(line)).toEqual(
        events.map((event) =>
          event.type === "usage" ? { ...event, usage: cleanUsage(event.usage) } : event,
        ),
      );
    }
    const rawTurn = raw.finish(end);
    expect(rawTurn.usage).toEqual({ input: -3, output: 2.6, costUsd: 1e308 });
    expect(loaded.finish(end)).toEqual({ ...rawTurn, usage: { output: 3 } });
  });
});
