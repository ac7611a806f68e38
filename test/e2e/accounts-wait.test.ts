// Accounts through the built scv, continued (accounts.test.ts has the ladder, accounts-status.test.ts
// the cooldown): --wait-for-reset waits for the earliest reset within its bound, a plain target
// honours its default account's cooldown, the config's ladder, a background turn's ladder, and
// malformed targets.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { turnResultShape } from "../../src/json-shapes.js";
import { accountHome, delegateJson, modeFor } from "../helpers/accounts.js";
import { useLab } from "../helpers/lab.js";
import { agentCalls, conversationRecord, scv, signIn, type World } from "../helpers/scv.js";

let world: World;
useLab((created) => {
  world = created;
});

describe("an account ladder", () => {
  it("--wait-for-reset waits for the earliest reset within its bound, then tries again", async () => {
    await signIn(world, "gemini", "a");
    await signIn(world, "gemini", "b");
    // Gemini's captured quota error suggests a retry after 1s.
    modeFor(world, "gemini", "a", "fixture:rate-limit", true);
    modeFor(world, "gemini", "b", "fixture:rate-limit", true);
    const started = Date.now();
    const run = await scv(world, ["delegate", "--wait-for-reset", "20s", "gemini@a,b", "Say hi"]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toMatch(
      /scv: every account of gemini is rate limited — waiting \d+(ms|s) for the reset at /,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(agentCalls(world).map((call) => call.env.HOME)).toEqual([
      accountHome(world, "gemini", "a"),
      accountHome(world, "gemini", "b"),
      accountHome(world, "gemini", "a"),
    ]);
  });

  it("does not wait beyond --wait-for-reset's bound", async () => {
    await signIn(world, "claude", "work");
    modeFor(world, "claude", "work", "fixture:usage-limit");
    const run = await scv(world, ["delegate", "--wait-for-reset", "1s", "claude@work", "Say hi"]);
    expect(run.exitCode).toBe(5);
    expect(run.stderr).toContain("beyond --wait-for-reset 1s");
  });

  it("a plain target honours its default account's own cooldown: nothing runs until the reset", async () => {
    await signIn(world, "claude");
    const until = new Date(Date.now() + 3_600_000).toISOString();
    mkdirSync(join(world.scvHome, "cooldowns"), { recursive: true });
    writeFileSync(
      join(world.scvHome, "cooldowns", "claude@default.json"),
      JSON.stringify({ until, reason: "claude is rate limited: usage limit reached" }),
    );
    const { run, result } = await delegateJson(world, ["claude", "Say hi"]);
    expect(run.exitCode).toBe(5);
    expect(agentCalls(world)).toHaveLength(0);
    expect(result.error).toBe(
      `claude is rate limited (cooling until ${until}: claude is rate limited: usage limit reached)`,
    );
    expect(result.hint).toBe(`retry after ${until}, or pass --wait-for-reset <max>`);
    expect(result.resetsAt).toBe(until);
  });

  it("--wait-for-reset applies to a plain target: its default account's limit is waited out, then tried again", async () => {
    await signIn(world, "gemini");
    // Gemini's captured quota error suggests a retry after 1s.
    mkdirSync(join(world.scvHome, "agents", "gemini"), { recursive: true, mode: 0o700 });
    writeFileSync(join(world.scvHome, "agents", "gemini", ".fake-mode-once"), "fixture:rate-limit");
    const started = Date.now();
    const { run, result } = await delegateJson(world, ["--wait-for-reset", "20s", "gemini", "Say hi"]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^scv: gemini is rate limited — waiting \d+(ms|s) for the reset at /m);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(agentCalls(world)).toHaveLength(2);
    // A plain turn's result, as without the flag.
    expect(result).toMatchObject({ account: null, skipped: null });
  });

  it("the hint of a failed turn of one account checks that account", async () => {
    await signIn(world, "claude", "work");
    modeFor(world, "claude", "work", "exit:1");
    const run = await scv(world, ["delegate", "claude@work", "Say hi"]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain("— check it with: scv agents check claude@work\n");
  });

  it("takes the config's ladder for a target that names no account", async () => {
    await signIn(world, "claude", "work");
    await signIn(world, "claude", "personal");
    writeFileSync(join(world.scvHome, "config.toml"), `[agents.claude]\naccounts = ["work", "personal"]\n`);
    modeFor(world, "claude", "work", "fixture:usage-limit");
    const { run, result } = await delegateJson(world, ["claude", "Say hi"]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(result.account).toBe("personal");
    expect(result.skipped?.map((skip) => skip.reason)).toEqual(["rate-limited"]);
  });

  it("runs a background turn's ladder the same way: the job's result names the account that answered", async () => {
    await signIn(world, "claude", "work");
    await signIn(world, "claude", "personal");
    modeFor(world, "claude", "work", "fixture:usage-limit");
    const started = await scv(world, ["delegate", "--background", "claude@work,personal", "Say hi"]);
    expect(started.exitCode, started.stderr).toBe(0);
    const job = started.stdout.trim();
    const waited = await scv(world, ["wait", "--json", "--timeout", "60s", job]);
    expect(waited.exitCode, waited.stderr).toBe(0);
    const result = turnResultShape().parse(JSON.parse(waited.stdout));
    expect(result.account).toBe("personal");
    expect(result.skipped?.[0]).toMatchObject({ account: "work", reason: "rate-limited" });
    expect(result.conversation).toBe(job.replace(/\.[0-9a-z]{8}$/, ""));
    expect(conversationRecord(world, result.conversation ?? "").account).toBe("personal");
  });

  it("refuses a malformed target before anything runs", async () => {
    for (const target of ["claude@", "claude@a,,b", "claude@a,a", "claude@Work"]) {
      const run = await scv(world, ["delegate", target, "Say hi"]);
      expect(run.exitCode, target).toBe(2);
      expect(run.stderr.trimEnd().split("\n"), target).toHaveLength(1);
    }
    expect(agentCalls(world)).toHaveLength(0);
  });
});
