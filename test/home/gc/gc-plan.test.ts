// src/home/gc/ without the CLI: what gc plans, what it removes, and that the report says exactly that.

import { lstatSync, readdirSync, renameSync, rmdirSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ADAPTERS, type AdapterDescriptor } from "../../../src/adapters.js";
import { temporaryPath } from "../../../src/home/atomic.js";
import { conversationsDir, lockConversation } from "../../../src/home/conversations.js";
import { planGc } from "../../../src/home/gc/gc-plan.js";
import { applyGc } from "../../../src/home/gc/gc-remove.js";
import { gcReport, gcReportSchema } from "../../../src/home/gc/gc-report.js";
import {
  conversationEntry,
  type GcPlan,
  handleAgent,
  sessionOf,
  usableSessionId,
} from "../../../src/home/gc/items.js";
import { findTranscripts } from "../../../src/home/gc/transcripts.js";
import { DAY, HOUR, MINUTE, type TempHome, tempHome, uuid } from "./fixture.js";

const NOW = Date.now();
const S_OLD = uuid(1); // claude, its record unused for 40 days
const S_LIVE = uuid(2); // claude, its record used yesterday
const S_ORPHAN = uuid(3); // claude, no record at all
const S_YOUNG = uuid(4); // claude, transcript written 10 days ago
const S_CODEX_OLD = uuid(5);
const S_CODEX_BUSY = uuid(6); // a turn is running in its conversation right now
const S_CODEX_RECENT = uuid(7);
const S_QWEN = uuid(8);

let home: TempHome;
/** Paths relative to SCV_HOME that a 30-day gc over every agent must remove, and nothing else. */
let expected: string[];

