// Each turn's agent gets a TMPDIR of its own (src/home/turn-temp.ts), through the built scv: a 0700
// folder inside the user's TMPDIR, named after the turn, and gone with all the agent left in it
// (the fake agents leave what the real ones do: a library file, a 0644 file, a read-only folder)
// once the turn is over, however it ended.

import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { basename, dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { useLab } from "../helpers/lab.js";
import { type AgentCall, agentCalls, agentPids, scv, signIn, startScv } from "../helpers/scv.js";

const lab = useLab();

function handleOf(stderr: string): string {
  return /conversation: (\S+)/.exec(stderr)?.[1] ?? "";
}

/** The TMPDIR `call` got: the turn's own, checked for where it was and how private. */
function turnTemp(call: AgentCall | undefined, handle: string): string {
  const temp = call?.env.TMPDIR ?? "";
  expect(dirname(temp)).toBe(lab.world.tmp);
  expect(basename(temp)).toMatch(new RegExp(`^scv-${handle}-[A-Za-z0-9]{6}$`));
  expect(call?.tmpMode).toBe("0700");
  return temp;
}

describe("the agent's TMPDIR", () => {
  it("is a private folder of the turn's, removed with what the agent left there", async () => {
    await signIn(lab.world, "claude");
    const run = await scv(lab.world, ["delegate", "claude", "Say hi"]);
    expect(run.exitCode, run.stderr).toBe(0);
    const [call] = agentCalls(lab.world);
    const temp = turnTemp(call, handleOf(run.stderr));
    expect(existsSync(temp)).toBe(false);
    expect(readdirSync(lab.world.tmp)).toEqual([]);
  });

  it("is removed after a failed turn and after a timed-out one", async () => {
    const failed = await scv(lab.world, ["delegate", "gemini", "Say hi"], {
      env: { FAKE_AGENT_MODE: "exit:1" },
    });
    expect(failed.exitCode).toBe(1);
    const timedOut = await scv(lab.world, ["delegate", "gemini", "--timeout", "1s", "Say hi"], {
      env: { FAKE_AGENT_MODE: "grandchild" },
    });
    lab.track(await agentPids(lab.world));
    expect(timedOut.exitCode).toBe(124);
    expect(agentCalls(lab.world)).toHaveLength(2);
    for (const call of agentCalls(lab.world)) expect(call.tmpMode).toBe("0700");
    expect(readdirSync(lab.world.tmp)).toEqual([]);
  });

  it("differs between turns that run at once", async () => {
    const run = await scv(lab.world, ["delegate", "gemini", "qwen", "opencode", "Say hi"]);
    expect(run.exitCode, run.stderr).toBe(0);
    const temps = agentCalls(lab.world).map((call) => call.env.TMPDIR);
    expect(new Set(temps).size).toBe(3);
    expect(readdirSync(lab.world.tmp)).toEqual([]);
  });

  it("of a background turn goes when the turn is over", async () => {
    const started = await scv(lab.world, ["delegate", "--background", "gemini", "Say hi"], {
      env: { FAKE_AGENT_MODE: "slow:300" },
    });
    expect(started.exitCode, started.stderr).toBe(0);
    const job = started.stdout.trim();
    const waited = await scv(lab.world, ["wait", job]);
    expect(waited.exitCode, waited.stderr).toBe(0);
    turnTemp(agentCalls(lab.world)[0], job.replace(/\.[0-9a-z]{8}$/, ""));
    expect(readdirSync(lab.world.tmp)).toEqual([]);
  });

  it("of a turn whose scv was SIGKILLed is removed by the next scv, with what the turn left running", async () => {
    const child = startScv(lab.world, ["delegate", "gemini", "Say hi"], { env: { FAKE_AGENT_MODE: "hang" } });
    lab.track(await agentPids(lab.world));
    child.kill("SIGKILL");
    await child;
    const [call] = agentCalls(lab.world);
    const temp = call?.env.TMPDIR ?? "";
    expect(existsSync(temp)).toBe(true);
    const ps = await scv(lab.world, ["ps"]);
    expect(ps.exitCode).toBe(0);
    expect(existsSync(temp)).toBe(false);
    expect(readdirSync(lab.world.tmp)).toEqual([]);
  });

  it("is the one scv's config sets for the agent, when it sets one", async () => {
    const chosen = `${lab.world.tmp}/chosen`;
    mkdirSync(lab.world.scvHome, { recursive: true });
    writeFileSync(`${lab.world.scvHome}/config.toml`, `[agents.gemini.env]\nTMPDIR = "${chosen}"\n`);
    const run = await scv(lab.world, ["delegate", "gemini", "Say hi"]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(agentCalls(lab.world)[0]?.env.TMPDIR).toBe(chosen);
  });

  it("is the user's own when no folder can be made in it: the turn runs as it would without scv", async () => {
    const missing = `${lab.world.tmp}/missing`;
    const run = await scv(lab.world, ["delegate", "gemini", "Say hi"], { env: { TMPDIR: missing } });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(agentCalls(lab.world)[0]?.env.TMPDIR).toBe(missing);
  });
});
