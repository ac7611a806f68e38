// `scv ps`'s table from a snapshot: the account, tokens so far and state of each running turn
// (running, needs approval with the question, cooling until the reset with the time left), and the
// session hosts.

import { describe, expect, it } from "vitest";
import { psTable } from "../../src/commands/ps.js";
import type { RunningTurn } from "../../src/jobs/list.js";

const NOW = Date.parse("2026-12-07T12:00:00Z");

function turn(overrides: Partial<RunningTurn>): RunningTurn {
  return {
    handle: "codex-k3f9x2",
    job: "codex-k3f9x2.a1b2c3d4",
    agent: "codex",
    account: "default",
    model: null,
    pid: 4242,
    scvPid: 4241,
    startedAt: "2026-12-07T11:58:00Z",
    elapsedMs: 120_000,
    tool: "$ npm test",
    tokens: 12_345,
    state: "running",
    question: null,
    coolingUntil: null,
    background: true,
    depth: 0,
    cwd: "/work",
    prompt: "Fix it",
    approval: null,
    ...overrides,
  };
}

describe("scv ps's table", () => {
  it("says each turn's account, tokens so far and state", () => {
    const table = psTable({
      at: NOW,
      hosts: [],
      turns: [
        turn({}),
        turn({
          job: "claude-aaaaaa.b1b2b3b4",
          agent: "claude",
          account: "work",
          tokens: null,
          state: "needs-approval",
          question: "claude asks to run Bash: $ rm -rf build",
        }),
        turn({
          job: "gemini-bbbbbb.c1c2c3c4",
          agent: "gemini",
          pid: null,
          tool: null,
          state: "cooling",
          coolingUntil: "2026-12-07T12:04:30Z",
        }),
      ],
    });
    expect(table).toBe(
      [
        "JOB                     AGENT   ACCOUNT  PID   ELAPSED  TOKENS  STATE                                       TOOL",
        "codex-k3f9x2.a1b2c3d4   codex   default  4242  2m       12.3k   running                                     $ npm test",
        "claude-aaaaaa.b1b2b3b4  claude  work     4242  2m       -       needs approval                              claude asks to run Bash: $ rm -rf build",
        "gemini-bbbbbb.c1c2c3c4  gemini  default  -     2m       12.3k   cooling until 2026-12-07T12:04:30Z (4m30s)",
        "",
      ].join("\n"),
    );
  });

  it("is nothing when nothing runs", () => {
    expect(psTable({ at: NOW, hosts: [], turns: [] })).toBeUndefined();
  });
});
