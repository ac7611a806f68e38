// Accounts through the built scv: `agent@a,b` tries each account's own home in order. Fake CLIs
// rate-limit by account (a `.fake-mode` file in one account's home replays a real limit capture):
// the ladder moves on, the limited account cools down until the reset its CLI reported (kept in
// $SCV_HOME across runs, and skipped meanwhile), a signed-out account is passed over and named, all
// limited is exit 5 with the earliest reset, and --wait-for-reset waits for it.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { usageReportSchema } from "../../src/home/usage-totals.js";
import { turnResultShape } from "../../src/json-shapes.js";
import { useLab } from "../helpers/lab.js";
import { agentCalls, conversationRecord, scv, signIn, type World } from "../helpers/scv.js";

let world: World;
useLab((created) => {
  world = created;
});

const FIXTURES = join(import.meta.dirname, "..", "fixtures");

function home(agent: string, account: string): string {
  return join(world.scvHome, "agents", `${agent}@${account}`);
}

function modeFor(agent: string, account: string, mode: string, once = false): void {
  mkdirSync(home(agent, account), { recursive: true, mode: 0o700 });
  writeFileSync(join(home(agent, account), once ? ".fake-mode-once" : ".fake-mode"), mode);
}

/** The reset Claude's captured limit names (its rate_limit_event's resetsAt, epoch seconds). */
function claudeReset(): string {
  const text = readFileSync(join(FIXTURES, "claude", "usage-limit.stdout"), "utf8");
  const epoch = Number(/"resetsAt":(\d+)/.exec(text)?.[1]);
  return new Date(epoch * 1000).toISOString();
}

async function delegateJson(args: readonly string[]) {
  const run = await scv(world, ["delegate", "--json", ...args]);
  return { run, result: turnResultShape().parse(JSON.parse(run.stdout)) };
}

