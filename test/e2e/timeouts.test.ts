// Time limits through the built scv, with fake agents that start a grandchild or ignore SIGTERM:
// whatever ends the turn, no process of the agent survives. (Interrupts: interrupts.test.ts.)

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useLab } from "../helpers/lab.js";
import { survivors } from "../helpers/pids.js";
import { scv } from "../helpers/scv.js";

const lab = useLab();

// Gemini: its status cannot be checked before the turn, so no sign-in is needed to run its fake.
describe("time limits", () => {
  it("--timeout ends the agent and its grandchild: exit 124, 'timed out after 3s'", async () => {
    const run = await scv(lab.world, ["delegate", "gemini", "--timeout", "3s", "Say hi"], {
      env: { FAKE_AGENT_MODE: "grandchild" },
    });
    const pids = await lab.pidsOf();
    expect(run.exitCode).toBe(124);
    expect(run.stderr).toContain(
      "scv: gemini timed out after 3s — raise --timeout (or [agents.gemini] timeout in scv's config)",
    );
    expect(run.stdout).toBe("");
    expect(await survivors(pids)).toEqual([]);
  });

  it("agents check takes --timeout too (its hint names it): exit 124, nothing left", async () => {
    const run = await scv(lab.world, ["agents", "check", "gemini", "--timeout", "2s"], {
      env: { FAKE_AGENT_MODE: "hang" },
    });
    const pids = await lab.pidsOf();
    expect(run.exitCode).toBe(124);
    expect(run.stdout).toBe(
      "gemini: sign-in unknown — gemini timed out after 2s — raise --timeout (or [agents.gemini] timeout in scv's config)\n",
    );
    expect(await survivors(pids)).toEqual([]);
  });

  it("an agent that ignores SIGTERM is killed after the grace period", async () => {
    const run = await scv(lab.world, ["delegate", "gemini", "--timeout", "2s", "Say hi"], {
      env: { FAKE_AGENT_MODE: "ignore-term" },
    });
    const pids = await lab.pidsOf();
    expect(run.exitCode).toBe(124);
    expect(await survivors(pids)).toEqual([]);
  });

  it("a turn stays timed out when the agent answers scv's SIGTERM with a success, as Copilot CLI does", async () => {
    const run = await scv(lab.world, ["delegate", "copilot", "--timeout", "2s", "--json", "Say hi"], {
      env: { FAKE_AGENT_MODE: "answer-term" },
    });
    await lab.pidsOf();
    expect(run.exitCode).toBe(124);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: "timeout", exitCode: 124 });
  });

  it("--idle-timeout ends an agent that prints nothing: exit 124", async () => {
    const run = await scv(lab.world, ["delegate", "gemini", "--idle-timeout", "2s", "Say hi"], {
      env: { FAKE_AGENT_MODE: "hang" },
    });
    await lab.pidsOf();
    expect(run.exitCode).toBe(124);
    expect(run.stderr).toContain("scv: gemini printed nothing for 2s — raise --idle-timeout");
  });

  it("takes the agent's time limit from config", async () => {
    const config = join(lab.world.root, "config.toml");
    writeFileSync(config, `[defaults]\ntimeout = "1h"\n[agents.gemini]\ntimeout = "2s"\n`);
    const run = await scv(lab.world, ["delegate", "gemini", "Say hi"], {
      env: { FAKE_AGENT_MODE: "hang", SCV_CONFIG: config },
    });
    await lab.pidsOf();
    expect(run.exitCode).toBe(124);
    expect(run.stderr).toContain("timed out after 2s");
  });
});
