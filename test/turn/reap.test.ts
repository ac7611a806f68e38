// The reaper against an injected process table: which processes it kills (only those whose start
// time still matches, or that carry the turn's tag), what it records, and what it leaves alone.

import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmdirSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ScvError } from "../../src/errors.js";
import type { ConversationRecord } from "../../src/home/conversations.js";
import { heldLockIdentity, lockConversation, writeConversation } from "../../src/home/conversations.js";
import { jobFile, runningHandles, turnFile } from "../../src/home/turn-files.js";
import { type RunningTurnRecord, readFinished } from "../../src/home/turn-records.js";
import { readUsage } from "../../src/home/usage-log.js";
import type { ProcessTable } from "../../src/os/processes.js";
import { listRunning, reapOrphans } from "../../src/turn/reap.js";

interface FakeProcess {
  startTime: string;
  tag?: string;
  zombie?: boolean;
}

/** Processes by pid; `killed` lists every signal sent, as "pid" or "-pid" for a group. */
function fakeTable(processes: Record<number, FakeProcess>) {
  const killed: string[] = [];
  const table: ProcessTable = {
    startTime: (pid) => processes[pid]?.startTime,
    pidsWithEnv: (name, value) =>
      name === "SCV_TURN"
        ? Object.entries(processes)
            .filter(([, found]) => found.tag === value && !found.zombie)
            .map(([pid]) => Number(pid))
        : [],
    kill(pid, signal, group) {
      killed.push(`${group ? "-" : ""}${pid} ${signal}`);
      if (signal === "SIGKILL") delete processes[pid];
    },
    zombie: (pid) => processes[pid]?.zombie === true,
  };
  return { table, killed };
}

let home: string;
let env: Record<string, string>;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "scv-reaper-"));
  env = { SCV_HOME: home };
  mkdirSync(join(home, "turns"), { recursive: true });
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function record(handle: string, overrides: Partial<RunningTurnRecord> = {}): RunningTurnRecord {
  const value: RunningTurnRecord = {
    version: 1,
    handle,
    tag: `${handle}.nonce123`,
    agent: "claude",
    prompt: "Say hi",
    cwd: "/project",
    depth: 0,
    background: false,
    host: hostname(),
    startedAt: "2026-01-01T10:00:00.000Z",
    scv: { pid: 100, startTime: "1000" },
    agentProcess: { pid: 200, startTime: "2000" },
    ...overrides,
  };
  writeFileSync(turnFile(handle, "running", env), JSON.stringify(value));
  return value;
}

function conversation(handle: string, updatedAt: string): void {
  const value: ConversationRecord = {
    handle,
    agent: "claude",
    sessionId: "3f0c9a52-6a53-4a8e-9c1e-2f7d5b8e4a10",
    cwd: "/project",
    policy: "default",
    createdAt: "2026-01-01T09:00:00.000Z",
    updatedAt,
    turns: 1,
    usage: {},
    lastStatus: "completed",
  };
  writeConversation(value, env);
}

function lastStatus(handle: string): unknown {
  return (
    JSON.parse(readFileSync(join(home, "conversations", `${handle}.json`), "utf8")) as ConversationRecord
  ).lastStatus;
}

