// Elision must never change what a turn reads: every capture, and long synthetic streams, parse to
// the same turn and the same events whether the framer cuts the strings the parsers call unread
// or not — with the real thresholds and with thresholds that cut every such string to nothing.

import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { generateStream, type StreamFormat, type StreamTally } from "../../bench/parsers/generate.js";
import type { OutputFormatKind } from "../../src/adapters.js";
import { claudeElidable } from "../../src/parsers/claude-wire.js";
import { codexElidable } from "../../src/parsers/codex-jsonl.js";
import {
  createParser,
  endWith,
  type FeedOptions,
  FIXTURES,
  feed,
  fixtureEnd,
  fixtureStdout,
  type Run,
} from "./run.js";

const FORMAT_OF_CLI: Readonly<Record<string, OutputFormatKind>> = {
  claude: "claude-stream-json",
  codex: "codex-jsonl",
  pi: "pi-json",
  gemini: "gemini-stream-json",
  qwen: "qwen-stream-json",
  opencode: "opencode-json",
  copilot: "copilot-json",
  cursor: "cursor-stream-json",
  amp: "amp-stream-json",
};

/** Every elidable string cut to nothing, however short its line. */
const CUT_EVERYTHING: FeedOptions["elision"] = {
  limits: { minLineBytes: 0, minStringBytes: 1, keepBytes: 0 },
};

const CAPTURES = Object.keys(FORMAT_OF_CLI).flatMap((cli) =>
  readdirSync(`${FIXTURES}${cli}`)
    .filter((file) => file.endsWith(".stdout"))
    .map((file) => [cli, file.slice(0, -".stdout".length)] as const),
);

/** Replays a capture in 4 KiB chunks with the given elision. */
function replay(cli: string, name: string, elision: FeedOptions["elision"]): Run {
  const format = FORMAT_OF_CLI[cli] as OutputFormatKind;
  const stdout = fixtureStdout(cli, name);
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < stdout.length; offset += 4096)
    chunks.push(stdout.subarray(offset, offset + 4096));
  return feed(createParser(format), chunks, fixtureEnd(cli, name), { elision });
}

describe("every capture reads the same with and without elision", () => {
  it("covers the captures of every format", () => {
    expect(new Set(CAPTURES.map(([cli]) => cli))).toEqual(new Set(Object.keys(FORMAT_OF_CLI)));
    expect(CAPTURES.length).toBeGreaterThan(60);
  });

  it.each(CAPTURES)("%s/%s", (cli, name) => {
    const plain = replay(cli, name, false);
    for (const elision of [undefined, CUT_EVERYTHING]) {
      const elided = replay(cli, name, elision);
      expect(elided.turn).toEqual(plain.turn);
      expect(elided.events).toEqual(plain.events);
    }
  });

  it.each([
    ["claude", "tool-outputs"],
    ["codex", "tool-items"],
  ])("%s/%s: the parser is handed less than a third of the text", (cli, name) => {
    const plain = replay(cli, name, false);
    expect(replay(cli, name, undefined).parsedChars).toBeLessThan(plain.parsedChars / 3);
    expect(replay(cli, name, CUT_EVERYTHING).parsedChars).toBeLessThan(plain.parsedChars / 3);
  });
});

describe.each(["claude", "codex"] as const)("a generated %s stream of 4 MB", (format: StreamFormat) => {
  const kind: OutputFormatKind = format === "claude" ? "claude-stream-json" : "codex-jsonl";
  const tally: StreamTally = { lines: 0, bytes: 0, tools: 0, reply: "" };
  const chunks = [...generateStream(process.cwd(), format, 4e6, tally, { seed: 3 })].map((chunk) =>
    Buffer.from(chunk),
  );
  const plain = feed(createParser(kind), chunks, endWith(), { elision: false });

  it("reads as the generator wrote it", () => {
    expect([plain.turn.status, plain.turn.reply, plain.turn.badLines]).toEqual(["completed", tally.reply, 0]);
    expect(plain.events.filter((event) => event.type === "tool-start")).toHaveLength(tally.tools);
  });

  it("reads the same turn and events with elision, from a fraction of the text", () => {
    const elided = feed(createParser(kind), chunks, endWith());
    expect(elided.turn).toEqual(plain.turn);
    expect(elided.events).toEqual(plain.events);
    expect(elided.parsedChars).toBeLessThan(plain.parsedChars / 2);
  });

  it("reads the same with every elidable string cut to nothing", () => {
    const elided = feed(createParser(kind), chunks, endWith(), { elision: CUT_EVERYTHING });
    expect(elided.turn).toEqual(plain.turn);
    expect(elided.events).toEqual(plain.events);
  });
});

