// A rate-limited account's cooldown through the built scv: kept in $SCV_HOME across runs (the cooling
// account skipped without running, until the reset its CLI reported), and shown by `agents status`
// with the quota window Claude Code last reported, per account.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { accountHome, claudeReset, delegateJson, workAndPersonal } from "../helpers/accounts.js";
import { useLab } from "../helpers/lab.js";
import { agentCalls, scv, type World } from "../helpers/scv.js";

let world: World;
useLab((created) => {
  world = created;
});

describe("a cooling account", () => {
  it("keeps the cooldown across runs: the cooling account is skipped without running, until its reset", async () => {
    await workAndPersonal(world);
    await delegateJson(world, ["claude@work,personal", "Say hi"]);
    const cooldown = JSON.parse(readFileSync(join(world.scvHome, "cooldowns", "claude@work.json"), "utf8"));
    expect(cooldown.until).toBe(claudeReset());
    const calls = agentCalls(world).length;
    const { run, result } = await delegateJson(world, ["claude@work,personal", "Say hi"]);
    expect(run.exitCode).toBe(0);
    expect(result.account).toBe("personal");
    expect(result.skipped?.[0]).toMatchObject({ account: "work", reason: "cooling", until: claudeReset() });
    expect(
      agentCalls(world)
        .slice(calls)
        .map((call) => call.env.HOME),
    ).toEqual([accountHome(world, "claude", "personal")]);
    // The text result says why, too: the progress lines of a ladder are gone once it answered.
    const text = await scv(world, ["delegate", "claude@work,personal", "Say hi"]);
    expect(text.exitCode, text.stderr).toBe(0);
    expect(text.stderr).toContain(`scv: note: claude@work skipped: cooling until ${claudeReset()} (`);
  });

  it("shows the quota window Claude Code last reported for each account in agents status", async () => {
    await workAndPersonal(world);
    await delegateJson(world, ["claude@work,personal", "Say hi"]);
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
    await workAndPersonal(world);
    await delegateJson(world, ["claude@work,personal", "Say hi"]);
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
});
