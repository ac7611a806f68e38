// Broken streams: garbage, truncated and interleaved lines are counted, and the valid lines
// around them still parse; CRLF and one-byte chunks change nothing; a line over 4 MiB is skipped.

import { describe, expect, it } from "vitest";
import type { OutputFormatKind } from "../../src/adapters.js";
import { createParser, feed, fixtureEnd, fixtureStdout } from "./run.js";

const SUCCESSFUL_CAPTURES: readonly (readonly [OutputFormatKind, string, string])[] = [
  ["claude-stream-json", "claude", "turn1"],
  ["claude-stream-json", "claude", "tool-outputs"],
  ["codex-jsonl", "codex", "turn1"],
  ["codex-jsonl", "codex", "tool-items"],
  ["pi-json", "pi", "turn1"],
  ["gemini-stream-json", "gemini", "turn1"],
  ["qwen-stream-json", "qwen", "turn1"],
  ["opencode-json", "opencode", "turn1"],
  ["copilot-json", "copilot", "turn1"],
  ["cursor-stream-json", "cursor", "turn"],
  ["amp-stream-json", "amp", "turn"],
  ["cline-json", "cline", "turn1"],
  ["cline-json", "cline", "tool"],
  ["droid-stream-json", "droid", "turn1"],
  ["droid-stream-json", "droid", "tool"],
  ["opencode-json", "kilo", "turn1"],
];

const GARBAGE = [
  "garbage from a wrapper script",
  '{"type":"assistant","message":{"content":[{"type":"te', // truncated
  '{"type":"x","a":1}{"type":"y","b":2}', // two writes interleaved on one line
  "42",
  "[1, 2",
  '{"weird":true}',
  "\u001b[?1004l",
];

function withGarbage(stdout: string): string {
  const [first = "", ...rest] = stdout.split("\n");
  return [first, ...GARBAGE, ...rest].join("\n");
}

describe.each(SUCCESSFUL_CAPTURES)("%s on a damaged %s/%s", (format, cli, name) => {
  const stdout = fixtureStdout(cli, name).toString("utf8");
  const end = fixtureEnd(cli, name);
  const clean = feed(createParser(format), [stdout], end).turn;

  it("is a success to begin with", () => {
    expect(clean.status).toBe("completed");
    expect(clean.reply).not.toBe("");
  });

  it("counts garbage, truncated and interleaved lines and still parses the rest", () => {
    const { turn } = feed(createParser(format), [withGarbage(stdout)], end);
    expect(turn).toEqual({ ...clean, badLines: GARBAGE.length });
  });

  it("reads CRLF line ends the same", () => {
    const { turn } = feed(createParser(format), [stdout.replaceAll("\n", "\r\n")], end);
    expect(turn).toEqual(clean);
  });

  it("reads the stream fed one byte at a time the same", () => {
    const bytes = Buffer.from(stdout, "utf8");
    const chunks = Array.from({ length: bytes.length }, (_, index) => bytes.subarray(index, index + 1));
    expect(feed(createParser(format), chunks, end).turn).toEqual(clean);
  });
});

describe("a line over 4 MiB", () => {
  it("is skipped and counted, and the turn around it still completes", () => {
    const [init = "", assistant = "", result = ""] = fixtureStdout("claude", "turn1")
      .toString("utf8")
      .split("\n");
    const huge = JSON.stringify({
      type: "user",
      message: { content: [{ type: "tool_result", tool_use_id: "t", content: "x".repeat(4 * 1024 * 1024) }] },
    });
    const chunks: string[] = [`${init}\n${assistant}\n`];
    for (let offset = 0; offset < huge.length; offset += 65536)
      chunks.push(huge.slice(offset, offset + 65536));
    chunks.push(`\n${result}\n`);
    const { turn } = feed(createParser("claude-stream-json"), chunks, fixtureEnd("claude", "turn1"));
    expect([turn.status, turn.reply, turn.badLines]).toEqual(["completed", "MOCK-REPLY-1", 1]);
  });
});

describe("a parser fed nothing", () => {
  it("never completes a structured turn on exit 0 alone", () => {
    for (const [format] of SUCCESSFUL_CAPTURES) {
      const { turn } = feed(createParser(format), [], { exitCode: 0, signal: null, stderrTail: "" });
      expect([format, turn.status]).toEqual([format, "failed"]);
    }
  });
});
