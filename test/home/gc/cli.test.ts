// `scv agents gc`, run in-process (test/helpers/in-process.ts): what it lists under --dry-run is
// what it then removes, its report says so, and bad thresholds are refused with exit 2.

import { statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ADAPTERS } from "../../../src/adapters.js";
import { gcReportSchema } from "../../../src/home/gc/gc-report.js";
import { runScv } from "../../helpers/in-process.js";
import { DAY, HOUR, MINUTE, type TempHome, tempHome, uuid } from "./fixture.js";

const scv = (args: string[], env: Record<string, string>) => runScv(args, env);

let home: TempHome;
let gone: string[];

beforeEach(() => {
  const now = Date.now();
  home = tempHome(now);
  gone = [];
  const will = (path: string) => {
    gone.push(path);
    return path;
  };
  const claude = "agents/claude/.claude/projects";
  home.file(will(`${claude}/-p/${uuid(1)}.jsonl`), 40 * DAY, "x".repeat(2048));
  home.file(`${claude}/-p/${uuid(2)}.jsonl`, 40 * DAY); // its conversation was used two days ago
  home.file(`${claude}/-p/readme.md`, 40 * DAY);
  home.file(`${claude}/-q/${uuid(3)}.jsonl`, MINUTE);
  home.file(join(home.outside, "old.jsonl"), 90 * DAY);
  home.symlink(`${claude}/link`, home.outside);
  const day = "agents/codex/sessions/2025/01/01";
  home.file(will(`${day}/rollout-2025-01-01T10-00-00-${uuid(4)}.jsonl`), 60 * DAY, "y".repeat(100));
  home.age(will(day), 60 * DAY);
  home.age(will("agents/codex/sessions/2025/01"), 60 * DAY);
  home.age(will("agents/codex/sessions/2025"), 60 * DAY);
  // Gemini CLI names its files by the start of the session id: 00000005 is no gemini conversation's.
  home.file(will("agents/gemini/.gemini/tmp/w/chats/session-2025-01-01T10-00-00000005.jsonl"), 90 * DAY);
  home.record({ handle: "claude-old111", agent: "claude", sessionId: uuid(5) }, 40 * DAY);
  gone.push("conversations/claude-old111.json");
  home.record({ handle: "claude-live22", agent: "claude", sessionId: uuid(2), lastPrompt: "hi" }, 2 * DAY);
  home.file(will("conversations/claude-live22.json.12345"), 3 * HOUR, "{");
  home.folder(will("conversations/codex-dead33.json.lock"), 3 * HOUR);
  gone.sort();
});

afterEach(() => home.remove());

const relativePaths = (report: ReturnType<typeof gcReportSchema.parse>) =>
  report.agents.flatMap((agent) => agent.items.map((item) => item.path.slice(home.scv.length + 1))).sort();

