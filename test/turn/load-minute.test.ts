// A session loaded on a server that destroys one loaded within the minute it was saved in (Gemini CLI
// 0.61.0, the row's `acp.loadAfterMinute`): the minute read from the names of the session's files,
// and a continued ACP turn in that minute waiting for the next one. The fake ACP agent keeps Gemini
// CLI's session files and loads as it does, with its clock in a file this test advances as the
// turn's injected sleep runs, so scv and the agent read one clock. Without the wait the load wipes the
// session's history and fails, for good.

import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { adapter } from "../../src/adapters.js";
import { loadWaitMs } from "../../src/turn/load-minute.js";
import { runTurn } from "../../src/turn/run-turn.js";
import type { TurnContext } from "../../src/turn/turn-types.js";
import { killAll } from "../helpers/pids.js";
import { createWorld, geminiStarts, installGeminiBoth, type World } from "../helpers/scv.js";

const RULE = adapter("gemini")?.acp?.loadAfterMinute;
const SESSION = "6a784424-245a-442f-a735-ce4ba34463ca";

function rule() {
  if (RULE === undefined) throw new Error("gemini's row has no acp.loadAfterMinute");
  return RULE;
}

describe("loadWaitMs", () => {
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), "scv-load-minute-"));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  const put = (name: string, dir = join(home, ".gemini", "tmp", "work", "chats")) => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, name), "{}\n");
  };
  const at = (text: string) => Date.parse(text);

  it("waits out the minute the session's first file was made in, and no more", () => {
    put(`session-2026-12-07T14-03-${SESSION.slice(0, 8)}.jsonl`);
    // A later load's file of the same session, and another session's file of this minute.
    put(`session-2026-12-07T14-05-${SESSION.slice(0, 8)}.jsonl`);
    put("session-2026-12-07T14-03-0b1cd3e2.jsonl");
    expect(loadWaitMs(rule(), home, SESSION, at("2026-12-07T14:03:40Z"))).toBe(20_250);
    expect(loadWaitMs(rule(), home, SESSION, at("2026-12-07T14:03:00Z"))).toBe(60_250);
    expect(loadWaitMs(rule(), home, SESSION, at("2026-12-07T14:04:00Z"))).toBe(0);
    expect(loadWaitMs(rule(), home, "0b1cd3e2-0000-4000-8000-000000000000", at("2026-12-07T14:04:00Z"))).toBe(
      0,
    );
  });

  it("finds nothing to wait for without such a file, or through a link", () => {
    expect(loadWaitMs(rule(), home, SESSION, at("2026-12-07T14:03:40Z"))).toBe(0);
    const elsewhere = mkdtempSync(join(tmpdir(), "scv-load-minute-link-"));
    try {
      put(`session-2026-12-07T14-03-${SESSION.slice(0, 8)}.jsonl`, join(elsewhere, "chats"));
      mkdirSync(join(home, ".gemini", "tmp"), { recursive: true });
      symlinkSync(elsewhere, join(home, ".gemini", "tmp", "work"));
      expect(loadWaitMs(rule(), home, SESSION, at("2026-12-07T14:03:40Z"))).toBe(0);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});

describe("a continued ACP turn on Gemini CLI within the minute its session was saved", () => {
  let world: World;
  let clock: number;
  let nowFile: string;
  const slept: number[] = [];
  beforeEach(() => {
    world = createWorld();
    installGeminiBoth(world);
    nowFile = join(world.root, "now");
    clock = Date.parse("2026-12-07T14:03:20.000Z");
    writeFileSync(nowFile, String(clock));
    slept.length = 0;
  });
  afterEach(() => {
    killAll(geminiStarts(world).map((start) => start.pid));
    world.dispose();
  });

  function context(): TurnContext {
    return {
      env: { ...world.env, FAKE_ACP_GEMINI_FILES: "1", FAKE_ACP_NOW_FILE: nowFile },
      cwd: world.project,
      // Cold turns: each server is the turn's own.
      config: { defaults: { session_idle: "0" } },
      graceMs: 500,
      signInCheck: async () => undefined,
      now: () => new Date(clock),
      sleep: async (ms) => {
        slept.push(ms);
        clock += ms;
        writeFileSync(nowFile, String(clock));
      },
    };
  }

  it("waits for the next minute, then loads the session with its history", async () => {
    const first = await runTurn({ agent: "gemini", transport: "acp", prompt: "one" }, context());
    expect(first.exitCode, first.error ?? "").toBe(0);
    clock += 2_000;
    writeFileSync(nowFile, String(clock));
    const notices: string[] = [];
    const second = await runTurn(
      { continue: first.conversation ?? "", prompt: "two" },
      { ...context(), onNotice: (line) => notices.push(line) },
    );
    expect(second.exitCode, second.error ?? "").toBe(0);
    expect(second.reply).toBe("REPLY two (turn 2, mode default)");
    expect(slept).toEqual([38_250]);
    expect(notices).toEqual([
      `${first.conversation} waits 38s for the next minute: Gemini CLI loses a session loaded within the minute it was saved in`,
    ]);
    expect(second.notes).toContain(
      "scv waited 38s before loading the session: Gemini CLI loses a session loaded within the minute it was saved in",
    );
    // A minute later nothing waits.
    clock += 60_000;
    writeFileSync(nowFile, String(clock));
    const third = await runTurn({ continue: first.conversation ?? "", prompt: "three" }, context());
    expect(third.exitCode, third.error ?? "").toBe(0);
    expect(slept).toHaveLength(1);
  });
});
