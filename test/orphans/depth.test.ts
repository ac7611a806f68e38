// What a turn's environment says about it, through the built scv: its tag (SCV_TURN, unique per
// turn) and its delegation depth (SCV_DEPTH), both set after isolation; and scv refusing a turn
// below more delegating agents than max_depth allows.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { agentCalls, createWorld, ensureBuilt, onlyCall, scv, type World } from "../helpers/scv.js";

let world: World;
beforeAll(ensureBuilt, 120_000);
beforeEach(() => {
  world = createWorld();
});
afterEach(() => world.dispose());

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
});
