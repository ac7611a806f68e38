// The cases that keep scv's real durations (src/timing.ts), one per behaviour the other tiers test at
// a tenth of them (test/helpers/timing.ts): the built scv, with no test scale in effect, waits each
// out as long as the table says — and no longer than a loaded machine explains.

import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { lockConversation } from "../../src/home/conversations.js";
import { DURATIONS } from "../../src/timing.js";
import { useLab } from "../helpers/lab.js";
import { callTool, closeClients, connectMcp } from "../helpers/mcp-client.js";
import { survivors } from "../helpers/pids.js";
import { agentPids, scv, signIn } from "../helpers/scv.js";

const lab = useLab();
/** What a loaded machine adds to a wait: start-ups of scv and of the fake agents. */
const SLACK_MS = 15_000;

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await run();
  return { value, ms: Date.now() - started };
}

describe("with the real durations", () => {
  it("the end grace: a CLI that never exits after its final result is ended after it, its reply kept", async () => {
    await signIn(lab.world, "claude");
    const { value: run, ms } = await timed(() =>
      scv(lab.world, ["delegate", "claude", "Say hi"], {
        env: { FAKE_AGENT_MODE: "reply", FAKE_AGENT_LINGER: "self" },
      }),
    );
    const pids = await lab.pidsOf();
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toBe("REPLY Say hi\n");
    expect(ms).toBeGreaterThanOrEqual(DURATIONS.endGrace);
    expect(ms).toBeLessThan(DURATIONS.endGrace + SLACK_MS);
    expect(await survivors(pids)).toEqual([]);
  });

  it("the kill grace: an agent that ignores SIGTERM at the time limit gets SIGKILL after it", async () => {
    const { value: run, ms } = await timed(() =>
      scv(lab.world, ["delegate", "gemini", "--timeout", "1s", "Say hi"], {
        env: { FAKE_AGENT_MODE: "ignore-term" },
      }),
    );
    const pids = await lab.pidsOf();
    expect(run.exitCode).toBe(124);
    expect(ms).toBeGreaterThanOrEqual(1_000 + DURATIONS.killGrace);
    expect(ms).toBeLessThan(1_000 + DURATIONS.killGrace + SLACK_MS);
    expect(await survivors(pids)).toEqual([]);
  });

  it("a background turn's lock wait and the settle: a lock a live process holds with no turn is refused after both", async () => {
    const first = await scv(lab.world, ["delegate", "--json", "gemini", "Say hi"]);
    expect(first.exitCode, first.stderr).toBe(0);
    const handle = (JSON.parse(first.stdout) as { conversation: string }).conversation;
    const release = await lockConversation(handle, lab.world.env, 0);
    try {
      const { value: refused, ms } = await timed(() =>
        scv(lab.world, ["delegate", "--background", "-c", handle, "Again"]),
      );
      expect(refused.exitCode).toBe(2);
      // This test's lock is refreshed: a live holder, in use; told after the wait, one refresh and the settle.
      expect(refused.stderr).toMatch(/is in use by another scv that holds its lock/);
      const told = DURATIONS.backgroundLockWait + DURATIONS.lockRefresh + DURATIONS.busySettle;
      expect(ms).toBeGreaterThanOrEqual(told);
      expect(ms).toBeLessThan(told + SLACK_MS);
    } finally {
      await release();
    }
  });

  it("the helper kill grace: a --version that leaves a daemon deaf to SIGTERM is ended after it", async () => {
    const pidsFile = join(lab.world.root, "daemons");
    const { value: run, ms } = await timed(() =>
      scv(lab.world, ["agents", "list", "--json"], {
        env: {
          PATH: `${resolve("test/login/fakes")}:/usr/bin:/bin`,
          FAKE_DAEMON: "deaf",
          FAKE_DAEMON_PIDS: pidsFile,
        },
      }),
    );
    const daemons = readFileSync(pidsFile, "utf8").trim().split("\n").map(Number);
    lab.track(daemons);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(ms).toBeGreaterThanOrEqual(DURATIONS.helperKillGrace);
    expect(ms).toBeLessThan(DURATIONS.helperKillGrace + SLACK_MS);
    expect(await survivors(daemons)).toEqual([]);
  });

  it("scv mcp's progress interval: a waiting call hears from it that often", async () => {
    await signIn(lab.world, "claude");
    const client = await connectMcp(lab.world, { FAKE_AGENT_MODE: "tool-hang" });
    try {
      const progress: { progress: number; message?: string }[] = [];
      const waitSeconds = (2 * DURATIONS.progressInterval) / 1000 + 1;
      const result = await callTool(
        client,
        "delegate",
        { agent: "claude", prompt: "Work", wait_seconds: waitSeconds },
        (each) => progress.push(each),
      );
      const pids = await agentPids(lab.world);
      lab.track(pids);
      expect(result.structured.status).toBe("running");
      // The start, then one every interval: two within twice the interval and a second.
      expect(progress.length).toBeGreaterThanOrEqual(3);
      expect(progress.at(-1)?.message).toMatch(/^claude 1\ds — \$ /);
      await callTool(client, "cancel", { job: result.structured.job });
      expect(await survivors(pids)).toEqual([]);
    } finally {
      await closeClients();
    }
  });
});
