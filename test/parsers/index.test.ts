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
  it("imports, for every format, the very factory the eager map holds", async () => {
    for (const format of Object.keys(PARSER_FACTORIES) as (keyof typeof PARSER_FACTORIES)[]) {
      expect(await loadParser(format), format).toBe(PARSER_FACTORIES[format]);
    }
  });
});
