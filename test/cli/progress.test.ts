// Progress rendering without a terminal: the pure formatting, the rate gate, and both renderers
// driven with a fake stream and clock.

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  clip,
  createProgress,
  droppedLine,
  formatCost,
  formatDelay,
  formatTokens,
  liveLine,
  printable,
  retryActivity,
  retryLine,
  summaryLine,
  toolLine,
} from "../../src/cli/progress.js";
import { formatElapsed } from "../../src/duration.js";
import { toolStartEvent } from "../../src/parsers/tool-tracker.js";
import { RateGate } from "../../src/rate-gate.js";
import type { TurnResult } from "../../src/result.js";

function result(overrides: Partial<TurnResult> = {}): TurnResult {
  return {
    reply: "ok",
    status: "completed",
    agent: "claude",
    conversation: "claude-abc123",
    session: null,
    usage: null,
    cost: null,
    duration: 12_400,
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

describe("formatting", () => {
  it.each([
    [0, "0s"],
    [999, "0s"],
    [7_200, "7s"],
    [65_000, "1m05s"],
    [3_725_000, "1h02m"],
  ])("elapsed %i ms is %s", (ms, text) => expect(formatElapsed(ms)).toBe(text));

  it.each([
    [950, "950"],
    [1_000, "1k"],
    [12_245, "12.2k"],
    [3_400_000, "3.4M"],
  ])("%i tokens is %s", (count, text) => expect(formatTokens(count)).toBe(text));

  it("costs: four decimals below a dollar, two above", () => {
    expect(formatCost(0.02456)).toBe("$0.0246");
    expect(formatCost(1.234)).toBe("$1.23");
  });

  it("strips control characters (escape sequences) from agent text", () => {
    expect(printable("$ echo \u001b[31mred\u001b[0m\nnext\ttab")).toBe("$ echo  [31mred [0m next tab");
  });

  it("clips to a width with an ellipsis, counting code points", () => {
    expect(clip("abcdef", 6)).toBe("abcdef");
    expect(clip("abcdef", 4)).toBe("abc…");
    expect(clip("ünï🙂code", 4)).toBe("ünï…");
    expect(clip("abc", 0)).toBe("");
  });

  it("the live line: agent, elapsed, tools, activity, one column short of the width", () => {
    const state = { label: "claude", elapsedMs: 12_000, tools: 3, activity: "$ npm test" };
    expect(liveLine(state, 80)).toBe("claude 12s · 3 tools · $ npm test");
    expect(liveLine({ ...state, tools: 1 }, 80)).toBe("claude 12s · 1 tool · $ npm test");
    expect(liveLine({ ...state, tools: 0, activity: undefined }, 80)).toBe("claude 12s");
    expect(liveLine(state, 20)).toBe("claude 12s · 3 too…");
    expect(liveLine(state, 20)).toHaveLength(19);
  });

  it("plain lines", () => {
    expect(toolLine("codex", 3_000, "$ ls\n-la")).toBe("codex 3s $ ls -la");
    expect(droppedLine("codex", 12)).toBe("codex … 12 more");
  });

  it("the summary: outcome and duration, tokens, cost", () => {
    expect(summaryLine(result())).toBe("claude done in 12s");
    expect(
      summaryLine(
        result({ usage: { input: 245, cached: 12_000, output: 6, costUsd: 0.02456 }, cost: 0.02456 }),
      ),
    ).toBe("claude done in 12s · 12.2k in (12k cached) / 6 out tokens · $0.0246");
    expect(summaryLine(result({ status: "timeout", duration: 600_000 }))).toBe(
      "claude timed out after 10m00s",
    );
    expect(summaryLine(result({ status: "failed", agent: "" }))).toBe("scv failed after 12s");
    expect(summaryLine(result({ usage: { input: 0, output: 0, costUsd: 0 }, cost: 0 }))).toBe(
      "claude done in 12s · 0 in / 0 out tokens",
    );
  });
});

describe("retries", () => {
  it("say which attempt of how many, the wait and why, leaving out what the CLI did not say", () => {
    const full = {
      type: "retry",
      message: "rate_limit (429)",
      attempt: 3,
      maxAttempts: 10,
      delayMs: 2_300,
      status: 429,
    } as const;
    expect(retryLine("claude", 12_000, full)).toBe("claude 12s retrying 3/10 in 2.3s: rate_limit (429)");
    expect(retryActivity({ type: "retry", message: "transient_auth_error", attempt: 1, status: 401 })).toBe(
      "retrying 1: transient_auth_error (401)",
    );
    expect(retryActivity({ type: "retry", message: "overloaded" })).toBe("retrying: overloaded");
    expect(formatDelay(500)).toBe("0.5s");
    expect(formatDelay(2_000)).toBe("2s");
    expect(formatDelay(32_702)).toBe("32s");
    expect(formatDelay(65_000)).toBe("1m05s");
  });

  it("on a terminal: the live line says what the turn waits for", () => {
    vi.useFakeTimers();
    try {
      const stream = new FakeStream(true);
      const progress = createProgress({ stream, label: "gemini", now: () => 21_000 });
      progress.event(
        { type: "retry", message: "quota exceeded", attempt: 3, delayMs: 23_927, kind: "rate-limit" },
        "gemini",
      );
      vi.advanceTimersByTime(100);
      expect(stream.text.split("\r\u001b[2K").at(-1)).toBe("gemini 0s · retrying 3 in 23s: quota exceeded");
    } finally {
      vi.useRealTimers();
    }
  });

  it("off a terminal: one line per retry, never held back by a burst of tools", () => {
    const stream = new FakeStream(false);
    const progress = createProgress({ stream, label: "pi", now: () => 0 });
    for (let i = 1; i <= 5; i += 1)
      progress.event({ type: "tool-start", id: String(i), name: "bash", summary: `$ step ${i}` }, "pi");
    progress.event(
      { type: "retry", message: "429 Rate limit", attempt: 1, maxAttempts: 3, delayMs: 2_000 },
      "pi",
    );
    progress.event(
      { type: "retry", message: "429 Rate limit", attempt: 2, maxAttempts: 3, delayMs: 4_000 },
      "pi",
    );
    expect(stream.text.split("\n").slice(-4)).toEqual([
      "pi … 2 more",
      "pi 0s retrying 1/3 in 2s: 429 Rate limit",
      "pi 0s retrying 2/3 in 4s: 429 Rate limit",
      "",
    ]);
  });
});

describe("RateGate", () => {
  it("lets a burst through, then the average rate", () => {
    let now = 0;
    const gate = new RateGate(3, 3, () => now);
    expect([gate.take(), gate.take(), gate.take(), gate.take()]).toEqual([true, true, true, false]);
    now = 200;
    expect(gate.take()).toBe(false);
    now = 340;
    expect(gate.take()).toBe(true);
    now = 10_000;
    expect([gate.take(), gate.take(), gate.take(), gate.take()]).toEqual([true, true, true, false]);
  });
});

class FakeStream {
  text = "";
  constructor(
    readonly isTTY: boolean,
    readonly columns = 80,
  ) {}
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
}

describe("on a terminal", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("redraws one line in place, at most ten times a second, then prints the summary", () => {
    const stream = new FakeStream(true);
    let now = 0;
    const progress = createProgress({ stream, label: "claude", now: () => now });
    expect(stream.text).toBe("\r\u001b[2Kclaude 0s · starting");
    now = 50;
    progress.event({ type: "tool-start", id: "1", name: "Bash", summary: "$ npm test" }, "claude");
    // Within 100 ms of the last draw: deferred, not drawn.
    expect(stream.text.split("\r\u001b[2K")).toHaveLength(2);
    now = 60;
    progress.event({ type: "tool-start", id: "2", name: "Bash", summary: "$ ls" }, "claude");
    now = 100;
    vi.advanceTimersByTime(50);
    expect(stream.text.endsWith("\r\u001b[2Kclaude 0s · 2 tools · $ ls")).toBe(true);
    expect(stream.text.split("\r\u001b[2K")).toHaveLength(3);
    // The elapsed time moves while the agent is silent.
    now = 2_100;
    vi.advanceTimersByTime(2_000);
    expect(stream.text.endsWith("claude 2s · 2 tools · $ ls")).toBe(true);
    progress.done(result({ duration: 2_100, cost: 0.5 }));
    expect(stream.text.endsWith("\r\u001b[2Kclaude done in 2s · $0.5000\n")).toBe(true);
    const length = stream.text.length;
    vi.advanceTimersByTime(5_000);
    expect(stream.text).toHaveLength(length);
    expect(stream.text).not.toContain("\n\r");
  });

  it("held, the line is erased and neither ticks nor events redraw it until released", () => {
    const stream = new FakeStream(true);
    let now = 0;
    const progress = createProgress({ stream, label: "gemini", now: () => now });
    const release = progress.hold();
    expect(stream.text).toBe("\r\u001b[2Kgemini 0s · starting\r\u001b[2K");
    // Something else owns the line now (a permission question): nothing is written over it.
    stream.text += "question? ";
    progress.event({ type: "tool-start", id: "1", name: "Bash", summary: "$ touch x" }, "gemini");
    now = 5_000;
    vi.advanceTimersByTime(5_000);
    expect(stream.text.endsWith("question? ")).toBe(true);
    stream.text += "\nscv: allowed once\n";
    release();
    release();
    expect(stream.text.endsWith("scv: allowed once\n\r\u001b[2Kgemini 5s · 1 tool · $ touch x")).toBe(true);
    now = 6_000;
    vi.advanceTimersByTime(1_000);
    expect(stream.text.endsWith("\r\u001b[2Kgemini 6s · 1 tool · $ touch x")).toBe(true);
  });

  it("a turn the agent never spoke in leaves no summary, only a cleared line", () => {
    const stream = new FakeStream(true);
    const progress = createProgress({ stream, label: "codex", now: () => 0 });
    progress.done(result({ status: "failed", exitCode: 3 }));
    expect(stream.text).toBe("\r\u001b[2Kcodex 0s · starting\r\u001b[2K");
  });

  it("fits the terminal's width and keeps agent escape sequences out", () => {
    const stream = new FakeStream(true, 24);
    const progress = createProgress({ stream, label: "claude", now: () => 1_000 });
    progress.event(
      { type: "tool-start", id: "1", name: "Bash", summary: "$ printf '\u001b]0;pwned\u0007'" },
      "claude",
    );
    vi.advanceTimersByTime(100);
    const last = stream.text.split("\r\u001b[2K").at(-1) ?? "";
    expect(last).toBe("claude 0s · 1 tool · $…");
    expect(stream.text).not.toContain("\u001b]");
  });
});

describe("off a terminal", () => {
  it("one line per tool start and retry, a burst counted, nothing else (no summary)", () => {
    const stream = new FakeStream(false);
    let now = 0;
    const progress = createProgress({ stream, label: "pi", now: () => now });
    expect(stream.text).toBe("");
    for (let i = 1; i <= 10; i += 1) {
      progress.event({ type: "tool-start", id: String(i), name: "bash", summary: `$ step ${i}` }, "pi");
      progress.event({ type: "tool-end", id: String(i), name: "bash", ok: true }, "pi");
      progress.event({ type: "text", text: "x" }, "pi");
    }
    now = 5_000;
    progress.event({ type: "retry", message: "overloaded (529)" }, "pi");
    progress.done(result({ agent: "pi" }));
    expect(stream.text).toBe(
      [
        "pi 0s $ step 1",
        "pi 0s $ step 2",
        "pi 0s $ step 3",
        "pi … 7 more",
        "pi 5s retrying: overloaded (529)",
        "",
      ].join("\n"),
    );
  });

  it("tells a count still held back when the turn ends", () => {
    const stream = new FakeStream(false);
    const progress = createProgress({ stream, label: "pi", now: () => 0 });
    for (let i = 1; i <= 5; i += 1) {
      progress.event({ type: "tool-start", id: String(i), name: "bash", summary: `$ step ${i}` }, "pi");
    }
    progress.done(result({ agent: "pi" }));
    expect(stream.text.split("\n").slice(-2)).toEqual(["pi … 2 more", ""]);
  });

  it("makes the summaries only of the lines it shows: a burst of 10,000 tools makes three", () => {
    const stream = new FakeStream(false);
    const progress = createProgress({ stream, label: "pi", now: () => 0 });
    let made = 0;
    for (let i = 1; i <= 10_000; i += 1) {
      const start = toolStartEvent(String(i), "bash", () => {
        made += 1;
        return `$ step ${i}`;
      });
      progress.event(start, "pi");
    }
    progress.done(result({ agent: "pi" }));
    expect(made).toBe(3);
    expect(stream.text.split("\n")).toEqual([
      "pi 0s $ step 1",
      "pi 0s $ step 2",
      "pi 0s $ step 3",
      "pi … 9997 more",
      "",
    ]);
  });
});

describe("on a terminal, a burst of tools", () => {
  it("makes the summary of a tool only when the line is drawn with it", () => {
    vi.useFakeTimers();
    try {
      const stream = new FakeStream(true);
      let now = 0;
      const progress = createProgress({ stream, label: "claude", now: () => now });
      let made = 0;
      now = 200;
      for (let i = 1; i <= 1_000; i += 1) {
        progress.event(
          toolStartEvent(String(i), "Bash", () => {
            made += 1;
            return `$ step ${i}`;
          }),
          "claude",
        );
      }
      now = 300;
      vi.advanceTimersByTime(100);
      expect(made).toBe(2);
      expect(stream.text.endsWith("claude 0s · 1000 tools · $ step 1000")).toBe(true);
      progress.done(result());
    } finally {
      vi.useRealTimers();
    }
  });
});
