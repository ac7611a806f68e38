import { describe, expect, it } from "vitest";
import { ADAPTERS } from "../../src/adapters.js";
import { loadParser, OUTPUT_FORMAT_KINDS } from "../../src/parsers/index.js";
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
