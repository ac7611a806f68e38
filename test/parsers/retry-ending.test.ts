// Each real CLI's stream when its model answers a 429 and then succeeds (`retry-recovered`), and when
// every request gets a 429 (`retry-exhausted`), captured against the contract suite's loopback mock
// with the CLI's retries set to 2. A retry is not the end of a turn: the recovered turn is completed
// with only its reply, whatever the CLI reported before retrying; the exhausted one fails as a rate
// limit. Where each CLI puts its retries relative to its terminal event is in docs/agents.md.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { OutputFormatKind } from "../../src/adapters.js";
import type { TurnEvent } from "../../src/parsers/event-types.js";
import { FIXTURES, jsonLines, parse, runFixture } from "./run.js";

const CLIS: readonly (readonly [string, OutputFormatKind])[] = [
  ["claude", "claude-stream-json"],
  ["codex", "codex-jsonl"],
  ["pi", "pi-json"],
  ["gemini", "gemini-stream-json"],
  ["qwen", "qwen-stream-json"],
  ["opencode", "opencode-json"],
  ["copilot", "copilot-json"],
];

function isEnd(event: TurnEvent): boolean {
  return event.type === "turn-end" || (event.type === "error" && event.terminal);
}

describe("a turn the CLI retried", () => {
  it.each(CLIS)("%s: recovered after a 429 — completed, the reply only", (cli, format) => {
    const { turn } = runFixture(format, cli, "retry-recovered");
    expect(turn.status).toBe("completed");
    expect(turn.failure).toBeUndefined();
    // The mock numbers its successful answers; opencode's title request takes the first.
    expect(turn.reply).toMatch(/^MOCK-REPLY-[12]$/);
    expect(turn.badLines).toBe(0);
  });

  it.each(CLIS)("%s: every request a 429 — failed, rate limited", (cli, format) => {
    const { turn } = runFixture(format, cli, "retry-exhausted");
    expect(turn.status).toBe("failed");
    expect(turn.reply).toBe("");
    expect(turn.failure?.kind).toBe("rate-limit");
  });

  it("pi reports the failed attempt's end before its retry, and the retry's own end last", () => {
    const { events } = runFixture("pi-json", "pi", "retry-recovered");
    const order = events.filter((event) => isEnd(event) || event.type === "retry").map((event) => event.type);
    expect(order).toEqual(["error", "turn-end", "retry", "turn-end"]);
  });

  it("the other CLIs report their retries before their one terminal event", () => {
    for (const [cli, format] of CLIS) {
      if (cli === "pi") continue;
      for (const name of ["retry-recovered", "retry-exhausted"]) {
        const { events } = runFixture(format, cli, name);
        const firstEnd = events.findIndex(isEnd);
        const lastRetry = events.findLastIndex((event) => event.type === "retry");
        expect(lastRetry, `${cli} ${name}`).toBeLessThan(firstEnd === -1 ? events.length : firstEnd);
      }
    }
  });
});

describe("pi's order, line by line", () => {
  const HEADER = { type: "session", version: 3, id: "0d2a1c4e-5b6f-4a70-8c9d-1e2f3a4b5c6d" };
  const failed = {
    role: "assistant",
    content: [],
    stopReason: "error",
    errorMessage: "429 Rate limit reached for requests (mock)",
  };
  const answered = { role: "assistant", content: [{ type: "text", text: "Hi there" }], stopReason: "stop" };

  it("agent_end error → auto_retry_start → … → agent_end ok: completed, no failure", () => {
    const { turn } = parse(
      "pi-json",
      jsonLines(
        HEADER,
        { type: "message_end", message: failed },
        { type: "agent_end", messages: [failed] },
        {
          type: "auto_retry_start",
          attempt: 1,
          maxAttempts: 3,
          delayMs: 2000,
          errorMessage: failed.errorMessage,
        },
        { type: "message_end", message: answered },
        { type: "auto_retry_end", success: true, attempt: 1 },
        { type: "agent_end", messages: [answered] },
      ),
    );
    expect(turn).toMatchObject({ status: "completed", reply: "Hi there" });
    expect(turn.failure).toBeUndefined();
  });

  it("retries exhausted: the last agent_end's error is the failure", () => {
    const { turn } = parse(
      "pi-json",
      jsonLines(
        HEADER,
        { type: "agent_end", messages: [failed] },
        {
          type: "auto_retry_start",
          attempt: 1,
          maxAttempts: 1,
          delayMs: 2000,
          errorMessage: failed.errorMessage,
        },
        { type: "agent_end", messages: [failed] },
        { type: "auto_retry_end", success: false, attempt: 1, finalError: failed.errorMessage },
      ),
    );
    expect(turn).toMatchObject({
      status: "failed",
      reply: "",
      failure: { kind: "rate-limit", message: failed.errorMessage },
    });
  });

  it("the captures are the real CLI's, not reconstructed", () => {
    for (const name of ["retry-recovered", "retry-exhausted"]) {
      const meta = JSON.parse(readFileSync(`${FIXTURES}pi/${name}.json`, "utf8")) as Record<string, unknown>;
      expect(meta.reconstructed).toBeUndefined();
      expect(meta.exit_code).toBe(0);
    }
  });
});
