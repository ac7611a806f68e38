// Mode verification in-process: the rule, the messages, reading Codex's rollout files (finding the
// thread's file, skipping earlier turns, following a file that grows), and the watch that stops a
// turn.

import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { adapter } from "../../src/adapters.js";
import type { TurnEvent } from "../../src/parsers/event-types.js";
import {
  findRollout,
  type ModeMismatch,
  modeAllowed,
  RolloutReader,
  watchMode,
} from "../../src/transport/mode.js";

const THREAD = "01a23648-e58b-7653-a8e1-80985ae37ee1";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "scv-mode-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function entry(name: string) {
  const found = adapter(name);
  if (found === undefined) throw new Error(name);
  return found;
}

function turnContext(at: Date, sandbox: unknown): string {
  return `${JSON.stringify({
    timestamp: at.toISOString(),
    type: "turn_context",
    payload: { cwd: "/w", approval_policy: "never", sandbox_policy: sandbox, model: "m" },
  })}\n`;
}

function rolloutPath(): string {
  const day = join(dir, "sessions", "2026", "12", "02");
  mkdirSync(day, { recursive: true });
  return join(day, `rollout-2026-12-02T10-24-36-${THREAD}.jsonl`);
}

describe("the rule", () => {
  it.each([
    ["auto", "bypassPermissions", true],
    ["auto", "default", false],
    ["auto", "acceptEdits", false],
    ["default", "default", true],
    ["default", "plan", true],
    ["default", "bypassPermissions", false],
  ] as const)("--policy %s, reported %s: allowed %s", (policy, reported, allowed) => {
    expect(modeAllowed("bypassPermissions", policy, reported)).toBe(allowed);
  });
});

describe("rollout files", () => {
  it("finds the thread's file below the dated folders, by name only", () => {
    const path = rolloutPath();
    writeFileSync(path, "");
    writeFileSync(join(dir, "sessions", "2026", "12", "02", "rollout-x-other.jsonl"), "");
    expect(findRollout(join(dir, "sessions"), THREAD)).toBe(path);
    expect(findRollout(join(dir, "sessions"), "00000000-0000-0000-0000-000000000000")).toBeUndefined();
    expect(findRollout(join(dir, "missing"), THREAD)).toBeUndefined();
  });

  it("reads the sandbox of this turn's turn_context lines, following a growing file", () => {
    const path = rolloutPath();
    const since = Date.parse("2026-12-02T10:30:00.000Z");
    writeFileSync(
      path,
      `${JSON.stringify({ timestamp: "2026-12-02T10:24:36.000Z", type: "session_meta", payload: { id: THREAD, base_instructions: { text: "turn_context ".repeat(2000) } } })}\n` +
        // An earlier turn of the resumed thread, then junk.
        turnContext(new Date(since - 60_000), { type: "danger-full-access" }) +
        "not json turn_context\n",
    );
    const reader = new RolloutReader(path, since);
    expect(reader.read()).toEqual([]);
    // Half a line now, the rest later: nothing until it is whole.
    const line = turnContext(new Date(since + 10), { type: "read-only", network_access: false });
    appendFileSync(path, line.slice(0, 40));
    expect(reader.read()).toEqual([]);
    appendFileSync(path, line.slice(40));
    expect(reader.read()).toEqual(["read-only"]);
    expect(reader.read()).toEqual([]);
    // A bare string is taken too; a line without a timestamp counts as this turn's.
    appendFileSync(path, turnContext(new Date(since + 20), "workspace-write"));
    appendFileSync(
      path,
      `${JSON.stringify({ type: "turn_context", payload: { sandbox_policy: { type: "x" } } })}\n`,
    );
    expect(reader.read()).toEqual(["workspace-write", "x"]);
  });

  it("reads a large file over several looks", () => {
    const path = rolloutPath();
    const since = Date.now() - 1000;
    writeFileSync(path, `${"x".repeat(300_000)}\n${turnContext(new Date(), { type: "read-only" })}`);
    const reader = new RolloutReader(path, since);
    const looks = [1, 2, 3, 4, 5].map(() => reader.read(100_000));
    expect(looks[0]).toEqual([]);
    expect(looks.flat()).toEqual(["read-only"]);
  });
});

describe("watchMode", () => {
  it("claude: judges each mode event and calls for a stop once, with the message", () => {
    const mismatches: ModeMismatch[] = [];
    const watch = watchMode({
      entry: entry("claude"),
      policy: "default",
      home: "/h",
      started: Date.now(),
      onReport: () => {
        throw new Error("stream modes are not re-reported");
      },
      onMismatch: (mismatch) => mismatches.push(mismatch),
    });
    const events: TurnEvent[] = [
      { type: "session", sessionId: "s" },
      { type: "mode", mode: "default" },
      { type: "mode", mode: "bypassPermissions" },
      { type: "mode", mode: "bypassPermissions" },
    ];
    for (const event of events) watch.observe(event);
    watch.finish();
    expect(watch.reported).toBe("bypassPermissions");
    expect(mismatches).toEqual([
      {
        reported: "bypassPermissions",
        error: "claude reported permission mode 'bypassPermissions' under --policy default; scv stopped it",
        hint: "remove the setting that grants it from /h/.claude/settings.json, or pass --policy auto if it may have full permissions",
      },
    ]);
  });

  it("an agent that reports no mode is never judged", () => {
    const watch = watchMode({
      entry: entry("qwen"),
      policy: "auto",
      home: "/h",
      started: Date.now(),
      onReport: () => {},
      onMismatch: () => {
        throw new Error("no mismatch expected");
      },
    });
    watch.observe({ type: "mode", mode: "default" });
    watch.finish();
    expect(watch.reported).toBeUndefined();
  });

  it("codex: reads the rollout once the thread id is known; a report after the end says so", () => {
    const started = Date.now() - 1000;
    const reports: TurnEvent[] = [];
    const mismatches: ModeMismatch[] = [];
    const watch = watchMode({
      entry: entry("codex"),
      policy: "auto",
      home: dir,
      started,
      onReport: (event) => reports.push(event),
      onMismatch: (mismatch) => mismatches.push(mismatch),
      // Only the looks made here count.
      pollMs: 60_000,
    });
    watch.observe({ type: "session", sessionId: THREAD });
    expect(watch.reported).toBeUndefined();
    writeFileSync(rolloutPath(), turnContext(new Date(), { type: "read-only" }));
    watch.finish();
    expect(reports).toEqual([{ type: "mode", mode: "read-only" }]);
    expect(mismatches.map((mismatch) => mismatch.error)).toEqual([
      "codex reported sandbox policy 'read-only' under --policy auto, not 'danger-full-access'; the turn had already ended",
    ]);
  });

  it("codex: polls until the file appears", async () => {
    const watch = watchMode({
      entry: entry("codex"),
      policy: "auto",
      home: dir,
      started: Date.now() - 1000,
      onReport: () => {},
      onMismatch: () => {},
      pollMs: 5,
      maxPollMs: 20,
    });
    watch.observe({ type: "session", sessionId: THREAD });
    writeFileSync(rolloutPath(), turnContext(new Date(), { type: "danger-full-access" }));
    for (let i = 0; i < 400 && watch.reported === undefined; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    watch.finish();
    expect(watch.reported).toBe("danger-full-access");
    expect(watch.mismatch).toBeUndefined();
  });
});
