// The MCP server's answers as pure functions: a reply cut into parts that add up to it, each form of
// a result within what a host shows, each leading with the reply and the next step, failures in the
// command line's classes.

import { describe, expect, it } from "vitest";
import { EXIT, ScvError } from "../../src/errors.js";
import { turnResultJson } from "../../src/json-shapes.js";
import {
  combinedOutcome,
  errorOutcome,
  exitClass,
  finishedOutcome,
  fitted,
  replyPart,
  runningOutcome,
} from "../../src/mcp/replies.js";
import { SHOWN_BYTES, shownBytes, shownLimit } from "../../src/mcp/shown-size.js";
import type { TurnResult } from "../../src/result.js";

function result(overrides: Partial<TurnResult> = {}): TurnResult {
  return {
    reply: "hello",
    status: "completed",
    agent: "codex",
    conversation: "codex-k3f9x2",
    session: "019a0000-0000-7000-8000-000000000000",
    usage: null,
    cost: null,
    duration: 10,
    exitCode: 0,
    error: null,
    hint: null,
    fallbacks: [],
    notes: [],
    mode: null,
    badLines: 0,
    ...overrides,
  };
}

describe("replyPart", () => {
  it("reads a long reply in parts that add up to it, each within its budget as shown, never splitting a surrogate pair", () => {
    const reply = `${"ab😀".repeat(3000)}\n${"line\n".repeat(500)}${'"quoted\\path"'.repeat(300)}end`;
    for (const budget of [1000, 1001, 1002, 4096]) {
      let read = "";
      let offset: number | undefined = 0;
      while (offset !== undefined) {
        const part = replyPart(reply, offset, budget);
        // The part as a JSON string's contents, as the structured content carries it.
        expect(Buffer.byteLength(JSON.stringify(part.text)) - 2).toBeLessThanOrEqual(budget);
        const last = part.text.charCodeAt(part.text.length - 1);
        expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
        read += part.text;
        offset = part.next;
      }
      expect(read).toBe(reply);
    }
  });

  it("ends a part at a line break near the limit", () => {
    const reply = `${"x".repeat(950)}\n${"y".repeat(500)}`;
    expect(replyPart(reply, 0, 1000).next).toBe(951);
  });

  it("refuses an offset past the end, with the usage exit code", () => {
    expect(() => replyPart("abc", 4, 100)).toThrow(ScvError);
    expect(replyPart("abc", 3, 100)).toEqual({ text: "", offset: 3, next: undefined, total: 3 });
  });
});

describe("shownLimit", () => {
  it("is 45 000 bytes, or 2 bytes a token of a lower MAX_MCP_OUTPUT_TOKENS", () => {
    expect(shownLimit({})).toBe(45_000);
    expect(shownLimit({ MAX_MCP_OUTPUT_TOKENS: "100000" })).toBe(45_000);
    expect(shownLimit({ MAX_MCP_OUTPUT_TOKENS: "10000" })).toBe(20_000);
    expect(shownLimit({ MAX_MCP_OUTPUT_TOKENS: "lots" })).toBe(45_000);
    expect(shownLimit({ MAX_MCP_OUTPUT_TOKENS: "10" })).toBe(2_000);
  });

  it("is at most SCV_MCP_SHOWN_BYTES, the registration's word for a host that shows less, whichever is lower", () => {
    expect(shownLimit({ SCV_MCP_SHOWN_BYTES: "20480" })).toBe(20_480);
    expect(shownLimit({ SCV_MCP_SHOWN_BYTES: "20480", MAX_MCP_OUTPUT_TOKENS: "5000" })).toBe(10_000);
    expect(shownLimit({ SCV_MCP_SHOWN_BYTES: "90000" })).toBe(45_000);
    expect(shownLimit({ SCV_MCP_SHOWN_BYTES: "-1" })).toBe(45_000);
    expect(shownLimit({ SCV_MCP_SHOWN_BYTES: "100" })).toBe(2_000);
  });
});