describe("damaged long lines stay damaged", () => {
  const [init = "", assistant = "", result = ""] = fixtureStdout("claude", "turn1")
    .toString("utf8")
    .split("\n");
  const output = 'x\\"y é→🎉 '.repeat(400);
  const toolResult = JSON.stringify({
    type: "user",
    message: { content: [{ type: "tool_result", tool_use_id: "t", content: output }] },
    tool_use_result: { stdout: output },
  });
  const damaged = [
    toolResult.slice(0, 3000), // cut inside tool_use_result's string
    toolResult.slice(0, toolResult.length - 2), // cut after it
    `${toolResult}${toolResult}`, // two writes on one line
    `garbage "with" quotes ${toolResult}`,
  ];

  it("counts each as a bad line, with or without elision, and the turn around them completes", () => {
    const stream = [init, assistant, ...damaged, result, ""].join("\n");
    const plain = feed(createParser("claude-stream-json"), [stream], endWith(), { elision: false });
    expect([plain.turn.status, plain.turn.badLines]).toEqual(["completed", damaged.length]);
    for (const elision of [undefined, CUT_EVERYTHING]) {
      const elided = feed(createParser("claude-stream-json"), [stream], endWith(), { elision });
      expect(elided.turn).toEqual(plain.turn);
    }
  });
});

describe("a long line cut by chunk boundaries", () => {
  it("is elided the same wherever the chunks split it", () => {
    const line = `${JSON.stringify({
      type: "user",
      message: { content: [{ type: "tool_result", tool_use_id: "t", content: 'é→🎉\\"'.repeat(300) }] },
    })}\n`;
    const bytes = Buffer.from(line, "utf8");
    const whole = feed(createParser("claude-stream-json"), [bytes], endWith());
    expect(whole.parsedChars).toBeLessThan(400);
    for (let cut = 1; cut < bytes.length; cut += 97) {
      const split = feed(
        createParser("claude-stream-json"),
        [bytes.subarray(0, cut), bytes.subarray(cut)],
        endWith(),
      );
      expect(split).toEqual(whole);
    }
  });
});

describe("what the parsers call unread", () => {
  const place = (path: string[], types: (string | undefined)[] = []) => ({ path, types });

  it("claude: tool outputs, thinking and unread tool arguments, never reply text or what a summary shows", () => {
    const cut = [
      ["tool_use_result"],
      ["tool_use_result", "file", "content"],
      ["message", "content"],
      ["message", "content", "[]", "content"],
      ["message", "content", "[]", "content", "[]", "text"],
      ["message", "content", "[]", "thinking"],
      ["message", "content", "[]", "signature"],
      ["message", "content", "[]", "input", "old_string"],
      ["message", "content", "[]", "input", "content"],
    ];
    const kept = [
      ["message", "content", "[]", "text"],
      ["message", "content", "[]", "input", "command"],
      ["message", "content", "[]", "input", "command", "[]"],
      ["message", "content", "[]", "input", "file_path"],
      ["message", "content", "[]", "input", "pattern"],
      ["message", "content", "[]", "id"],
      ["result"],
      ["errors", "[]"],
      ["error"],
      ["session_id"],
      ["message", "id"],
    ];
    expect(cut.filter((path) => !claudeElidable(place(path)))).toEqual([]);
    expect(kept.filter((path) => claudeElidable(place(path)))).toEqual([]);
  });

  it("codex: outputs, results, reasoning and unread MCP arguments, never messages, plans or errors", () => {
    expect(codexElidable(place(["item", "aggregated_output"]))).toBe(true);
    expect(codexElidable(place(["item", "result", "content", "[]", "text"]))).toBe(true);
    expect(codexElidable(place(["item", "arguments", "context"]))).toBe(true);
    expect(codexElidable(place(["item", "text"], [undefined, "reasoning"]))).toBe(true);
    expect(codexElidable(place(["item", "text"], [undefined, "agent_message"]))).toBe(false);
    expect(codexElidable(place(["item", "text"], [undefined, undefined]))).toBe(false);
    expect(codexElidable(place(["item", "arguments", "query"]))).toBe(false);
    expect(codexElidable(place(["item", "command"]))).toBe(false);
    expect(codexElidable(place(["item", "message"]))).toBe(false);
    expect(codexElidable(place(["item", "error", "message"]))).toBe(false);
    expect(codexElidable(place(["message"]))).toBe(false);
  });

  it("formats whose parsers name nothing get no elision", () => {
    for (const format of [
      "text",
      "pi-json",
      "gemini-stream-json",
      "opencode-json",
      "copilot-json",
    ] as const) {
      expect(createParser(format).elision).toBeUndefined();
    }
  });
});
