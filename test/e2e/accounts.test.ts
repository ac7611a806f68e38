// Accounts through the built scv: `agent@a,b` tries each account's own home in order. Fake CLIs
// rate-limit by account (a `.fake-mode` file in one account's home replays a real limit capture): the
// ladder moves on, a signed-out account is passed over and named, a refused sign-in marks its own
// account, all limited is exit 5 with the earliest reset. The cooldown kept across runs and what
// `agents status` shows of it are accounts-status.test.ts; --wait-for-reset, plain targets, the
// config's ladder and background ladders accounts-wait.test.ts.

import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { usageReportSchema } from "../../src/home/usage-totals.js";
import { accountHome, claudeReset, delegateJson, modeFor, workAndPersonal } from "../helpers/accounts.js";
import { useLab } from "../helpers/lab.js";
import { agentCalls, conversationRecord, scv, signIn, type World } from "../helpers/scv.js";

let world: World;
useLab((created) => {
  world = created;
});

describe("an account ladder", () => {
  it("moves on from a rate-limited account to the next, in that account's home, and says so", async () => {
    await workAndPersonal(world);
    const { run, result } = await delegateJson(world, ["claude@work,personal", "Say hi"]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(result.account).toBe("personal");
    expect(result.skipped).toEqual([
      {
        account: "work",
        reason: "rate-limited",
        until: claudeReset(),
        error: expect.stringMatching(/rate limited/),
      },
    ]);
    expect(run.stderr).toContain(
      `scv: claude@work is rate limited until ${claudeReset()} — trying claude@personal`,
    );
    const homes = agentCalls(world).map((call) => call.env.HOME);
    expect(homes).toEqual([accountHome(world, "claude", "work"), accountHome(world, "claude", "personal")]);
    // The conversation is the answering account's, and continues there.
    const handle = result.conversation ?? "";
    expect(conversationRecord(world, handle).account).toBe("personal");
    const again = await scv(world, ["delegate", "-c", handle, "Again"]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(agentCalls(world).at(-1)?.env.HOME).toBe(accountHome(world, "claude", "personal"));
    // Limited now, the conversation stays where its session is, and says so.
    writeFileSync(join(accountHome(world, "claude", "personal"), ".fake-mode-once"), "fixture:usage-limit");
    const limited = await scv(world, ["delegate", "-c", handle, "Again"]);
    expect(limited.exitCode).toBe(5);
    expect(limited.stderr).toContain(
      `scv: note: ${handle} stays in claude@personal, where its session is: a conversation does not move to another account`,
    );
    const shown = await scv(world, ["conversations", "show", handle]);
    expect(shown.stdout).toMatch(/^account\s+personal \(its session is in .*claude@personal\)$/m);
    expect((await scv(world, ["conversations"])).stdout).toMatch(
      new RegExp(`^${handle}\\s+claude@personal\\s`, "m"),
    );

    // Each attempt is in the usage log under its account.
    const usage = await scv(world, ["usage", "--by", "account", "--json"]);
    const report = usageReportSchema().parse(JSON.parse(usage.stdout));
    expect(report.groups.map((group) => [group.key, group.turns, group.failures])).toEqual([
      ["claude@personal", 3, 1],
      ["claude@work", 1, 1],
    ]);
  });

  it("passes over an account that is not signed in, naming it", async () => {
    await signIn(world, "claude", "personal");
    const { run, result } = await delegateJson(world, ["claude@gone,personal", "Say hi"]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(result.account).toBe("personal");
    expect(result.skipped).toEqual([
      { account: "gone", reason: "signed-out", until: null, error: expect.stringContaining("not signed in") },
    ]);
    expect(run.stderr).toMatch(/scv: claude@gone is not signed in \(.+\) — trying claude@personal/);
    expect(existsSync(join(world.scvHome, "cooldowns", "claude@gone.json"))).toBe(false);
    // Alone, it is the turn's failure, and the hint signs that account in.
    const alone = await scv(world, ["delegate", "claude@gone", "Say hi"]);
    expect(alone.exitCode).toBe(4);
    expect(alone.stderr).toMatch(/^scv: .* is not signed in \(.+\) — run: scv agents login claude@gone$/m);
  });

  it("marks the account whose sign-in was refused, not the default one, also for a continued turn", async () => {
    await signIn(world, "claude", "work");
    const { result } = await delegateJson(world, ["claude@work", "Say hi"]);
    modeFor(world, "claude", "work", "fixture:auth-fail", true);
    const refused = await scv(world, ["delegate", "-c", result.conversation ?? "", "Again"]);
    expect(refused.exitCode, refused.stderr).toBe(4);
    const marks = join(world.scvHome, "cache", "sign-in-failed");
    expect(existsSync(join(marks, "claude@work"))).toBe(true);
    expect(existsSync(join(marks, "claude"))).toBe(false);
    // Its next completed turn clears its own mark.
    const again = await scv(world, ["delegate", "-c", result.conversation ?? "", "Again"]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(existsSync(join(marks, "claude@work"))).toBe(false);
  });

  it("exits 5 with the earliest reset when every account is limited, and runs nothing while they cool", async () => {
    await workAndPersonal(world);
    modeFor(world, "claude", "personal", "fixture:rate-limit");
    const first = await scv(world, ["delegate", "claude@work,personal", "Say hi"]);
    expect(first.exitCode).toBe(5);
    const line = first.stderr.split("\n").filter((each) => each.startsWith("scv: every account"));
    expect(line).toHaveLength(1);
    const calls = agentCalls(world).length;
    const { run, result } = await delegateJson(world, ["claude@work,personal", "Say hi"]);
    expect(run.exitCode).toBe(5);
    expect(agentCalls(world)).toHaveLength(calls);
    expect(result.skipped?.map((skip) => [skip.account, skip.reason])).toEqual([
      ["work", "cooling"],
      ["personal", "cooling"],
    ]);
    const untils = (result.skipped ?? []).map((skip) => Date.parse(skip.until ?? ""));
    expect(result.resetsAt).toBe(new Date(Math.min(...untils)).toISOString());
    expect(result.error).toMatch(/^every account of claude is rate limited/);
    expect(result.hint).toBe(`retry after ${result.resetsAt}, or pass --wait-for-reset <max>`);
  });
});