describe("an account ladder", () => {
  it("moves on from a rate-limited account to the next, in that account's home, and says so", async () => {
    await signIn(world, "claude", "work");
    await signIn(world, "claude", "personal");
    modeFor("claude", "work", "fixture:usage-limit");
    const { run, result } = await delegateJson(["claude@work,personal", "Say hi"]);
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
    expect(homes).toEqual([home("claude", "work"), home("claude", "personal")]);
    // The conversation is the answering account's, and continues there.
    const handle = result.conversation ?? "";
    expect(conversationRecord(world, handle).account).toBe("personal");
    const again = await scv(world, ["delegate", "-c", handle, "Again"]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(agentCalls(world).at(-1)?.env.HOME).toBe(home("claude", "personal"));
    // Limited now, the conversation stays where its session is, and says so.
    writeFileSync(join(home("claude", "personal"), ".fake-mode-once"), "fixture:usage-limit");
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

  it("keeps the cooldown across runs: the cooling account is skipped without running, until its reset", async () => {
    await signIn(world, "claude", "work");
    await signIn(world, "claude", "personal");
    modeFor("claude", "work", "fixture:usage-limit");
    await delegateJson(["claude@work,personal", "Say hi"]);
    const cooldown = JSON.parse(readFileSync(join(world.scvHome, "cooldowns", "claude@work.json"), "utf8"));
    expect(cooldown.until).toBe(claudeReset());
    const calls = agentCalls(world).length;
    const { run, result } = await delegateJson(["claude@work,personal", "Say hi"]);
    expect(run.exitCode).toBe(0);
    expect(result.account).toBe("personal");
    expect(result.skipped?.[0]).toMatchObject({ account: "work", reason: "cooling", until: claudeReset() });
    expect(
      agentCalls(world)
        .slice(calls)
        .map((call) => call.env.HOME),
    ).toEqual([home("claude", "personal")]);
    // The text result says why, too: the progress lines of a ladder are gone once it answered.
    const text = await scv(world, ["delegate", "claude@work,personal", "Say hi"]);
    expect(text.exitCode, text.stderr).toBe(0);
    expect(text.stderr).toContain(`scv: note: claude@work skipped: cooling until ${claudeReset()} (`);
  });

  it("shows the quota window Claude Code last reported for each account in agents status", async () => {
    await signIn(world, "claude", "work");
    await signIn(world, "claude", "personal");
    modeFor("claude", "work", "fixture:usage-limit");
    await delegateJson(["claude@work,personal", "Say hi"]);
    const status = await scv(world, ["agents", "status", "claude@work", "--json"]);
    expect(JSON.parse(status.stdout).quota).toEqual({
      seenAt: expect.any(String),
      windows: [{ window: "five_hour", status: "rejected", utilization: 1, resetsAt: claudeReset() }],
    });
    const table = await scv(world, ["agents", "status"]);
    expect(table.stdout).toMatch(
      new RegExp(
        `^claude@work\\s.*five_hour 100% used, rejected, resets ${claudeReset().replace(/\./g, "\\.")}$`,
        "m",
      ),
    );
    // The account that reported nothing shows nothing.
    const personal = await scv(world, ["agents", "status", "claude@personal", "--json"]);
    expect(JSON.parse(personal.stdout).quota).toBeNull();
  });

  it("agents status <agent> lists each of its accounts with a home, and which are cooling and until when", async () => {
    await signIn(world, "claude", "work");
    await signIn(world, "claude", "personal");
    modeFor("claude", "work", "fixture:usage-limit");
    await delegateJson(["claude@work,personal", "Say hi"]);
    const reset = claudeReset().replace(/\./g, "\\.");
    const table = await scv(world, ["agents", "status", "claude"]);
    const rows = table.stdout
      .split("\n")
      .slice(1)
      .filter((line) => line !== "");
    expect(rows.map((line) => line.split(/\s+/)[0])).toEqual(["claude", "claude@personal", "claude@work"]);
    expect(table.stdout).toMatch(new RegExp(`^claude@work\\s.*; cooling until ${reset}; five_hour `, "m"));
    expect(table.stdout).not.toMatch(/^claude(@personal)?\s.*cooling/m);
    // The plain home was never signed in: the exit says so, as before.
    expect(table.exitCode).toBe(4);

    const json = JSON.parse((await scv(world, ["agents", "status", "claude", "--json"])).stdout);
    expect(json).toMatchObject({ agent: "claude", account: "default", state: "signed-out" });
    expect(json.coolingUntil).toBeNull();
    expect(
      json.accounts.map((row: { account: string; state: string; coolingUntil: string | null }) => [
        row.account,
        row.state,
        row.coolingUntil,
      ]),
    ).toEqual([
      ["default", "signed-out", null],
      ["personal", "signed-in", null],
      ["work", "signed-in", claudeReset()],
    ]);
    const one = JSON.parse((await scv(world, ["agents", "status", "claude@work", "--json"])).stdout);
    expect(one).toMatchObject({ account: "work", coolingUntil: claudeReset() });
    expect(one.accounts).toBeUndefined();
    const all = JSON.parse((await scv(world, ["agents", "status", "--json"])).stdout);
    expect(all.filter((row: { agent: string }) => row.agent === "claude")).toHaveLength(3);
    expect(all.find((row: { agent: string; account: string }) => row.account === "work")?.coolingUntil).toBe(
      claudeReset(),
    );
    expect((await scv(world, ["agents", "status"])).stdout).toMatch(
      new RegExp(`^claude@work\\s.*; cooling until ${reset}`, "m"),
    );
  });

  it("passes over an account that is not signed in, naming it", async () => {
    await signIn(world, "claude", "personal");
    const { run, result } = await delegateJson(["claude@gone,personal", "Say hi"]);
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
    const { result } = await delegateJson(["claude@work", "Say hi"]);
    modeFor("claude", "work", "fixture:auth-fail", true);
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
    await signIn(world, "claude", "work");
    await signIn(world, "claude", "personal");
    modeFor("claude", "work", "fixture:usage-limit");
    modeFor("claude", "personal", "fixture:rate-limit");
    const first = await scv(world, ["delegate", "claude@work,personal", "Say hi"]);
    expect(first.exitCode).toBe(5);
    const line = first.stderr.split("\n").filter((each) => each.startsWith("scv: every account"));
    expect(line).toHaveLength(1);
    const calls = agentCalls(world).length;
    const { run, result } = await delegateJson(["claude@work,personal", "Say hi"]);
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

  it("--wait-for-reset waits for the earliest reset within its bound, then tries again", async () => {
    await signIn(world, "gemini", "a");
    await signIn(world, "gemini", "b");
    // Gemini's captured quota error suggests a retry after 1s.
    modeFor("gemini", "a", "fixture:rate-limit", true);
    modeFor("gemini", "b", "fixture:rate-limit", true);
    const started = Date.now();
    const run = await scv(world, ["delegate", "--wait-for-reset", "20s", "gemini@a,b", "Say hi"]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toMatch(
      /scv: every account of gemini is rate limited — waiting \d+(ms|s) for the reset at /,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(agentCalls(world).map((call) => call.env.HOME)).toEqual([
      home("gemini", "a"),
      home("gemini", "b"),
      home("gemini", "a"),
    ]);
  });

  it("does not wait beyond --wait-for-reset's bound", async () => {
    await signIn(world, "claude", "work");
    modeFor("claude", "work", "fixture:usage-limit");
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
    const { run, result } = await delegateJson(["claude", "Say hi"]);
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
    const { run, result } = await delegateJson(["--wait-for-reset", "20s", "gemini", "Say hi"]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^scv: gemini is rate limited — waiting \d+(ms|s) for the reset at /m);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(agentCalls(world)).toHaveLength(2);
    // A plain turn's result, as without the flag.
    expect(result).toMatchObject({ account: null, skipped: null });
  });

  it("the hint of a failed turn of one account checks that account", async () => {
    await signIn(world, "claude", "work");
    modeFor("claude", "work", "exit:1");
    const run = await scv(world, ["delegate", "claude@work", "Say hi"]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain("— check it with: scv agents check claude@work\n");
  });

  it("takes the config's ladder for a target that names no account", async () => {
    await signIn(world, "claude", "work");
    await signIn(world, "claude", "personal");
    writeFileSync(join(world.scvHome, "config.toml"), `[agents.claude]\naccounts = ["work", "personal"]\n`);
    modeFor("claude", "work", "fixture:usage-limit");
    const { run, result } = await delegateJson(["claude", "Say hi"]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(result.account).toBe("personal");
    expect(result.skipped?.map((skip) => skip.reason)).toEqual(["rate-limited"]);
  });

  it("runs a background turn's ladder the same way: the job's result names the account that answered", async () => {
    await signIn(world, "claude", "work");
    await signIn(world, "claude", "personal");
    modeFor("claude", "work", "fixture:usage-limit");
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