function entry(name: string): AdapterDescriptor {
  const found = (ADAPTERS as readonly AdapterDescriptor[]).find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no row ${name}`);
  return found;
}

beforeEach(() => {
  home = tempHome(NOW);
  const claude = "agents/claude/.claude/projects";
  const codex = "agents/codex/sessions";
  const qwen = "agents/qwen/.qwen/projects/-work/";
  expected = [];
  const gone = (path: string) => {
    expected.push(path);
    return path;
  };

  // claude: an old session with its subagents folder, a live one, an orphan, young and fresh files.
  home.file(gone(`${claude}/-work-a/${S_OLD}.jsonl`), 40 * DAY);
  home.file(gone(`${claude}/-work-a/${S_OLD}/subagents/agent-1.jsonl`), 40 * DAY);
  home.file(`${claude}/-work-a/${S_LIVE}.jsonl`, 40 * DAY);
  home.file(`${claude}/-work-a/notes.txt`, 40 * DAY);
  home.file(gone(`${claude}/-work-b/${S_ORPHAN}.jsonl`), 35 * DAY);
  home.file(`${claude}/-work-c/${S_YOUNG}.jsonl`, 10 * DAY);
  home.file(`${claude}/-work-c/fresh.jsonl`, MINUTE);
  home.file(gone(`${claude}/-work-c/${uuid(9)}.jsonl`), 31 * DAY, ""); // empty, just past the threshold
  // Symlinks out of the home, to a folder and to a file, both with old transcripts behind them.
  home.file(join(home.outside, "deep/old.jsonl"), 90 * DAY);
  home.file(join(home.outside, "file.jsonl"), 90 * DAY);
  home.symlink(`${claude}/link-out`, join(home.outside, "deep"));
  home.symlink(`${claude}/-work-d/linked.jsonl`, join(home.outside, "file.jsonl"));
  // Outside the transcript folder but inside the home.
  home.file("agents/claude/.claude/history.jsonl", 90 * DAY);
  home.age(gone(`${claude}/-work-a/${S_OLD}/subagents`), 40 * DAY);
  home.age(gone(`${claude}/-work-a/${S_OLD}`), 40 * DAY);
  home.age(gone(`${claude}/-work-b`), 35 * DAY);
  home.age(`${claude}/-work-d`, 90 * DAY);

  // codex: day folders the removals empty go too, the transcript folder itself stays.
  home.file(gone(`${codex}/2025/12/01/rollout-2025-12-01T10-00-00-${S_CODEX_OLD}.jsonl`), 60 * DAY);
  home.file(`${codex}/2025/11/01/rollout-2025-11-01T10-00-00-${S_CODEX_BUSY}.jsonl`, 50 * DAY);
  home.file(`${codex}/2026/05/30/rollout-2026-05-30T10-00-00-${S_CODEX_RECENT}.jsonl`, 2 * DAY);
  home.age(gone(`${codex}/2025/12/01`), 60 * DAY);
  home.age(gone(`${codex}/2025/12`), 60 * DAY);
  home.age(`${codex}/2025`, 60 * DAY);

  // qwen: its memory (.md) keeps the project folder.
  home.file(gone(`${qwen}chats/${S_QWEN}.jsonl`), 45 * DAY);
  home.file(`${qwen}memory/MEMORY.md`, 45 * DAY);
  home.age(gone(`${qwen}chats`), 45 * DAY);

  // gemini: named by the minute and the session id's first 8 characters, a later --resume's file of
  // the session beside its first; an old orphan goes, a live conversation's files stay.
  const gemini = "agents/gemini/.gemini/tmp/work/chats";
  const S_GEMINI_LIVE = uuid(15);
  home.file(gone(`${gemini}/session-2025-01-01T10-00-${uuid(16).slice(0, 8)}.jsonl`), 90 * DAY);
  home.file(`${gemini}/session-2025-01-01T10-00-${S_GEMINI_LIVE.slice(0, 8)}.jsonl`, 90 * DAY);
  home.file(`${gemini}/session-2025-02-01T11-00-${S_GEMINI_LIVE.slice(0, 8)}.jsonl`, 60 * DAY);
  home.record({ handle: "gemini-jjjjjj", agent: "gemini", sessionId: S_GEMINI_LIVE }, DAY);

  // copilot: a folder per session, which goes whole or not at all.
  const copilot = "agents/copilot/.copilot/session-state";
  const S_COPILOT_OLD = uuid(11);
  const S_COPILOT_TOUCHED = uuid(12); // one file in it written two days ago
  const S_COPILOT_LIVE = uuid(13); // its conversation used yesterday
  home.file(gone(`${copilot}/${S_COPILOT_OLD}/events.jsonl`), 40 * DAY);
  home.file(gone(`${copilot}/${S_COPILOT_OLD}/workspace.yaml`), 40 * DAY);
  home.file(gone(`${copilot}/${S_COPILOT_OLD}/checkpoints/index.md`), 40 * DAY);
  home.age(gone(`${copilot}/${S_COPILOT_OLD}/checkpoints`), 40 * DAY);
  home.age(gone(`${copilot}/${S_COPILOT_OLD}`), 40 * DAY);
  home.file(`${copilot}/${S_COPILOT_TOUCHED}/events.jsonl`, 40 * DAY);
  home.file(`${copilot}/${S_COPILOT_TOUCHED}/workspace.yaml`, 2 * DAY);
  home.age(`${copilot}/${S_COPILOT_TOUCHED}`, 40 * DAY);
  home.file(`${copilot}/${S_COPILOT_LIVE}/events.jsonl`, 40 * DAY);
  home.age(`${copilot}/${S_COPILOT_LIVE}`, 40 * DAY);
  home.record({ handle: "copilot-iiiiii", agent: "copilot", sessionId: S_COPILOT_LIVE }, DAY);
  // Not a session's name, and a session folder that is a link out of the home: both stay.
  home.file(`${copilot}/notes/old.jsonl`, 90 * DAY);
  home.age(`${copilot}/notes`, 90 * DAY);
  home.file(join(home.outside, "copilot-session/events.jsonl"), 90 * DAY);
  home.symlink(`${copilot}/${uuid(14)}`, join(home.outside, "copilot-session"));
  home.age(copilot, 90 * DAY);

  // pi: its transcript folder is reached through a symlink out of the home.
  home.file(join(home.outside, "pi/agent/sessions/--work--/old.jsonl"), 90 * DAY);
  home.symlink("agents/pi/.pi", join(home.outside, "pi"));

  // Conversation records, leftovers of crashed runs, and things that are not scv's.
  home.record({ handle: "claude-aaaaaa", agent: "claude", sessionId: S_OLD }, 40 * DAY);
  expected.push("conversations/claude-aaaaaa.json");
  home.record({ handle: "claude-bbbbbb", agent: "claude", sessionId: S_LIVE }, DAY);
  home.record({ handle: "codex-cccccc", agent: "codex", sessionId: S_CODEX_BUSY }, 50 * DAY);
  home.folder("conversations/codex-cccccc.json.lock", 10 * 1000);
  home.folder(gone("conversations/codex-dddddd.json.lock"), 3 * HOUR);
  // A lock folder holding something is not proper-lockfile's: left alone.
  home.file("conversations/codex-hhhhhh.json.lock/x", 3 * HOUR);
  home.age("conversations/codex-hhhhhh.json.lock", 3 * HOUR);
  home.file(gone("conversations/claude-bbbbbb.json.3735928559"), 2 * HOUR);
  home.file("conversations/claude-bbbbbb.json.42", 5 * MINUTE);
  home.file(gone("conversations/qwen-eeeeee.json"), 40 * DAY, "{ not json");
  home.record({ handle: "ghost-ffffff", agent: "ghost", sessionId: uuid(10) }, 40 * DAY);
  expected.push("conversations/ghost-ffffff.json");
  home.file("conversations/README.txt", 90 * DAY);
  home.file(join(home.outside, "record.json"), 90 * DAY, "{}");
  home.symlink("conversations/claude-gggggg.json", join(home.outside, "record.json"));
  expected.sort();
});

afterEach(() => home.remove());

function paths(plan: GcPlan): string[] {
  return plan.agents
    .flatMap((agent) => agent.items.map((item) => item.path.slice(home.scv.length + 1)))
    .sort();
}

describe("planGc", () => {
  it("picks exactly the old transcripts, records, leftovers and the folders they empty", () => {
    const plan = planGc({ env: home.env, now: NOW });
    expect(paths(plan)).toEqual(expected);
  });

  it("says why an agent's transcripts were skipped, and what it left", () => {
    const plan = planGc({ env: home.env, now: NOW });
    const byName = new Map(plan.agents.map((agent) => [agent.agent, agent]));
    expect(byName.get("opencode")?.skipped).toBe("scv does not know where it keeps transcripts");
    expect(byName.get("gemini")?.skipped).toBeUndefined();
    expect(byName.get("claude")?.skipped).toBeUndefined();
    expect(byName.get("pi")?.notes).toEqual([
      { path: join(home.scv, "agents/pi/.pi/agent/sessions"), reason: expect.stringContaining("symlink") },
    ]);
    expect(byName.get("ghost")?.skipped).toBe("not an agent this scv knows");
    expect(plan.agents.map((agent) => agent.agent)).toEqual([...ADAPTERS.map((row) => row.name), "ghost"]);
  });

  it("reads only: the planned files are all still there", () => {
    const before = home.snapshot();
    planGc({ env: home.env, now: NOW });
    expect(home.snapshot()).toEqual(before);
  });

  it("keeps an old transcript of a conversation used within the threshold", () => {
    const plan = planGc({ env: home.env, now: NOW });
    expect(paths(plan)).not.toContain(`agents/claude/.claude/projects/-work-a/${S_LIVE}.jsonl`);
    // With a threshold shorter than that last use, it goes.
    const short = planGc({ env: home.env, now: NOW, olderThanMs: 12 * HOUR });
    expect(paths(short)).toContain(`agents/claude/.claude/projects/-work-a/${S_LIVE}.jsonl`);
    expect(paths(short)).toContain("conversations/claude-bbbbbb.json");
  });

  it("keeps a conversation a turn is running in (fresh lock), and its session's transcripts", () => {
    const plan = planGc({ env: home.env, now: NOW, olderThanMs: 2 * HOUR });
    expect(paths(plan)).not.toContain("conversations/codex-cccccc.json");
    expect(paths(plan).some((path) => path.includes(S_CODEX_BUSY))).toBe(false);
    expect(paths(plan)).toContain(
      `agents/codex/sessions/2026/05/30/rollout-2026-05-30T10-00-00-${S_CODEX_RECENT}.jsonl`,
    );
  });

  it("never touches what was written in the last hour, whatever the threshold", () => {
    const plan = planGc({ env: home.env, now: NOW, olderThanMs: HOUR });
    expect(paths(plan)).not.toContain("agents/claude/.claude/projects/-work-c/fresh.jsonl");
    expect(paths(plan)).not.toContain("conversations/claude-bbbbbb.json.42");
    expect(() => planGc({ env: home.env, now: NOW, olderThanMs: 59 * MINUTE })).toThrow(
      /below the 1h minimum/,
    );
  });

  it("looks at one agent when asked, and refuses an unknown one", () => {
    const plan = planGc({ env: home.env, now: NOW, agent: "codex" });
    expect(plan.agents.map((agent) => agent.agent)).toEqual(["codex"]);
    expect(paths(plan)).toEqual(
      [
        `agents/codex/sessions/2025/12/01/rollout-2025-12-01T10-00-00-${S_CODEX_OLD}.jsonl`,
        "agents/codex/sessions/2025/12/01",
        "agents/codex/sessions/2025/12",
        "conversations/codex-dddddd.json.lock",
      ].sort(),
    );
    expect(() => planGc({ env: home.env, now: NOW, agent: "codx" })).toThrow(
      /unknown agent 'codx' — known: claude/,
    );
  });

  it("ties an old record's session transcripts to its handle, so they go under its lock", () => {
    const plan = planGc({ env: home.env, now: NOW });
    const claude = plan.agents.find((agent) => agent.agent === "claude");
    const handles = claude?.items.filter((item) => item.handle === "claude-aaaaaa").map((item) => item.kind);
    expect(handles).toEqual(["transcript", "transcript", "record"]);
  });
});

describe("applyGc", () => {
  it("removes exactly what it planned, and the report lists exactly that", async () => {
    const before = home.snapshot();
    const plan = planGc({ env: home.env, now: NOW });
    const results = await applyGc(plan, home.env);
    const removed = results.flatMap((result) =>
      result.removed.map((item) => item.path.slice(home.scv.length + 1)),
    );
    expect(removed.sort()).toEqual(paths(plan));
    expect(results.flatMap((result) => result.failed)).toEqual([]);

    // What is left is exactly what was there minus what was removed.
    const gone = new Set(expected.map((path) => `scv/${path}`));
    expect(home.snapshot()).toEqual(before.filter((path) => !gone.has(path)));

    const report = gcReportSchema.parse(gcReport(plan, results));
    expect(report.dryRun).toBe(false);
    const reported = report.agents.flatMap((agent) =>
      agent.items.map((item) => item.path.slice(home.scv.length + 1)),
    );
    expect(reported.sort()).toEqual(removed.sort());
    const bytes = results.flatMap((result) => result.removed).reduce((sum, item) => sum + item.bytes, 0);
    expect(report.total.bytes).toBe(bytes);
    expect(report.total.transcripts).toBe(10); // 3 of them the files of one Copilot CLI session
    expect(report.total.records).toBe(3);
    expect(report.agents.find((agent) => agent.agent === "opencode")?.skipped).toMatch(/does not know/);
  });

  it("keeps what changed since it planned, and what a symlink now leads to", async () => {
    const plan = planGc({ env: home.env, now: NOW });
    const claude = "agents/claude/.claude/projects";
    // The CLI appends to one (its mtime moves); another keeps its mtime but grew.
    home.file(`${claude}/-work-b/${S_ORPHAN}.jsonl`, 0, "appended\n");
    home.file(`agents/qwen/.qwen/projects/-work/chats/${S_QWEN}.jsonl`, 45 * DAY, "grown, same mtime\n");
    // Swap the codex day folder for a symlink to a copy elsewhere.
    const day = join(home.scv, "agents/codex/sessions/2025/12/01");
    renameSync(day, join(home.outside, "01"));
    home.symlink(day, join(home.outside, "01"));

    const results = await applyGc(plan, home.env);
    const kept = results.flatMap((result) => result.kept);
    for (const path of [
      `${claude}/-work-b/${S_ORPHAN}.jsonl`,
      `agents/qwen/.qwen/projects/-work/chats/${S_QWEN}.jsonl`,
    ]) {
      expect(kept).toContainEqual({ path: join(home.scv, path), reason: "written since gc looked" });
      expect(home.snapshot()).toContain(`scv/${path}`);
    }
    expect(kept).toContainEqual({
      path: join(
        home.scv,
        `agents/codex/sessions/2025/12/01/rollout-2025-12-01T10-00-00-${S_CODEX_OLD}.jsonl`,
      ),
      reason: "its folder is now reached through a symlink",
    });
    expect(readdirSync(join(home.outside, "01"))).toHaveLength(1);
  });

  it("leaves a conversation whose turn started meanwhile, and its transcripts", async () => {
    const plan = planGc({ env: home.env, now: NOW });
    const release = await lockConversation("claude-aaaaaa", home.env, 0);
    try {
      const results = await applyGc(plan, home.env);
      const claude = results.find((result) => result.agent === "claude");
      const busy = claude?.kept.filter((note) => note.reason === "a turn of claude-aaaaaa is running");
      expect(busy?.map((note) => note.path.slice(home.scv.length + 1)).sort()).toEqual(
        [
          "conversations/claude-aaaaaa.json",
          `agents/claude/.claude/projects/-work-a/${S_OLD}.jsonl`,
          `agents/claude/.claude/projects/-work-a/${S_OLD}/subagents/agent-1.jsonl`,
        ].sort(),
      );
      // Their folders are not empty, so they stay too; the orphan's folder went.
      const snapshot = home.snapshot();
      expect(snapshot).toContain(`scv/agents/claude/.claude/projects/-work-a/${S_OLD}/subagents`);
      expect(snapshot).not.toContain("scv/agents/claude/.claude/projects/-work-b");
    } finally {
      await release();
    }
  });

  it("reports a path it could not remove as failed, not as removed", async () => {
    const plan = planGc({ env: home.env, now: NOW });
    const denied = join(
      home.scv,
      `agents/codex/sessions/2025/12/01/rollout-2025-12-01T10-00-00-${S_CODEX_OLD}.jsonl`,
    );
    const results = await applyGc(plan, home.env, {
      unlink: (path) => {
        if (path === denied) throw Object.assign(new Error("denied"), { code: "EACCES" });
        unlinkSync(path);
      },
      rmdir: rmdirSync,
    });
    const codex = results.find((result) => result.agent === "codex");
    expect(codex?.failed).toEqual([{ path: denied, reason: "EACCES" }]);
    const report = gcReport(plan, results);
    const paths = report.agents.flatMap((agent) => agent.items.map((item) => item.path));
    expect(paths).not.toContain(denied);
    // Its day folder is not empty, so it stays, and says why.
    expect(paths).not.toContain(dirname(denied));
    expect(codex?.kept).toContainEqual({ path: dirname(denied), reason: "not empty" });
    expect(home.snapshot()).toContain(`scv/${denied.slice(home.scv.length + 1)}`);
  });

  it("never removes a path outside the agent home and scv's conversations, whatever a plan says", async () => {
    const outside = join(home.outside, "file.jsonl");
    const plan: GcPlan = {
      now: NOW,
      olderThanMs: DAY,
      notes: [],
      agents: [
        {
          agent: "claude",
          items: [{ kind: "transcript", path: outside, bytes: 16, mtimeMs: lstatSync(outside).mtimeMs }],
          notes: [],
        },
      ],
    };
    const [result] = await applyGc(plan, home.env);
    expect(result?.removed).toEqual([]);
    expect(result?.kept).toEqual([
      { path: outside, reason: "outside the agent home and scv's conversations" },
    ]);
    expect(home.snapshot()).toContain("outside/file.jsonl");
  });

  it("a second run finds nothing more", async () => {
    await applyGc(planGc({ env: home.env, now: NOW }), home.env);
    const again = planGc({ env: home.env, now: NOW });
    expect(paths(again)).toEqual([]);
  });
});

describe("names", () => {
  it("classifies scv's conversation files as atomic.ts and proper-lockfile name them", async () => {
    const tmp = temporaryPath("/x/codex-k3f9x2.json");
    expect(conversationEntry(tmp.slice(3))).toEqual({ kind: "temp", handle: "codex-k3f9x2" });
    const release = await lockConversation("codex-k3f9x2", home.env, 0);
    try {
      const names = readdirSync(conversationsDir(home.env)).filter((name) => name.startsWith("codex-k3f9x2"));
      expect(names.map(conversationEntry)).toEqual([{ kind: "lock", handle: "codex-k3f9x2" }]);
    } finally {
      await release();
    }
    expect(conversationEntry("claude-ai-k3f9x2.json")).toEqual({
      kind: "record",
      handle: "claude-ai-k3f9x2",
    });
    expect(handleAgent("claude-ai-k3f9x2")).toBe("claude-ai");
    for (const name of [
      "README.json",
      "codex-k3f9x2.json.tmp",
      "codex-k3f9x2.jsonl",
      "../codex-k3f9x2.json",
    ]) {
      expect(conversationEntry(name)).toBeUndefined();
    }
  });

  it("finds a session in the file and folder names each CLI uses", () => {
    const id = uuid(1);
    const sessions = new Map([[id, "h"]]);
    expect(sessionOf([id], sessions)).toBe(id); // claude, qwen
    expect(sessionOf([`rollout-2026-12-02T10-24-36-${id}`], sessions)).toBe(id); // codex
    expect(sessionOf([`2026-12-02T10-24-36-000Z_${id}`], sessions)).toBe(id); // pi
    expect(sessionOf([id, "subagents", "agent-1"], sessions)).toBe(id); // claude subagents
    expect(sessionOf([`x${id}`], sessions)).toBeUndefined();
    expect(sessionOf([id.slice(0, -1)], sessions)).toBeUndefined();
  });

  it("looks only for session ids shaped like the row's own", () => {
    expect(usableSessionId(entry("claude"), uuid(1))).toBe(true);
    expect(usableSessionId(entry("claude"), "")).toBe(false);
    expect(usableSessionId(entry("claude"), "abc")).toBe(false);
    expect(usableSessionId(entry("claude"), undefined)).toBe(false);
    expect(usableSessionId(undefined, "x")).toBe(false);
  });
});

describe("findTranscripts", () => {
  it("finds one session's files and the folders removing them empties", () => {
    const found = findTranscripts(entry("claude"), S_OLD, home.env);
    expect(found.kind).toBe("found");
    if (found.kind !== "found") return;
    expect(found.items.map((item) => `${item.kind} ${item.path.slice(home.scv.length + 1)}`)).toEqual([
      `transcript agents/claude/.claude/projects/-work-a/${S_OLD}.jsonl`,
      `transcript agents/claude/.claude/projects/-work-a/${S_OLD}/subagents/agent-1.jsonl`,
      `folder agents/claude/.claude/projects/-work-a/${S_OLD}/subagents`,
      `folder agents/claude/.claude/projects/-work-a/${S_OLD}`,
    ]);
  });

  it("finds a Gemini CLI session's files by the start of its id, each --resume's too", () => {
    const gemini = "agents/gemini/.gemini/tmp/work/chats";
    const id = uuid(17);
    home.file(`${gemini}/session-2026-12-07T14-03-${id.slice(0, 8)}.jsonl`, DAY);
    home.file(`${gemini}/session-2026-12-07T14-05-${id.slice(0, 8)}.jsonl`, MINUTE);
    home.file(`${gemini}/${id}/subagent-1.jsonl`, MINUTE);
    const found = findTranscripts(entry("gemini"), id, home.env);
    expect(found.kind).toBe("found");
    if (found.kind !== "found") return;
    expect(found.items.map((item) => `${item.kind} ${item.path.slice(home.scv.length + 1)}`)).toEqual([
      `transcript ${gemini}/session-2026-12-07T14-03-${id.slice(0, 8)}.jsonl`,
      `transcript ${gemini}/session-2026-12-07T14-05-${id.slice(0, 8)}.jsonl`,
      `transcript ${gemini}/${id}/subagent-1.jsonl`,
      `folder ${gemini}/${id}`,
    ]);
  });

  it("says so for an agent whose transcripts scv cannot find", () => {
    expect(findTranscripts(entry("opencode"), uuid(1), home.env)).toEqual({
      kind: "unknown",
      reason: "scv does not know where OpenCode keeps transcripts",
    });
    expect(findTranscripts(entry("pi"), uuid(1), home.env)).toMatchObject({
      kind: "unknown",
      reason: expect.stringContaining("symlink"),
    });
  });
});

describe("account homes", () => {
  it("plans and removes the old transcripts of every account's home, keeping a live one's", async () => {
    const work = "agents/claude@work/.claude/projects";
    const oldInWork = `${work}/-work-a/${uuid(20)}.jsonl`;
    const liveInWork = `${work}/-work-a/${uuid(21)}.jsonl`;
    home.file(oldInWork, 40 * DAY);
    home.file(liveInWork, 40 * DAY);
    home.record({ handle: "claude-wwwwww", agent: "claude", account: "work", sessionId: uuid(21) }, DAY);
    // Not an account's home: a folder whose name is no account.
    home.file(`agents/claude@Bad/.claude/projects/-x/${uuid(22)}.jsonl`, 40 * DAY);
    const plan = planGc({ env: home.env, now: NOW });
    expect(paths(plan)).toEqual([...expected, oldInWork].sort());
    const results = await applyGc(plan, home.env);
    const claude = results.find((result) => result.agent === "claude");
    expect(claude?.removed.map((item) => item.path)).toContain(join(home.scv, oldInWork));
    expect(claude?.failed).toEqual([]);
    expect(lstatSync(join(home.scv, liveInWork)).isFile()).toBe(true);
  });
});
