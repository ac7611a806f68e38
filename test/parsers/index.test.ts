import { describe, expect, it } from "vitest";
import { ADAPTERS } from "../../src/adapters.js";
import { createParser, PARSER_FACTORIES } from "../../src/parsers/index.js";
import { loadParser } from "../../src/parsers/load.js";
import { parse } from "./run.js";

describe("createParser", () => {
  it("gives every adapter's output format a parser that reads its own shape", () => {
    for (const entry of ADAPTERS) {
      const parser = createParser(entry.output.kind);
      // A structured parser does not take a plain line for a reply; the text parser does.
      parser.push("plain words");
      const turn = parser.finish({ exitCode: 0, signal: null, stderrTail: "" });
      const expected = entry.output.kind === "text" ? ["completed", 0] : ["failed", 1];
      expect([entry.name, turn.status, turn.badLines]).toEqual([entry.name, ...expected]);
    }
  });

  it("returns a fresh parser each time", () => {
    const first = createParser("codex-jsonl");
    first.push('{"type":"thread.started","thread_id":"a"}');
    expect(parse("codex-jsonl", "").turn.sessionId).toBeUndefined();
  });
});

describe("loadParser", () => {
  it("imports, for every format, the parser the eager map holds, its usage cleaned as createParser's", async () => {
    const end = { exitCode: 0, signal: null, stderrTail: "" };
    for (const entry of ADAPTERS) {
      const format = entry.output.kind;
      const lines = [
        "plain words",
        '{"type":"result","subtype":"success","result":"hi","session_id":"s","usage":{"input_tokens":-3,"output_tokens":2.6},"total_cost_usd":1e308}',
      ];
      const loaded = (await loadParser(format))();
      const eager = createParser(format);
      const raw = PARSER_FACTORIES[format]();
      for (const line of lines) expect(loaded.push(line), format).toEqual(eager.push(line));
      for (const line of lines) raw.push(line);
      const turn = loaded.finish(end);
      expect(turn, format).toEqual(eager.finish(end));
      expect({ ...turn, usage: undefined }, format).toEqual({ ...raw.finish(end), usage: undefined });
    }
  });
});
