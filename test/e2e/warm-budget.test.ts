// What warm session hosts cost and how many there are: `scv ps` shows each host's memory (its own,
// its server's and what that started, from /proc), and `max_warm_hosts` bounds how many run: a new
// one ends the least recently used idle host, a host in use is never ended for room (the one over
// the budget ends once its own turn leaves), and 0 keeps none. Through the built scv, against the
// scripted fake ACP agent.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type AcpWorld, acpWorldPerTest, firstWarmTurn, resultOf, until } from "../helpers/acp-world.js";
import { isAlive, survivors } from "../helpers/pids.js";
import { scv, startScv } from "../helpers/scv.js";

let world: AcpWorld;
acpWorldPerTest((created) => {
  world = created;
});

function residentBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(match?.[1] ?? 0) * 1024;
}

describe("warm hosts' memory and budget", () => {
  it.runIf(process.platform === "linux")(
    "scv ps shows a host's memory: its own, its server's and what that started",
    async () => {
      const { handle, host } = await firstWarmTurn(world, "one");
      const ps = await scv(world, ["ps", "--json"]);
      const [row] = JSON.parse(ps.stdout) as { kind: string; handle: string; rssBytes: number }[];
      expect(row).toMatchObject({ kind: "host", handle });
      const parts = residentBytes(host.scv.pid) + residentBytes(host.server.pid);
      // Both processes, give or take what they allocated between the two readings.
      expect(row?.rssBytes).toBeGreaterThan(parts * 0.8);
      expect(row?.rssBytes).toBeLessThan(parts * 1.25);
      const text = await scv(world, ["ps"]);
      expect(text.stdout).toMatch(
        // JOB AGENT ACCOUNT PID ELAPSED TOKENS STATE: a host has no account or tokens of its own.
        new RegExp(
          `${handle}\\s+gemini\\s+-\\s+\\d+\\s+\\S+\\s+-\\s+session host, idle \\S+, \\d+\\.\\d MB\\n`,
        ),
      );
      expect((await scv(world, ["kill", handle])).exitCode).toBe(0);
    },
  );

  it("max_warm_hosts = 2: a third conversation's host ends the least recently used idle one", async () => {
    world.useConfig("max_warm_hosts = 2\n");
    const a = await firstWarmTurn(world, "a");
    const b = await firstWarmTurn(world, "b");
    // A is used again: B is now the least recently used.
    const again = await scv(world, ["delegate", "-c", a.handle, "--json", "a again"]);
    expect(again.exitCode, again.stderr).toBe(0);
    const c = await firstWarmTurn(world, "c");
    expect(await survivors([b.host.scv.pid, b.host.server.pid], 10_000)).toEqual([]);
    expect(world.hostRecord(b.handle)).toBeUndefined();
    expect([a.host.scv.pid, c.host.scv.pid].every(isAlive)).toBe(true);
    // B continues cold, on a server of its own: it loads its session (and ends A, now the oldest).
    const cold = await scv(world, ["delegate", "-c", b.handle, "--json", "b again"]);
    expect(cold.exitCode, cold.stderr).toBe(0);
    expect(resultOf(cold.stdout).reply).toBe("REPLY b again (turn 2, mode default)");
    expect(await survivors([a.host.scv.pid], 10_000)).toEqual([]);
    for (const handle of [b.handle, c.handle]) expect((await scv(world, ["kill", handle])).exitCode).toBe(0);
  });

  it("a host in use is not ended for room: the host over the budget ends when its own turn leaves", async () => {
    world.useConfig("max_warm_hosts = 1\n");
    const busy = startScv(world, ["delegate", "gemini", "--transport", "acp", "hang on"]);
    expect(await until(() => world.methods().includes("session/prompt"), 20_000)).toBe(true);
    const [first] = world.hostRecords();
    if (first === undefined) throw new Error("no host for the hanging turn");
    const run = await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", "two"]);
    expect(run.exitCode, run.stderr).toBe(0);
    // The new host is the one over the budget once its turn left; the busy one stays.
    const [, secondServer] = world.agentPids();
    expect(await survivors([secondServer ?? 0], 10_000)).toEqual([]);
    expect(world.hostRecord(resultOf(run.stdout).conversation ?? "")).toBeUndefined();
    expect(isAlive(first.scv.pid)).toBe(true);
    busy.kill("SIGINT");
    expect((await busy).exitCode).toBe(130);
    // Its turn cancelled, the conversation recorded: within the budget, it stays warm.
    expect(isAlive(first.scv.pid)).toBe(true);
    expect((await scv(world, ["kill", first.handle])).exitCode).toBe(0);
  });

  it("max_warm_hosts = 0 keeps nothing warm", async () => {
    world.useConfig("max_warm_hosts = 0\n");
    const run = await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", "one"]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(world.hostRecords()).toEqual([]);
    expect(await survivors(world.agentPids())).toEqual([]);
  });
});
