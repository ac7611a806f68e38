// A busy turn through the built scv: its running record follows thousands of tool calls with a few
// writes a second, not one per event (src/turn/record-updates.ts), yet `scv ps` shows the tool running
// now within about half a second (busy-turn.stress.test.ts: a bound in time, for a machine not loaded
// by others), and `scv kill` and the reaper still reach a turn mid-stream.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UPDATE_MS } from "../../src/turn/record-updates.js";
import { useLab } from "../helpers/lab.js";
import { isAlive, survivors } from "../helpers/pids.js";
import { agentPids, runningRecord, scv, signIn, startScv } from "../helpers/scv.js";

const lab = useLab();
const COUNTER = join(import.meta.dirname, "..", "helpers", "count-renames.cjs");

function turnsDir(): string {
  return join(lab.world.scvHome, "turns");
}

describe("a turn with thousands of tool calls", () => {
  it(`rewrites its running record at most once every ${UPDATE_MS} ms, not once per tool event`, async () => {
    await signIn(lab.world, "claude");
    const counts = join(lab.world.root, "renames.json");
    const run = await scv(lab.world, ["delegate", "claude", "Work"], {
      env: { FAKE_AGENT_MODE: "tools:5000", NODE_OPTIONS: `--require ${COUNTER}`, SCV_TEST_RENAMES: counts },
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toBe("MOCK-REPLY-1\n");
    const { renames, ms } = JSON.parse(readFileSync(counts, "utf8")) as { renames: number; ms: number };
    // The agent's identity at once, the first tool at once, then one per interval, and the last state.
    expect(renames).toBeGreaterThan(0);
    expect(renames).toBeLessThanOrEqual(Math.ceil(ms / UPDATE_MS) + 4);
  });

  it("scv kill ends a foreground turn whose agent never stops sending tool calls", async () => {
    await signIn(lab.world, "claude");
    const child = startScv(lab.world, ["delegate", "claude", "Work"], { env: { FAKE_AGENT_MODE: "drip" } });
    const pids = await lab.pidsOf();
    const { record } = await runningRecord(lab.world);
    expect(record.agentProcess?.pid).toBe(pids[0]);
    const killed = await scv(lab.world, ["kill", record.handle]);
    expect(killed.exitCode, killed.stderr).toBe(0);
    const ended = await child;
    expect(ended.exitCode).toBe(143);
    expect(await survivors(pids)).toEqual([]);
    expect(existsSync(join(turnsDir(), `${record.handle}.json`))).toBe(false);
  });

  it("a turn whose scv was SIGKILLed mid-stream is reaped by the next scv: its agent ended", async () => {
    await signIn(lab.world, "claude");
    const child = startScv(lab.world, ["delegate", "claude", "Work"], { env: { FAKE_AGENT_MODE: "drip" } });
    const pids = await agentPids(lab.world);
    lab.track(pids);
    const { record } = await runningRecord(lab.world);
    // Tool calls go on arriving: the record has been rewritten since, the agent's pid still in it.
    await new Promise((resolve) => setTimeout(resolve, 3 * UPDATE_MS));
    child.kill("SIGKILL");
    await child;
    expect(pids.filter(isAlive)).toEqual(pids);
    const ps = await scv(lab.world, ["ps"]);
    expect(ps.stderr).toBe("no running turns\n");
    expect(await survivors(pids)).toEqual([]);
    expect(existsSync(join(turnsDir(), `${record.tag}.done.json`))).toBe(true);
  });
});