describe("finishedOutcome", () => {
  it("a reply, the conversation to continue, and the --json object after the reply and the next step", () => {
    const outcome = finishedOutcome(result(), "codex-k3f9x2.a1b2c3d4", { budget: 100 });
    const next = "To continue this conversation, call delegate with conversation codex-k3f9x2.";
    expect(outcome).toEqual({
      text: `hello\n\n[${next}]`,
      // The --json object: every field there, null where there is no value.
      structured: { ...turnResultJson(result()), next },
      isError: false,
      complete: true,
    });
    expect(Object.keys(outcome.structured).slice(0, 2)).toEqual(["reply", "next"]);
  });

  it("a cut reply: the note first in the text, in next after the part, not complete", () => {
    const job = "codex-k3f9x2.a1b2c3d4";
    const outcome = finishedOutcome(result({ reply: "x".repeat(2500) }), job, { budget: 1000 });
    expect(outcome.complete).toBe(false);
    const note = `The reply is cut to fit one tool result: characters 0–1000 of 2500. For the rest, call wait with job ${job} and offset 1000 (in a shell, \`scv wait ${job}\` prints all of it).`;
    expect(outcome.text.split("\n")[0]).toBe(`[${note}]`);
    expect(outcome.structured.reply).toBe("x".repeat(1000));
    expect(outcome.structured.next).toBe(
      `${note} To continue this conversation, call delegate with conversation codex-k3f9x2.`,
    );
    expect(outcome.structured.notes).toEqual([]);
    const last = finishedOutcome(result({ reply: "x".repeat(2500) }), job, { budget: 1000, offset: 2000 });
    expect(last.complete).toBe(true);
    expect(last.text.split("\n")[0]).toBe("[This is the reply's last part: characters 2000–2500 of 2500.]");
  });

  it("a failure: a tool error whose first line is the command line's class and hint; the structured content leads with them", () => {
    const outcome = finishedOutcome(
      result({
        reply: "",
        status: "failed",
        exitCode: EXIT.auth,
        error: "Codex is not signed in (no auth.json)",
        hint: "run: scv agents login codex",
        fallbacks: ["claude", "gemini"],
        session: null,
        conversation: null,
      }),
      "",
      { budget: 1000 },
    );
    expect(outcome.isError).toBe(true);
    expect(outcome.text).toBe(
      "codex failed (exit 4, not signed in): Codex is not signed in (no auth.json) — run: scv agents login codex\ntry instead: claude, gemini",
    );
    expect(Object.keys(outcome.structured).slice(0, 4)).toEqual(["error", "hint", "fallbacks", "reply"]);
    expect(outcome.structured.next).toBeUndefined();
  });

  it("every exit code has its class", () => {
    for (const code of Object.values(EXIT)) expect(exitClass(code)).not.toBe("failed");
  });
});

describe("fitted", () => {
  const job = "codex-k3f9x2.a1b2c3d4";
  /** A reply that costs far more as shown than its characters: escapes, and 2- to 4-byte characters. */
  const heavy = Array.from({ length: 3000 }, (_, i) => `${i}: {"a": "\\\\", "b": "é😀\t"}`).join("\n");

  it("a part whose every form, notes included, fits the limit; the parts add up to the reply", () => {
    for (const limit of [SHOWN_BYTES, 20_000, 2_000]) {
      let read = "";
      let offset: number | undefined = 0;
      let parts = 0;
      while (offset !== undefined) {
        const from: number = offset;
        const made = fitted(limit, 1, (budget) => {
          const outcome = finishedOutcome(result({ reply: heavy }), job, { budget, offset: from });
          return { outcome };
        });
        const size = shownBytes(made.outcome.text, made.outcome.structured);
        expect(size, `${limit}: part ${parts}`).toBeLessThanOrEqual(limit);
        if (!made.outcome.complete) expect(size).toBeGreaterThan(limit * 0.9);
        read += made.outcome.structured.reply as string;
        offset = made.outcome.complete ? undefined : read.length;
        parts += 1;
      }
      expect(read).toBe(heavy);
    }
  });

  it("a fan-out's agents share the limit", () => {
    const made = fitted(SHOWN_BYTES, 3, (budget) => {
      const parts = ["codex", "claude", "gemini"].map((agent) => ({
        agent,
        handle: `${agent}-k3f9x2`,
        outcome: finishedOutcome(result({ agent, reply: heavy, conversation: `${agent}-k3f9x2` }), job, {
          budget,
        }),
      }));
      return { outcome: combinedOutcome(parts), parts };
    });
    expect(shownBytes(made.outcome.text, made.outcome.structured)).toBeLessThanOrEqual(SHOWN_BYTES);
    for (const part of made.parts)
      expect((part.outcome.structured.reply as string).length).toBeGreaterThan(5_000);
  });
});

describe("runningOutcome and errorOutcome", () => {
  it("a running job names what to call next, in the text and first in the structured content", () => {
    const next =
      "claude is still working on job claude-aaaaaa.a1b2c3d4. Call wait with job claude-aaaaaa.a1b2c3d4 for its reply, or cancel to stop it.";
    expect(
      runningOutcome({ job: "claude-aaaaaa.a1b2c3d4", conversation: "claude-aaaaaa", agent: "claude" }),
    ).toEqual({
      text: next,
      structured: { status: "running", next, job: "claude-aaaaaa.a1b2c3d4", conversation: "claude-aaaaaa" },
      isError: false,
    });
  });

  it("an ScvError is one line with its exit code; anything else is scv's own fault", () => {
    expect(errorOutcome(new ScvError("CONVERSATION_BUSY", "conversation busy — wait for it"))).toEqual({
      text: "conversation busy — wait for it (exit 2, usage error)",
      structured: { error: "conversation busy — wait for it", exitCode: 2 },
      isError: true,
    });
    expect(errorOutcome(new TypeError("x is undefined")).text).toMatch(
      /^internal error in scv mcp — please report it/,
    );
  });
});
