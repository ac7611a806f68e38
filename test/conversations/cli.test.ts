// `scv conversations`, run in-process (test/helpers/in-process.ts): records written by scv's own
// writer round-trip through list and show, rm removes them (and with --transcript the agent's
// transcript of that session), and unknown or malformed handles exit 2 with one line.

import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type ConversationRecord,
  conversationSchema,
  lockConversation,
  writeConversation,
} from "../../src/home/conversations.js";
import { conversationJson } from "../../src/json-shapes.js";
import { runScv } from "../helpers/in-process.js";
import { DAY, HOUR, type TempHome, tempHome, uuid } from "../home/gc/fixture.js";

const scv = (args: string[], env: Record<string, string>) => runScv(args, env);

let home: TempHome;
let now: number;
const CLAUDE_PROJECTS = "agents/claude/.claude/projects/-work-project";

function record(partial: Partial<ConversationRecord> & { handle: string; agent: string }, age: number) {
  const time = new Date(now - age).toISOString();
  const full = conversationSchema().parse({
    cwd: "/work/project",
    policy: "auto",
    createdAt: new Date(now - age - HOUR).toISOString(),
    updatedAt: time,
    turns: 2,
    ...partial,
  });
  writeConversation(full, home.env);
  return full;
}

let codex: ConversationRecord;
let claude: ConversationRecord;
let gemini: ConversationRecord;

beforeEach(() => {
  now = Date.now();
  home = tempHome(now);
  codex = record(
    {
      handle: "codex-k3f9x2",
      agent: "codex",
      sessionId: uuid(1),
      model: "gpt-5.2",
      effort: "high",
      lastPrompt:
        "Fix the flaky test in\nparser.test.ts — it fails one run in ten when the machine is loaded, see CI",
      usage: { input: 12000, cached: 3000, output: 800, reasoning: 120, costUsd: 0.0421 },
      lastStatus: "ok",
    },
    3 * HOUR,
  );
  claude = record(
    { handle: "claude-a1b2c3", agent: "claude", sessionId: uuid(2), lastPrompt: "hi" },
    2 * DAY,
  );
  gemini = record({ handle: "gemini-zz99yy", agent: "gemini", sessionId: uuid(3) }, DAY);
  home.file(`${CLAUDE_PROJECTS}/${uuid(2)}.jsonl`, 2 * DAY, "x".repeat(300));
  home.file(`${CLAUDE_PROJECTS}/${uuid(2)}/subagents/agent-1.jsonl`, 2 * DAY);
  home.file(`${CLAUDE_PROJECTS}/${uuid(9)}.jsonl`, 2 * DAY); // another session
  home.file(`${CLAUDE_PROJECTS}/${uuid(2)}.txt`, 2 * DAY); // named after it, other extension
});

afterEach(() => home.remove());

describe("scv conversations list", () => {
  it("lists handle, agent, turns, last used, cwd, model and a one-line preview, newest first", async () => {
    const result = await scv(["conversations", "list"], home.env);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^HANDLE\s+AGENT\s+TURNS\s+LAST USED\s+CWD\s+MODEL\s+LAST PROMPT$/);
    expect(lines[1]).toMatch(
      /^codex-k3f9x2\s+codex\s+2\s+3h ago\s+\/work\/project\s+gpt-5\.2\s+Fix the flaky test in parser\.test\.ts — it fails one run in …$/,
    );
    expect(lines[2]).toMatch(/^gemini-zz99yy\s+gemini\s+2\s+1d ago\s+\/work\/project\s+-\s+-$/);
    expect(lines[3]).toMatch(/^claude-a1b2c3\s+claude\s+2\s+2d ago\s+\/work\/project\s+-\s+hi$/);
    expect(lines).toHaveLength(4);
    // A bare `scv conversations` is the same list.
    expect((await scv(["conversations"], home.env)).stdout).toBe(result.stdout);
  });

  it("prints the records as JSON, also from a bare `scv conversations --json`", async () => {
    const result = await scv(["conversations", "list", "--json"], home.env);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([codex, gemini, claude].map(conversationJson));
    // Every field there, null where a record has no value (docs/output.md).
    expect(JSON.parse(result.stdout)[1]).toMatchObject({ account: "default", model: null, cumulative: null });
    expect((await scv(["conversations", "--json"], home.env)).stdout).toBe(result.stdout);
  });

  it("says there are none, and flags a damaged record without failing", async () => {
    home.file("conversations/codex-broken.json", HOUR, "{ nope");
    const listed = await scv(["conversations", "--json"], home.env);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toHaveLength(3);
    expect(listed.stderr).toBe(
      "scv: skipped damaged record codex-broken.json — remove it with: scv conversations rm codex-broken\n",
    );
    const empty = tempHome(now);
    try {
      const none = await scv(["conversations"], empty.env);
      expect(none).toEqual({
        code: 0,
        stdout: "",
        stderr: "scv: no conversations yet — start one with: scv delegate <agent> <prompt>\n",
      });
      expect(JSON.parse((await scv(["conversations", "--json"], empty.env)).stdout)).toEqual([]);
    } finally {
      empty.remove();
    }
  });
});

