// A reply of 5 MiB in each format's real capture (its reply text replaced where the capture has
// it), through the framer as a turn wires it: the lines that carry the reply are read past the
// 4 MiB line bound, and the reply comes back whole.

import { describe, expect, it } from "vitest";
import type { OutputFormatKind } from "../../src/adapters.js";
import { fixtureStdout, parse } from "./run.js";

const MiB = 1024 * 1024;
const LONG = `${'é quoted \\" 日本 🎉 '.repeat(Math.ceil((5 * MiB) / 30))}end`;
/** As it sits inside a JSON string. */
const ESCAPED = JSON.stringify(LONG).slice(1, -1);

const CASES: readonly (readonly [OutputFormatKind, string, string, string, string])[] = [
  // format, capture, the reply text in it, what replaces it, what the reply becomes
  ["claude-stream-json", "claude/turn1", "MOCK-REPLY-1", ESCAPED, LONG],
  ["codex-jsonl", "codex/turn1", "MOCK-REPLY-1", ESCAPED, LONG],
  ["pi-json", "pi/turn1", "MOCK-REPLY-1", ESCAPED, LONG],
  // Gemini streams the reply as deltas: the first one is long.
  ["gemini-stream-json", "gemini/turn1", '"content":"MOCK-"', `"content":"${ESCAPED}"`, `${LONG}REPLY-1`],
  ["qwen-stream-json", "qwen/turn1", "MOCK-REPLY-1", ESCAPED, LONG],
  ["opencode-json", "opencode/turn1", "MOCK-REPLY-2", ESCAPED, LONG],
  ["copilot-json", "copilot/turn1", "MOCK-REPLY-1", ESCAPED, LONG],
  ["cursor-stream-json", "cursor/turn", "README.md describes a CLI.", ESCAPED, LONG],
  ["amp-stream-json", "amp/turn", '"result":"4"', `"result":"${ESCAPED}"`, LONG],
];

describe("a 5 MiB reply on one line", () => {
  it.each(CASES)("%s (%s)", (format, capture, marker, replacement, reply) => {
    const [cli = "", name = ""] = capture.split("/");
    const original = fixtureStdout(cli, name).toString("utf8");
    expect(original).toContain(marker);
    const { turn } = parse(format, original.replaceAll(marker, replacement));
    expect(turn.status).toBe("completed");
    expect(turn.reply.length).toBe(reply.length);
    expect(turn.reply === reply).toBe(true);
  });
});
