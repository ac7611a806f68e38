// What a turn's environment says about it, through the built scv: its tag (SCV_TURN, unique per
// turn) and its delegation depth (SCV_DEPTH), both set after isolation; and scv refusing a turn
// below more delegating agents than max_depth allows.

import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { useLab } from "../helpers/lab.js";
import { agentCalls, onlyCall, SCV, scv, signIn, type World } from "../helpers/scv.js";

let world: World;
useLab((created) => {
  world = created;
});

const TOO_DEEP =
  "scv: delegation depth 3 is beyond max_depth 2 (agents started by agents through scv) — do this work yourself instead of delegating it, or raise max_depth in scv's config\n";

describe("a turn's tag and depth", () => {
  it("the agent's environment names its turn and carries depth 1 below a person", async () => {
    const run = await scv(world, ["delegate", "--json", "gemini", "Say hi"]);
    expect(run.exitCode, run.stderr).toBe(0);
    const handle = (JSON.parse(run.stdout) as { conversation: string }).conversation;
    const env = onlyCall(world).env;
    expect(env.SCV_TURN).toMatch(new RegExp(`^${handle}\\.[0-9a-z]{8}$`));
    expect(env.SCV_DEPTH).toBe("1");
  });

  it("each turn has its own tag, also two turns of one agent at once", async () => {
    const run = await scv(world, ["delegate", "gemini", "gemini", "Say hi"]);
    expect(run.exitCode, run.stderr).toBe(0);
    const tags = agentCalls(world).map((call) => call.env.SCV_TURN);
    expect(new Set(tags).size).toBe(2);
  });

  it("an agent's own delegation goes one deeper; scv's SCV_DEPTH never reaches the agent as it was", async () => {
    const run = await scv(world, ["delegate", "gemini", "Say hi"], {
      env: { SCV_DEPTH: "2", SCV_TURN: "outer" },
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(onlyCall(world).env.SCV_DEPTH).toBe("3");
    expect(onlyCall(world).env.SCV_TURN).not.toBe("outer");
  });

  it("refuses a turn below more delegating agents than max_depth (default 2): exit 2, nothing runs", async () => {
    for (const args of [
      ["delegate", "gemini", "Say hi"],
      ["delegate", "gemini", "pi", "Say hi"],
      ["delegate", "--background", "gemini", "Say hi"],
    ]) {
      const run = await scv(world, args, { env: { SCV_DEPTH: "3" } });
      expect(run.exitCode, args.join(" ")).toBe(2);
      expect(run.stderr).toBe(TOO_DEEP);
      expect(run.stdout).toBe("");
    }
    expect(agentCalls(world)).toEqual([]);
  });

  it("takes max_depth from config", async () => {
    const config = join(world.root, "config.toml");
    writeFileSync(config, "max_depth = 0\n");
    const nested = await scv(world, ["delegate", "gemini", "Say hi"], {
      env: { SCV_CONFIG: config, SCV_DEPTH: "1" },
    });
    expect(nested.exitCode).toBe(2);
    expect(nested.stderr).toContain("delegation depth 1 is beyond max_depth 0");
    const person = await scv(world, ["delegate", "gemini", "Say hi"], { env: { SCV_CONFIG: config } });
    expect(person.exitCode, person.stderr).toBe(0);
  });

  it("an scv run by the agent itself (its environment exactly) uses this scv's home and config", async () => {
    const config = join(world.root, "config.toml");
    writeFileSync(config, "max_depth = 1\n");
    await signIn(world, "pi");
    const outer = await scv(world, ["delegate", "gemini", "Say hi"], { env: { SCV_CONFIG: config } });
    expect(outer.exitCode, outer.stderr).toBe(0);
    const agentEnv = onlyCall(world).env;
    // The agent's HOME is its private home, and isolation removed the SCV_* variables it was given.
    expect(agentEnv.HOME).toBe(join(world.scvHome, "agents", "gemini"));
    expect(agentEnv).toMatchObject({ SCV_HOME: world.scvHome, SCV_CONFIG: config, SCV_DEPTH: "1" });
    const inner = await execa(process.execPath, [SCV, "delegate", "--json", "pi", "Say hi"], {
      cwd: world.project,
      env: agentEnv,
      extendEnv: false,
      reject: false,
      stdin: "ignore",
    });
    expect(inner.exitCode, inner.stderr).toBe(0);
    const handle = (JSON.parse(inner.stdout) as { conversation: string }).conversation;
    expect(existsSync(join(world.scvHome, "conversations", `${handle}.json`))).toBe(true);
    expect(existsSync(join(world.scvHome, "agents", "gemini", ".local", "share", "scv"))).toBe(false);
    // One level deeper than max_depth 1 allows: the user's config reaches the nested scv.
    const innerCall = agentCalls(world).at(-1);
    const deeper = await execa(process.execPath, [SCV, "delegate", "pi", "Say hi"], {
      cwd: world.project,
      env: innerCall?.env ?? {},
      extendEnv: false,
      reject: false,
      stdin: "ignore",
    });
    expect(deeper.exitCode).toBe(2);
    expect(deeper.stderr).toContain("delegation depth 2 is beyond max_depth 1");
  });
});