describe("scv conversations show", () => {
  it("prints the record as JSON, every field there, and what the next turn uses", async () => {
    const result = await scv(["conversations", "show", "codex-k3f9x2", "--json"], home.env);
    expect(result.code).toBe(0);
    const { next, ...stored } = JSON.parse(result.stdout);
    expect(stored).toEqual(conversationJson(codex));
    // The first turn's model and effort; its policy (auto) is never carried to a later turn.
    expect(next).toEqual({
      agent: "codex",
      account: "default",
      cwd: "/work/project",
      model: "gpt-5.2",
      effort: "high",
      policy: "default",
    });
  });

  it("says the policy of the next turn is the config's for the agent, when it has one", async () => {
    const config = join(home.root, "config.toml");
    writeFileSync(config, '[agents.codex]\npolicy = "auto"\nmodel = "gpt-5.5"\n');
    const result = await scv(["conversations", "show", "codex-k3f9x2"], { ...home.env, SCV_CONFIG: config });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^policy\s+auto \(the first turn's; a later turn asks for its own\)$/m);
    expect(result.stdout).toMatch(
      /^next turn\s+model gpt-5\.2 · effort high · policy auto \(from scv's config\)$/m,
    );
  });

  it("prints the session id and usage totals", async () => {
    const result = await scv(["conversations", "show", "codex-k3f9x2"], home.env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^session\\s+${uuid(1)}$`, "m"));
    expect(result.stdout).toMatch(
      /^usage\s+input 12000 · cached 3000 · output 800 · reasoning 120 · cost \$0\.0421$/m,
    );
    expect(result.stdout).toMatch(/^model\s+gpt-5\.2$/m);
    expect(result.stdout).toMatch(/^last used\s+\S+ \(3h ago\)$/m);
    expect(result.stdout).toMatch(
      /^last prompt\s+Fix the flaky test in parser\.test\.ts — it fails one run in ten/m,
    );
  });

  it("refuses an unknown, a malformed and a damaged handle with exit 2 and one line", async () => {
    home.file("conversations/codex-broken.json", HOUR, "{ nope");
    const cases = [
      ["codex-zzzzzz", "scv: no conversation 'codex-zzzzzz' — run: scv conversations list\n"],
      [
        "../etc/passwd",
        "scv: '../etc/passwd' is not a conversation handle (like codex-k3f9x2) — run: scv conversations list\n",
      ],
      [
        "codex-broken",
        /^scv: conversation record .*codex-broken\.json is damaged — remove it with: scv conversations rm codex-broken\n$/,
      ],
    ] as const;
    for (const [handle, message] of cases) {
      const result = await scv(["conversations", "show", handle], home.env);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      if (typeof message === "string") expect(result.stderr).toBe(message);
      else expect(result.stderr).toMatch(message);
    }
  });
});

describe("scv conversations rm", () => {
  it("removes the record and nothing else; then it is unknown", async () => {
    const before = home.snapshot();
    const result = await scv(["conversations", "rm", "claude-a1b2c3"], home.env);
    expect(result).toEqual({ code: 0, stdout: "", stderr: "scv: removed conversation claude-a1b2c3\n" });
    expect(home.snapshot()).toEqual(before.filter((path) => path !== "scv/conversations/claude-a1b2c3.json"));
    expect((await scv(["conversations", "show", "claude-a1b2c3"], home.env)).code).toBe(2);
    expect(await scv(["conversations", "rm", "claude-a1b2c3"], home.env)).toMatchObject({
      code: 2,
      stderr: "scv: no conversation 'claude-a1b2c3' — run: scv conversations list\n",
    });
    expect(JSON.parse((await scv(["conversations", "--json"], home.env)).stdout)).toEqual(
      [codex, gemini].map(conversationJson),
    );
  });

  it("with --transcript removes that session's transcript files and the folders they leave empty", async () => {
    const before = home.snapshot();
    const result = await scv(["conversations", "rm", "claude-a1b2c3", "--transcript"], home.env);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr.split("\n")).toEqual([
      `scv: removed transcript ${home.scv}/${CLAUDE_PROJECTS}/${uuid(2)}.jsonl (300 B)`,
      `scv: removed transcript ${home.scv}/${CLAUDE_PROJECTS}/${uuid(2)}/subagents/agent-1.jsonl (16 B)`,
      "scv: removed conversation claude-a1b2c3",
      "",
    ]);
    const gone = new Set(
      [
        "conversations/claude-a1b2c3.json",
        `${CLAUDE_PROJECTS}/${uuid(2)}.jsonl`,
        `${CLAUDE_PROJECTS}/${uuid(2)}`,
        `${CLAUDE_PROJECTS}/${uuid(2)}/subagents`,
        `${CLAUDE_PROJECTS}/${uuid(2)}/subagents/agent-1.jsonl`,
      ].map((path) => `scv/${path}`),
    );
    expect(home.snapshot()).toEqual(before.filter((path) => !gone.has(path)));
  });

  describe("with --transcript, for Copilot CLI (a folder per session, the row's sessionPath)", () => {
    const STATE = "agents/copilot/.copilot/session-state";
    beforeEach(() => {
      record({ handle: "copilot-c0p1l0", agent: "copilot", sessionId: uuid(4) }, DAY);
      home.file(`${STATE}/${uuid(4)}/events.jsonl`, DAY, "x".repeat(200));
      home.file(`${STATE}/${uuid(4)}/workspace.yaml`, DAY, "cwd: /work/project\n");
      home.file(`${STATE}/${uuid(4)}/checkpoints/001.md`, DAY, "step\n");
      home.file(`${STATE}/${uuid(5)}/events.jsonl`, DAY); // another session
      home.file(`${home.outside}/secret.txt`, DAY, "keep me\n");
    });

    it("removes the session's whole folder and only it", async () => {
      const before = home.snapshot();
      const result = await scv(["conversations", "rm", "copilot-c0p1l0", "--transcript"], home.env);
      expect(result).toEqual({
        code: 0,
        stdout: "",
        stderr: `scv: removed transcript folder ${home.scv}/${STATE}/${uuid(4)} (3 files, 224 B)\nscv: removed conversation copilot-c0p1l0\n`,
      });
      const session = `scv/${STATE}/${uuid(4)}`;
      expect(home.snapshot()).toEqual(
        before.filter(
          (path) => !path.startsWith(session) && path !== "scv/conversations/copilot-c0p1l0.json",
        ),
      );
    });

    it("never follows a link: one inside stays (and the folders holding it), one in place of the folder is refused", async () => {
      home.symlink(`${STATE}/${uuid(4)}/linked`, home.outside);
      const inside = await scv(["conversations", "rm", "copilot-c0p1l0", "--transcript"], home.env);
      expect(inside.code).toBe(0);
      expect(inside.stderr).toBe(
        `scv: left ${home.scv}/${STATE}/${uuid(4)} — not empty\nscv: removed conversation copilot-c0p1l0\n`,
      );
      expect(home.snapshot()).toEqual(
        expect.arrayContaining([`scv/${STATE}/${uuid(4)}/linked`, "outside/secret.txt"]),
      );
      expect(home.snapshot()).not.toContain(`scv/${STATE}/${uuid(4)}/events.jsonl`);

      record({ handle: "copilot-l1nk3d", agent: "copilot", sessionId: uuid(6) }, DAY);
      home.symlink(`${STATE}/${uuid(6)}`, home.outside);
      const before = home.snapshot();
      const swapped = await scv(["conversations", "rm", "copilot-l1nk3d", "--transcript"], home.env);
      expect(swapped.code).toBe(2);
      expect(swapped.stderr).toBe(
        `scv: ${home.scv}/${STATE}/${uuid(6)} is a link or not a folder — left alone — run without --transcript to remove only the record\n`,
      );
      expect(home.snapshot()).toEqual(before);
    });

    it("refuses a session-state folder reached through a link", async () => {
      rmSync(join(home.scv, STATE), { recursive: true });
      home.file(`${home.outside}/state/${uuid(4)}/events.jsonl`, DAY);
      home.symlink(STATE, `${home.outside}/state`);
      const before = home.snapshot();
      const result = await scv(["conversations", "rm", "copilot-c0p1l0", "--transcript"], home.env);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `scv: ${home.scv}/${STATE} is reached through a symlink or not a folder — left alone — run without --transcript to remove only the record\n`,
      );
      expect(home.snapshot()).toEqual(before);
    });
  });

  it("with --transcript refuses, removing nothing, when scv cannot know the agent's transcripts", async () => {
    record(
      { handle: "opencode-zz99yy", agent: "opencode", sessionId: "ses_dc9b277faffepcwmd73pn0Rq2h" },
      DAY,
    );
    const before = home.snapshot();
    const result = await scv(["conversations", "rm", "opencode-zz99yy", "--transcript"], home.env);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "scv: scv does not know where OpenCode keeps transcripts — run without --transcript to remove only the record\n",
    );
    expect(home.snapshot()).toEqual(before);
  });

  it("with --transcript removes a Gemini CLI session's files, found by the start of its id", async () => {
    const chats = "agents/gemini/.gemini/tmp/project/chats";
    const own = [
      home.file(`${chats}/session-2026-12-07T14-03-${uuid(3).slice(0, 8)}.jsonl`, DAY),
      home.file(`${chats}/session-2026-12-07T14-05-${uuid(3).slice(0, 8)}.jsonl`, DAY),
    ];
    const other = home.file(`${chats}/session-2026-12-07T14-03-${uuid(4).slice(0, 8)}.jsonl`, DAY);
    const result = await scv(["conversations", "rm", "gemini-zz99yy", "--transcript"], home.env);
    expect(result.code, result.stderr).toBe(0);
    for (const path of own) expect(existsSync(path), path).toBe(false);
    expect(existsSync(other)).toBe(true);
  });

  it("with --transcript refuses, removing nothing, a record whose account is no account name", async () => {
    // Joined into a path, this account would name claude's default home, and uuid(9)'s transcript there.
    record(
      { handle: "claude-p4th00", agent: "claude", sessionId: uuid(9), account: "x/../../agents/claude" },
      HOUR,
    );
    const before = home.snapshot();
    const result = await scv(["conversations", "rm", "claude-p4th00", "--transcript"], home.env);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "scv: conversation claude-p4th00 names no usable account ('x/../../agents/claude') — start a new conversation\n",
    );
    expect(home.snapshot()).toEqual(before);
  });

  it("with --transcript still removes a record that has no session id, and says so", async () => {
    record({ handle: "codex-nosess", agent: "codex" }, HOUR);
    const result = await scv(["conversations", "rm", "codex-nosess", "--transcript"], home.env);
    expect(result).toEqual({
      code: 0,
      stdout: "",
      stderr:
        "scv: codex-nosess has no session id recorded, so no transcript to remove\nscv: removed conversation codex-nosess\n",
    });
  });

  it("removes a damaged record, but not with --transcript", async () => {
    home.file("conversations/codex-broken.json", HOUR, "{ nope");
    const refused = await scv(["conversations", "rm", "codex-broken", "--transcript"], home.env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      "scv: the record of codex-broken is damaged, so its session is unknown — run without --transcript to remove only the record\n",
    );
    expect((await scv(["conversations", "rm", "codex-broken"], home.env)).code).toBe(0);
    expect(home.snapshot()).not.toContain("scv/conversations/codex-broken.json");
  });

  it("refuses while a turn of that conversation runs, and a malformed handle", async () => {
    const release = await lockConversation("codex-k3f9x2", home.env, 0);
    try {
      const busy = await scv(["conversations", "rm", "codex-k3f9x2"], home.env);
      expect(busy.code).toBe(2);
      // A lock a live process holds and refreshes (this test's) with no running turn: in use.
      expect(busy.stderr).toBe(
        "scv: conversation codex-k3f9x2 is in use by another scv that holds its lock (scv attach, conversations rm, or a turn starting or ending) — try again once it is done\n",
      );
    } finally {
      await release();
    }
    expect(home.snapshot()).toContain("scv/conversations/codex-k3f9x2.json");
    const malformed = await scv(["conversations", "rm", "Codex K3F9X2"], home.env);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr.trim().split("\n")).toHaveLength(1);
    const unknown = await scv(["conversations", "drop", "codex-k3f9x2"], home.env);
    expect(unknown).toMatchObject({
      code: 2,
      stderr: "scv: unknown conversations command 'drop' — known: list, show, rm\n",
    });
  });
});
