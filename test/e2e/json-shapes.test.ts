// Every `--json` document, as the built scv prints it, against its schema in docs/json/ (JSON Schema
// 2020-12, generated from src/json-documents.ts): each command is run where it has the most to say
// — a running turn and a session host for `ps`, accounts passed over for `delegate`, a cooling
// account with a quota report for `agents status` — so a field that is absent, or null where the
// schema says it is always a value, or one the schema does not have, fails here. One rule for all:
// every field is always there, null where there is no value. Jobs, ps and worktrees are
// json-shapes-jobs.test.ts.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JSON_DOCUMENTS } from "../../src/json-documents.js";
import { claudeReset } from "../helpers/accounts.js";
import { useShapes } from "../helpers/json-shapes.js";
import { scv, signIn, type World } from "../helpers/scv.js";

let world: World;
const { json } = useShapes((created) => {
  world = created;
});

describe("every --json document has its documented shape", () => {
  it("lists a schema file for each document, and nothing else", () => {
    const names = Object.keys(JSON_DOCUMENTS).sort();
    expect(names).toEqual([
      "agents-check",
      "agents-gc",
      "agents-list",
      "agents-status",
      "compare",
      "conversations-list",
      "conversations-show",
      "delegate",
      "delegate-background",
      "delegate-reviewed",
      "ps",
      "review",
      "usage",
      "wait",
    ]);
  });

  it("delegate (one agent, accounts passed over, several agents), conversations, usage, gc", async () => {
    await signIn(world, "claude", "work");
    await signIn(world, "claude", "personal");
    await signIn(world, "codex");
    const limited = join(world.scvHome, "agents", "claude@work");
    writeFileSync(join(limited, ".fake-mode"), "fixture:usage-limit");

    const plain = await json("delegate", ["delegate", "codex", "Say hi"]);
    expect(plain.run.exitCode, plain.run.stderr).toBe(0);
    // Absent before: the target named no accounts.
    expect(plain.document).toMatchObject({ account: null, skipped: null, resetsAt: null });

    const ladder = await json("delegate", ["delegate", "claude@work,personal", "Say hi"]);
    expect(ladder.run.exitCode, ladder.run.stderr).toBe(0);
    expect(ladder.document.account).toBe("personal");
    expect(ladder.document.skipped).toEqual([
      expect.objectContaining({ account: "work", reason: "rate-limited", until: claudeReset() }),
    ]);

    const failed = await json("delegate", ["delegate", "codex", "Say hi"], { FAKE_AGENT_MODE: "exit:3" });
    expect(failed.document.exitCode).not.toBe(0);

    const several = await json("delegate", ["delegate", "codex", "claude@personal", "Say hi"]);
    expect(several.document).toHaveLength(2);

    const list = await json("conversations-list", ["conversations", "list"]);
    const handle = (plain.document.conversation as string) ?? "";
    expect((list.document as unknown as { handle: string }[]).map((each) => each.handle)).toContain(handle);
    const shown = await json("conversations-show", ["conversations", "show", handle]);
    expect(shown.document).toMatchObject({ handle, account: "default", takeovers: 0, lastTakeoverAt: null });

    await json("usage", ["usage"]);
    await json("usage", ["usage", "--by", "account"]);
    await json("agents-gc", ["agents", "gc", "--dry-run"]);
  }, 180_000);

  it("agents list, status (every form, a cooling account with a quota report) and check", async () => {
    await signIn(world, "claude", "work");
    await signIn(world, "claude");
    writeFileSync(join(world.scvHome, "agents", "claude@work", ".fake-mode"), "fixture:usage-limit");
    // The limit cools claude@work and keeps its quota report.
    await scv(world, ["delegate", "claude@work", "Say hi"]);

    await json("agents-list", ["agents", "list"]);
    const all = await json("agents-status", ["agents", "status"]);
    const rows = all.document as unknown as { account: string; coolingUntil: string | null }[];
    expect(rows.find((row) => row.account === "work")?.coolingUntil).toBe(claudeReset());
    // Null, not absent, where an account is not cooling.
    expect(rows.find((row) => row.account === "default")).toHaveProperty("coolingUntil", null);
    const one = await json("agents-status", ["agents", "status", "claude"]);
    expect(one.document).toMatchObject({ coolingUntil: null, quota: null });
    const work = await json("agents-status", ["agents", "status", "claude@work"]);
    expect(work.document).toMatchObject({ coolingUntil: claudeReset() });
    expect(work.document.quota).not.toBeNull();
    await json("agents-check", ["agents", "check", "claude"]);
  }, 120_000);
});
