// The terminal's question for an ACP agent's permission request: one line naming the agent, the
// tool and what it would do; one key answers; a key typed before the question was on screen never
// approves it; the question ends with its turn.

import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  askOnTerminal,
  questionLine,
  TYPEAHEAD_MS,
  terminalPermission,
} from "../../src/cli/permission-prompt.js";
import type { PermissionQuestion } from "../../src/turn/turn-types.js";
import { memoryIo } from "../helpers/io.js";

class FakeTerminal extends PassThrough {
  readonly isTTY = true;
  readonly modes: boolean[] = [];
  setRawMode(mode: boolean): this {
    this.modes.push(mode);
    return this;
  }
}

const QUESTION: PermissionQuestion = {
  agent: "gemini",
  tool: "shell",
  summary: "$ rm -rf build",
  offers: { once: true, always: true },
};

function output(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = "";
  stream.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
  });
  return { stream, text: () => text };
}

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the permission question", () => {
  it("is one line: the agent, the tool, what it would do, and the answers offered", () => {
    expect(questionLine(QUESTION)).toBe(
      "scv: gemini asks to run shell: $ rm -rf build — allow [o]nce, [a]lways, [r]eject? ",
    );
    expect(questionLine({ ...QUESTION, offers: { once: true, always: false } })).toBe(
      "scv: gemini asks to run shell: $ rm -rf build — allow [o]nce, [r]eject? ",
    );
  });

  it("shows an agent's control characters rather than letting the terminal act on them", () => {
    const line = questionLine({ ...QUESTION, summary: "$ echo \u001b[2Jhidden\nnext" });
    expect(line).not.toContain("\u001b");
    expect(line).not.toContain("\n");
  });

  it("o allows once, a always, r rejects; raw mode is on only while it asks", async () => {
    for (const [key, answer] of [
      ["o", "once"],
      ["a", "always"],
      ["r", "reject"],
      ["\r", "reject"],
    ] as const) {
      const input = new FakeTerminal();
      const out = output();
      const asked = askOnTerminal(input, out.stream, QUESTION);
      await later(TYPEAHEAD_MS + 20);
      input.write(key);
      expect(await asked).toBe(answer);
      expect(input.modes).toEqual([true, false]);
    }
  });

  it("a key typed before the question showed never answers it", async () => {
    const input = new FakeTerminal();
    const out = output();
    // Typed ahead: already waiting when the question is written.
    input.write("o");
    const asked = askOnTerminal(input, out.stream, QUESTION);
    await later(TYPEAHEAD_MS + 20);
    input.write("r");
    expect(await asked).toBe("reject");
    expect(out.text()).toBe(`${questionLine(QUESTION)}\nscv: rejected\n`);
  });

  it("allow always is not taken where the agent does not offer it", async () => {
    const input = new FakeTerminal();
    const asked = askOnTerminal(input, output().stream, {
      ...QUESTION,
      offers: { once: true, always: false },
    });
    await later(TYPEAHEAD_MS + 20);
    input.write("a");
    input.write("o");
    expect(await asked).toBe("once");
  });

  it("ends unanswered (refused, and said so, not as the user's reject) when its turn ends while it waits", async () => {
    const input = new FakeTerminal();
    const controller = new AbortController();
    const asked = askOnTerminal(input, output().stream, QUESTION, controller.signal);
    controller.abort();
    expect(await asked).toBe("unanswered");
    expect(input.modes).toEqual([true, false]);
  });

  it("is not offered where stdin or stderr is no terminal", () => {
    expect(terminalPermission(memoryIo())).toBeUndefined();
  });
});
