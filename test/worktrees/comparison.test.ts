// The comparison of attempts: one row per attempt from its result, diffstat and check; the JSON
// shape (the rows, checked by their schema) and the terminal table's columns.

import { describe, expect, it } from "vitest";
import { comparisonCells, renderComparison } from "../../src/commands/comparison.js";
import type { TurnResult } from "../../src/result.js";
import { comparisonRow, comparisonRowSchema } from "../../src/worktrees/comparison.js";

function result(overrides: Partial<TurnResult> = {}): TurnResult {
  return {
    reply: "done",
    status: "completed",
    agent: "codex",
    conversation: "codex-k3f9x2",
    session: "0199a213-81c0-7800-8aa1-bbab2a035a53",
    usage: { input: 12_000, cached: 8_000, output: 450 },
    cost: 0.0123,
    duration: 95_000,
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

const check = { command: "npm test", status: "pass" as const, exitCode: 0, durationMs: 12_400, tail: [] };

describe("comparisonRow", () => {
  it("makes one row from a turn's result, its worktree's diffstat and its check", () => {
    const row = comparisonRow({
      result: result(),
      attempt: { attempt: 2, of: 3 },
      worktree: { branch: "scv/codex-k3f9x2", dir: "/scv/worktrees/app-1234abcd/codex-k3f9x2" },
      diffstat: { files: 3, added: 40, removed: 7 },
      check,
    });
    expect(row).toEqual({
      agent: "codex",
      attempt: 2,
      attempts: 3,
      conversation: "codex-k3f9x2",
      branch: "scv/codex-k3f9x2",
      worktree: "/scv/worktrees/app-1234abcd/codex-k3f9x2",
      files: 3,
      added: 40,
      removed: 7,
      check: "pass",
      checkExitCode: 0,
      checkDuration: 12_400,
      tokens: 12_450,
      cost: 0.0123,
      duration: 95_000,
      status: "completed",
      exitCode: 0,
    });
    // --json prints the rows as they are: an array its schema reads back whole.
    const json = JSON.parse(JSON.stringify([row]));
    expect(comparisonRowSchema().parse(json[0])).toEqual(row);
  });

  it("says none where there was no worktree, no check, no usage", () => {
    const row = comparisonRow({
      result: result({
        status: "failed",
        exitCode: 1,
        usage: null,
        cost: null,
        conversation: null,
        duration: 800,
      }),
    });
    expect(row).toMatchObject({
      attempt: 1,
      attempts: 1,
      branch: null,
      files: null,
      check: "none",
      checkDuration: null,
      tokens: null,
      cost: null,
    });
    expect(comparisonRowSchema().safeParse(row).success).toBe(true);
  });
});

describe("renderComparison", () => {
  it("prints agent, conversation, files, +/-, check with its time, tokens, cost, turn time", () => {
    const rows = [
      comparisonRow({
        result: result(),
        attempt: { attempt: 1, of: 2 },
        diffstat: { files: 3, added: 40, removed: 7 },
        check,
      }),
      comparisonRow({
        result: result({ conversation: "codex-p2q8rt", usage: { output: 90 }, cost: null, duration: 61_000 }),
        attempt: { attempt: 2, of: 2 },
        diffstat: { files: 1, added: 2, removed: 0 },
        check: { ...check, status: "fail", exitCode: 1, durationMs: 3_000 },
      }),
      comparisonRow({
        result: result({
          agent: "claude",
          conversation: "claude-a1b2c3",
          status: "timeout",
          exitCode: 124,
          usage: null,
        }),
        diffstat: { files: 0, added: 0, removed: 0 },
      }),
    ];
    expect(renderComparison(rows)).toBe(
      [
        "AGENT     CONVERSATION   FILES  +/-     CHECK     TOKENS  COST     TIME",
        "codex #1  codex-k3f9x2   3      +40/-7  pass 12s  12.4k   $0.0123  1m35s",
        "codex #2  codex-p2q8rt   1      +2/-0   fail 3s   90      -        1m1s",
        "claude    claude-a1b2c3  0      +0/-0   none      -       $0.0123  1m35s (timeout)",
        "",
      ].join("\n"),
    );
  });

  it("shows an agent's text as text, not as terminal controls", () => {
    const row = comparisonRow({ result: result({ agent: "x\u001b[2Jy" }) });
    expect(comparisonCells(row)[0]).toBe("x\u001b[2Jy");
    expect(renderComparison([row])).not.toContain("\u001b");
  });
});
