// Every `--json` document of jobs, processes and worktrees, as the built scv prints it, against its
// schema in docs/json/ (the rest, and the rule, are json-shapes.test.ts): background jobs and wait,
// ps with a running turn and a session host, the worktree fields.

import { mkdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bootId } from "../../src/os/proc.js";
import { gitEnv, initRepo } from "../helpers/git-repo.js";
import { useShapes } from "../helpers/json-shapes.js";
import { ageConversation, agentPids, scv, signIn, type World } from "../helpers/scv.js";

let world: World;
const { json, sleeper } = useShapes((created) => {
  world = created;
});

describe("every --json document has its documented shape", () => {
  it("delegate --background (one agent, several, one that cannot start) and wait", async () => {
    await signIn(world, "claude", "personal");
    await signIn(world, "codex");
    const background = await json("delegate-background", ["delegate", "--background", "codex", "Say hi"]);
    expect(background.document).toMatchObject({ started: true, result: null });
    const job = background.document.job as string;
    await json("wait", ["wait", job]);
    const twoJobs = await json("delegate-background", [
      "delegate",
      "--background",
      "codex",
      "claude@personal",
      "Say hi",
    ]);
    await json("wait", [
      "wait",
      ...(twoJobs.document as unknown as { job: string }[]).map((each) => each.job),
    ]);
    // One that cannot start (its CLI is not on PATH): its result says why.
    const refused = await json("delegate-background", ["delegate", "--background", "codex", "Hi"], {
      PATH: "/usr/bin:/bin",
    });
    expect(refused.document).toMatchObject({ started: false, job: null });
  }, 120_000);

  it("worktrees: delegate's worktree fields, compare, a conversation's worktree, gc's worktrees", async () => {
    initRepo(world);
    await signIn(world, "codex");
    await signIn(world, "claude");
    const env = { ...gitEnv(world), FAKE_AGENT_MODE: "write:notes.txt" };
    const fanned = await json(
      "delegate",
      ["delegate", "--worktree", "codex", "claude", "--check", "grep -q wrote notes.txt", "edit"],
      env,
    );
    expect(fanned.run.exitCode, fanned.run.stderr).toBe(0);
    const turns = fanned.document as unknown as { conversation: string; check: unknown; diffstat: unknown }[];
    expect(turns[0]).toMatchObject({ check: { status: "pass" }, diffstat: { files: 1 } });
    // Without a worktree the same fields are there, null.
    const plain = await json("delegate", ["delegate", "codex", "Say hi"], gitEnv(world));
    expect(plain.document).toMatchObject({
      worktree: null,
      branch: null,
      commit: null,
      diffstat: null,
      check: null,
    });

    const handles = turns.map((turn) => turn.conversation);
    const compared = await json("compare", ["compare", ...handles], env);
    expect(compared.document).toHaveLength(2);
    const shown = await json("conversations-show", ["conversations", "show", handles[0] ?? ""], env);
    expect(shown.document).toMatchObject({ worktree: { applied: null }, lastCheck: { status: "pass" } });
    await json("conversations-list", ["conversations", "list"], env);
    for (const handle of handles) ageConversation(world, handle);
    const gc = await json("agents-gc", ["agents", "gc", "--dry-run"], env);
    expect(gc.document.worktrees).toEqual(
      expect.arrayContaining([expect.objectContaining({ outcome: "kept", reason: expect.any(String) })]),
    );
  }, 180_000);

  it("ps: a running turn and a session host, each with its kind", async () => {
    await signIn(world, "codex");
    const started = await scv(world, ["delegate", "--background", "codex", "Wait"], {
      env: { FAKE_AGENT_MODE: "hang" },
    });
    expect(started.exitCode, started.stderr).toBe(0);
    await agentPids(world);
    const host = sleeper();
    const server = sleeper();
    mkdirSync(join(world.scvHome, "hosts"), { recursive: true, mode: 0o700 });
    const now = new Date().toISOString();
    const boot = bootId();
    writeFileSync(
      join(world.scvHome, "hosts", "gemini-hhhhhh.json"),
      JSON.stringify({
        version: 1,
        handle: "gemini-hhhhhh",
        agent: "gemini",
        host: hostname(),
        ...(boot === undefined ? {} : { boot }),
        scv: host,
        server,
        tag: "gemini-hhhhhh.aaaaaaaa",
        launch: "x",
        startedAt: now,
        usedAt: now,
        idleMs: 600_000,
        inUse: false,
      }),
    );
    const ps = await json("ps", ["ps"]);
    expect((ps.document as unknown as { kind: string }[]).map((each) => each.kind)).toEqual(["turn", "host"]);
    const job = started.stdout.trim();
    expect((await scv(world, ["kill", job])).exitCode).toBe(0);
  }, 120_000);
});