describe("reapOrphans", () => {
  it("costs nothing and finds nothing without a turns folder", async () => {
    rmSync(join(home, "turns"), { recursive: true });
    expect(runningHandles(env)).toEqual([]);
    expect(await reapOrphans(env, fakeTable({}).table)).toEqual([]);
  });

  it("leaves a turn whose scv is alive alone, and lists it", async () => {
    record("claude-aaaaaa");
    const { table, killed } = fakeTable({ 100: { startTime: "1000" }, 200: { startTime: "2000" } });
    expect(await reapOrphans(env, table)).toEqual([]);
    expect(killed).toEqual([]);
    expect(listRunning(env, table).map((turn) => turn.handle)).toEqual(["claude-aaaaaa"]);
  });

  it("kills the agent's group and every tagged process of a turn whose scv died, and records it cancelled", async () => {
    record("claude-aaaaaa");
    conversation("claude-aaaaaa", "2026-01-01T09:30:00.000Z");
    const { table, killed } = fakeTable({
      200: { startTime: "2000", tag: "claude-aaaaaa.nonce123" },
      201: { startTime: "2001", tag: "claude-aaaaaa.nonce123" },
      // Left the group with setsid: found by its tag alone.
      300: { startTime: "3000", tag: "claude-aaaaaa.nonce123" },
      // Another turn's process.
      400: { startTime: "4000", tag: "claude-bbbbbb.nonce456" },
    });
    expect(await reapOrphans(env, table)).toEqual(["claude-aaaaaa"]);
    expect(killed).toEqual(["-200 SIGKILL", "-201 SIGKILL", "-300 SIGKILL"]);
    expect(existsSync(turnFile("claude-aaaaaa", "running", env))).toBe(false);
    const finished = readFinished("claude-aaaaaa.nonce123", env);
    expect(finished).toMatchObject({
      reaped: true,
      tag: "claude-aaaaaa.nonce123",
      result: {
        status: "cancelled",
        exitCode: 143,
        agent: "claude",
        conversation: "claude-aaaaaa",
        error: "the scv running this turn (pid 100) died, and a later scv stopped claude",
        hint: 'continue the conversation: scv delegate -c claude-aaaaaa "…"',
      },
    });
    expect(lastStatus("claude-aaaaaa")).toBe("cancelled");
  });

  it("removes the dead turn's TMPDIR, and no folder a record names that is not one", async () => {
    const temp = mkdtempSync(join(home, "scv-claude-aaaaaa-"));
    writeFileSync(join(temp, "left.so"), "");
    record("claude-aaaaaa", { tmp: temp });
    // Not a turn folder: another handle's name, and a folder of the user's.
    const other = mkdtempSync(join(home, "scv-claude-cccccc-"));
    record("claude-bbbbbb", { tmp: other });
    const mine = join(home, "projects");
    mkdirSync(mine);
    record("claude-dddddd", { tmp: mine });
    const { table } = fakeTable({});
    expect((await reapOrphans(env, table)).sort()).toEqual([
      "claude-aaaaaa",
      "claude-bbbbbb",
      "claude-dddddd",
    ]);
    expect(existsSync(temp)).toBe(false);
    expect(existsSync(other)).toBe(true);
    expect(existsSync(mine)).toBe(true);
  });

  it("never signals a reused pid: a recorded pid whose start time differs is someone else's", async () => {
    record("claude-aaaaaa");
    // scv's pid and the agent's pid both belong to new processes now.
    const { table, killed } = fakeTable({ 100: { startTime: "9100" }, 200: { startTime: "9200" } });
    expect(await reapOrphans(env, table)).toEqual(["claude-aaaaaa"]);
    expect(killed).toEqual([]);
    expect(readFinished("claude-aaaaaa.nonce123", env)?.result.status).toBe("cancelled");
  });

  it("takes a zombie scv for dead", async () => {
    record("claude-aaaaaa");
    const { table } = fakeTable({ 100: { startTime: "1000", zombie: true } });
    expect(await reapOrphans(env, table)).toEqual(["claude-aaaaaa"]);
  });

  it("keeps the conversation of a turn that recorded its own end before its scv died", async () => {
    record("claude-aaaaaa");
    conversation("claude-aaaaaa", "2026-01-01T10:05:00.000Z");
    await reapOrphans(env, fakeTable({}).table);
    expect(lastStatus("claude-aaaaaa")).toBe("completed");
    // It concluded, so its usage line is written already: the reaper adds none.
    expect(readUsage(new Date(0), new Date(), env).entries).toEqual([]);
  });

  it("puts a turn whose scv died in the usage log: a failed turn of unknown usage", async () => {
    record("claude-aaaaaa", { model: "sonnet" });
    conversation("claude-aaaaaa", "2026-01-01T09:30:00.000Z");
    record("claude-bbbbbb", { scv: { pid: 101, startTime: "1001" }, tag: "claude-bbbbbb.nonce456" });
    await reapOrphans(env, fakeTable({}).table);
    const { entries } = readUsage(new Date(0), new Date(), env);
    expect(entries.sort((a, b) => String(a.conversation).localeCompare(String(b.conversation)))).toEqual([
      expect.objectContaining({
        agent: "claude",
        account: "default",
        model: "sonnet",
        conversation: "claude-aaaaaa",
        startedAt: "2026-01-01T10:00:00.000Z",
        status: "cancelled",
        exitCode: 143,
      }),
      expect.objectContaining({ conversation: null, status: "cancelled" }),
    ]);
    expect(entries.every((entry) => entry.usage === undefined)).toBe(true);
  });

  it("keeps the result a background turn saved before its scv died", async () => {
    record("claude-aaaaaa", { background: true });
    const saved = {
      version: 1,
      handle: "claude-aaaaaa",
      tag: "claude-aaaaaa.nonce123",
      agent: "claude",
      background: true,
      reaped: false,
      startedAt: "2026-01-01T10:00:00.000Z",
      endedAt: "2026-01-01T10:01:00.000Z",
      result: {
        reply: "done",
        status: "completed",
        agent: "claude",
        conversation: "claude-aaaaaa",
        session: null,
        usage: null,
        cost: null,
        duration: 60_000,
        exitCode: 0,
        error: null,
        hint: null,
        fallbacks: [],
        notes: [],
        mode: null,
        badLines: 0,
      },
    };
    writeFileSync(jobFile("claude-aaaaaa.nonce123", "done", env), JSON.stringify(saved));
    await reapOrphans(env, fakeTable({}).table);
    expect(readFinished("claude-aaaaaa.nonce123", env)?.result.reply).toBe("done");
    expect(existsSync(turnFile("claude-aaaaaa", "running", env))).toBe(false);
  });

  it("reaps the turns of an scv it killed: an agent's own delegation goes with it", async () => {
    record("claude-aaaaaa");
    // The nested scv (pid 500) carries the outer turn's tag; its own agent (600) carries its own.
    record("codex-bbbbbb", {
      agent: "codex",
      tag: "codex-bbbbbb.nonce456",
      scv: { pid: 500, startTime: "5000" },
      agentProcess: { pid: 600, startTime: "6000" },
      depth: 1,
    });
    const { table, killed } = fakeTable({
      200: { startTime: "2000", tag: "claude-aaaaaa.nonce123" },
      500: { startTime: "5000", tag: "claude-aaaaaa.nonce123" },
      600: { startTime: "6000", tag: "codex-bbbbbb.nonce456" },
    });
    expect(await reapOrphans(env, table)).toEqual(["claude-aaaaaa", "codex-bbbbbb"]);
    expect(killed).toEqual(["-200 SIGKILL", "-500 SIGKILL", "-600 SIGKILL"]);
    expect(runningHandles(env)).toEqual([]);
  });

  describe("the conversation lock of the turn", () => {
    const lockDir = () => join(home, "conversations", "claude-aaaaaa.json.lock");
    /** A lock folder as proper-lockfile makes one, and its identity as the turn recorded it. */
    function takenLock(): NonNullable<RunningTurnRecord["lock"]> {
      mkdirSync(lockDir(), { recursive: true });
      const stats = lstatSync(lockDir(), { bigint: true });
      return { dev: String(stats.dev), ino: String(stats.ino), born: String(stats.birthtimeNs) };
    }
    const busy = () =>
      lockConversation("claude-aaaaaa", env, 0).then(
        async (release) => {
          await release();
          return false;
        },
        (error: unknown) => error instanceof ScvError && error.code === "CONVERSATION_BUSY",
      );

    it("is removed once the turn's scv is proven dead, so the conversation continues at once", async () => {
      conversation("claude-aaaaaa", "2026-01-01T09:30:00.000Z");
      record("claude-aaaaaa", { lock: takenLock() });
      expect(await busy()).toBe(true);
      expect(await reapOrphans(env, fakeTable({}).table)).toEqual(["claude-aaaaaa"]);
      expect(existsSync(lockDir())).toBe(false);
      expect(await busy()).toBe(false);
    });

    it("stays while the turn's scv is alive", async () => {
      record("claude-aaaaaa", { lock: takenLock() });
      const { table } = fakeTable({ 100: { startTime: "1000" }, 200: { startTime: "2000" } });
      expect(await reapOrphans(env, table)).toEqual([]);
      expect(existsSync(lockDir())).toBe(true);
      expect(await busy()).toBe(true);
    });

    it("stays when it is another lock folder than the one the dead turn took, or about to go stale", async () => {
      const recorded = takenLock();
      rmdirSync(lockDir());
      // A later turn's lock, taken over after the dead turn's went stale: maybe the same inode,
      // born later.
      await new Promise((resolve) => setTimeout(resolve, 50));
      takenLock();
      record("claude-aaaaaa", { lock: recorded });
      expect(await reapOrphans(env, fakeTable({}).table)).toEqual(["claude-aaaaaa"]);
      expect(existsSync(lockDir())).toBe(true);

      // The dead turn's own lock, but last refreshed 25 s ago: a live turn may take it over any
      // moment now, so it is left to that.
      rmdirSync(lockDir());
      const old = takenLock();
      const past = new Date(Date.now() - 25_000);
      utimesSync(lockDir(), past, past);
      record("claude-aaaaaa", { lock: old });
      expect(await reapOrphans(env, fakeTable({}).table)).toEqual(["claude-aaaaaa"]);
      expect(existsSync(lockDir())).toBe(true);
    });

    it("is never one this process holds", async () => {
      const release = await lockConversation("claude-aaaaaa", env, 0);
      try {
        const stats = lstatSync(lockDir(), { bigint: true });
        const lock = { dev: String(stats.dev), ino: String(stats.ino), born: String(stats.birthtimeNs) };
        expect(heldLockIdentity("claude-aaaaaa", env)).toEqual(lock);
        record("claude-aaaaaa", { lock });
        expect(await reapOrphans(env, fakeTable({}).table)).toEqual(["claude-aaaaaa"]);
        expect(existsSync(lockDir())).toBe(true);
      } finally {
        await release();
      }
      expect(heldLockIdentity("claude-aaaaaa", env)).toBeUndefined();
    });
  });

  it("leaves a record of another host alone", async () => {
    record("claude-aaaaaa", { host: "elsewhere" });
    const { table, killed } = fakeTable({});
    expect(await reapOrphans(env, table)).toEqual([]);
    expect(killed).toEqual([]);
    expect(runningHandles(env)).toEqual(["claude-aaaaaa"]);
  });
});