describe("scv agents gc", () => {
  it("--dry-run --json lists what would go, with sizes, and removes nothing", async () => {
    const before = home.snapshot();
    const result = await scv(["agents", "gc", "--dry-run", "--json"], home.env);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const report = gcReportSchema.parse(JSON.parse(result.stdout));
    expect(report).toMatchObject({ dryRun: true, olderThan: "30d", olderThanMs: 30 * DAY });
    expect(relativePaths(report)).toEqual(gone);
    const claude = report.agents.find((agent) => agent.agent === "claude");
    expect(claude?.items.find((item) => item.kind === "transcript")?.bytes).toBe(2048);
    expect(report.total).toMatchObject({ transcripts: 3, records: 1, leftovers: 2, folders: 3 });
    expect(report.total.bytes).toBe(
      2048 + 100 + 16 + statSync(join(home.scv, "conversations/claude-old111.json")).size + 1,
    );
    expect(report.agents.find((agent) => agent.agent === "opencode")?.skipped).toMatch(/does not know/);
    expect(home.snapshot()).toEqual(before);
  });

  it("then removes exactly that, and its report matches what it removed", async () => {
    const before = home.snapshot();
    const dry = gcReportSchema.parse(
      JSON.parse((await scv(["agents", "gc", "--dry-run", "--json"], home.env)).stdout),
    );
    const result = await scv(["agents", "gc", "--json"], home.env);
    expect(result.code).toBe(0);
    const report = gcReportSchema.parse(JSON.parse(result.stdout));
    expect(report.dryRun).toBe(false);
    expect(relativePaths(report)).toEqual(relativePaths(dry));
    expect(report.total).toEqual(dry.total);
    const removed = new Set(gone.map((path) => `scv/${path}`));
    expect(home.snapshot()).toEqual(before.filter((path) => !removed.has(path)));
    // Nothing is left to do.
    const again = gcReportSchema.parse(JSON.parse((await scv(["agents", "gc", "--json"], home.env)).stdout));
    expect(again.total).toEqual({ transcripts: 0, records: 0, leftovers: 0, folders: 0, bytes: 0 });
  });

  it("prints a table of what would go under --dry-run, and counts per agent otherwise", async () => {
    const dry = await scv(["agents", "gc", "--dry-run"], home.env);
    expect(dry.code).toBe(0);
    const lines = dry.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^AGENT\s+KIND\s+SIZE\s+MODIFIED\s+PATH \(in .*\/scv\)$/);
    expect(dry.stdout).toMatch(
      new RegExp(
        `claude\\s+transcript\\s+2\\.0 KB\\s+\\S+\\s+agents/claude/.claude/projects/-p/${uuid(1)}\\.jsonl`,
      ),
    );
    expect(dry.stdout).toMatch(/codex\s+folder\s+0 B\s+\S+\s+agents\/codex\/sessions\/2025\n/);
    expect(lines.at(-1)).toMatch(
      /^would free 2\.\d KB: 3 transcripts, 1 record, 2 leftovers, 3 folders \(dry run/,
    );
    expect(dry.stderr).toMatch(
      /^scv: transcripts skipped for grok, dsh, opencode, .* — scv does not know where/m,
    );

    const run = await scv(["agents", "gc"], home.env);
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n")[0]).toMatch(
      /^AGENT\s+TRANSCRIPTS\s+RECORDS\s+LEFTOVERS\s+FOLDERS\s+FREED$/,
    );
    expect(run.stdout).toMatch(/^claude\s+1\s+1\s+1\s+0\s+2\.\d KB$/m);
    expect(run.stdout).toMatch(/^codex\s+1\s+0\s+1\s+3\s+100 B$/m);
    expect(run.stdout).toMatch(/^gemini\s+1\s+0\s+0\s+0\s+16 B$/m);
    expect(run.stdout).toMatch(/^opencode\s+skipped\s+0\s+0\s+0\s+0 B$/m);
    expect(run.stdout).toMatch(/^total\s+3\s+1\s+2\s+3\s+2\.\d KB$/m);
  });

  it("cleans one agent when named, with the threshold given", async () => {
    const result = await scv(["agents", "gc", "codex", "--older-than", "61d", "--json"], home.env);
    expect(result.code).toBe(0);
    const report = gcReportSchema.parse(JSON.parse(result.stdout));
    expect(report.agents.map((agent) => agent.agent)).toEqual(["codex"]);
    // The transcript is 60 days old: only the dead lock goes.
    expect(relativePaths(report)).toEqual(["conversations/codex-dead33.json.lock"]);
  });

  it("refuses a threshold under an hour, a non-duration and an unknown agent with exit 2 and one line", async () => {
    const before = home.snapshot();
    for (const [args, message] of [
      [
        ["--older-than", "30m"],
        "scv: --older-than 30m is below the 1h minimum: anything written in the last hour may still be in use — use 1h or more",
      ],
      [["--older-than", "soon"], "scv: --older-than 'soon' is not a duration — use e.g. 30d, 12h or 90m"],
      [["codx"], `scv: unknown agent 'codx' — known: ${ADAPTERS.map((entry) => entry.name).join(", ")}`],
    ] as const) {
      const result = await scv(["agents", "gc", ...args], home.env);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toBe(`${message}\n`);
    }
    expect(home.snapshot()).toEqual(before);
  });
});
