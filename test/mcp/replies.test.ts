// The MCP server's answers as pure functions: a reply cut into parts that add up to it, the budget a
// host's limit gives, failures in the command line's classes.

import { describe, expect, it } from "vitest";
import { EXIT, ScvError } from "../../src/errors.js";
import {
  errorOutcome,
  exitClass,
  finishedOutcome,
  replyBudget,
  replyPart,
  runningOutcome,
} from "../../src/mcp/replies.js";
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
  it("reads a long reply in parts that add up to it, never splitting a surrogate pair", () => {
    const reply = `${"ab😀".repeat(3000)}\n${"line\n".repeat(500)}end`;
    for (const budget of [1000, 1001, 1002, 4096]) {
      let read = "";
      let offset: number | undefined = 0;
      while (offset !== undefined) {
        const part = replyPart(reply, offset, budget);
        expect(part.text.length).toBeLessThanOrEqual(budget);
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

describe("replyBudget", () => {
  it("is half of Claude Code's 25 000-token default at 4 characters a token, or of MAX_MCP_OUTPUT_TOKENS", () => {
    expect(replyBudget({})).toBe(50_000);
    expect(replyBudget({ MAX_MCP_OUTPUT_TOKENS: "100000" })).toBe(200_000);
    expect(replyBudget({ MAX_MCP_OUTPUT_TOKENS: "lots" })).toBe(50_000);
    expect(replyBudget({ MAX_MCP_OUTPUT_TOKENS: "10" })).toBe(1_000);
  });
});

describe("finishedOutcome", () => {
  it("a reply, the conversation to continue, and the --json object", () => {
    const outcome = finishedOutcome(result(), "codex-k3f9x2", { budget: 100 });
    expect(outcome).toEqual({
      text: 'hello\n\n[conversation codex-k3f9x2 — to continue it, call delegate with "conversation": "codex-k3f9x2"]',
      structured: result(),
      isError: false,
      complete: true,
    });
  });

  it("a cut reply: the note first, the same note in the result's notes, not complete", () => {
    const outcome = finishedOutcome(result({ reply: "x".repeat(2500) }), "codex-k3f9x2", { budget: 1000 });
    expect(outcome.complete).toBe(false);
    expect(outcome.text.split("\n")[0]).toBe(
      '[reply cut to fit the tool result: characters 0–1000 of 2500 — the rest: call wait with {"job": "codex-k3f9x2", "offset": 1000}, or run `scv wait codex-k3f9x2` in a shell for all of it]',
    );
    expect(outcome.structured.reply).toBe("x".repeat(1000));
    expect(outcome.structured.notes).toEqual([outcome.text.split("\n")[0]?.slice(1, -1)]);
    const last = finishedOutcome(result({ reply: "x".repeat(2500) }), "codex-k3f9x2", {
      budget: 1000,
      offset: 2000,
    });
    expect(last.complete).toBe(true);
    expect(last.text.split("\n")[0]).toBe("[the reply's last part: characters 2000–2500 of 2500]");
  });

  it("a failure: a tool error whose first line is the command line's class and hint", () => {
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
  });

  it("every exit code has its class", () => {
    for (const code of Object.values(EXIT)) expect(exitClass(code)).not.toBe("failed");
  });
});

describe("runningOutcome and errorOutcome", () => {
  it("a running job names what to call next", () => {
    expect(runningOutcome({ job: "claude-aaaaaa", conversation: "claude-aaaaaa", agent: "claude" })).toEqual({
      text: 'claude is still working on job claude-aaaaaa — call wait with {"job": "claude-aaaaaa"} for its reply, or cancel to stop it.',
      structured: { status: "running", job: "claude-aaaaaa", conversation: "claude-aaaaaa" },
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
