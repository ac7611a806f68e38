// A warm ACP session's host that cannot serve the next turn, through the built scv against the scripted
// fake ACP agent: one that died or does not answer within the hello limit, and one the turn would start
// differently (another --policy), give way to a cold start that loads the session (session/load), and
// the old host and its server are gone.

import { describe, expect, it } from "vitest";
import { DURATIONS } from "../../src/timing.js";
import { acpCalls, acpMethods } from "../helpers/acp.js";
import {
  type AcpWorld,
  acpWorldPerTest,
  endSessionHost,
  firstWarmTurn,
  type HostFile,
  resultOf as json,
} from "../helpers/acp-world.js";
import { survivors } from "../helpers/pids.js";
import { scv } from "../helpers/scv.js";

let world: AcpWorld;
acpWorldPerTest((created) => {
  world = created;
});

describe("a session host that cannot serve the turn: a cold start", () => {
  it("a host that died: the next turn starts the server again and loads the session (cold)", async () => {
    const { handle, session, host } = await firstWarmTurn(world);
    process.kill(host.scv.pid, "SIGKILL");
    // Its server, its stdin gone, ends too; the reaper would kill it otherwise.
    const second = await scv(world, ["delegate", "-c", handle, "--json", "two"]);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(json(second.stdout).reply).toBe("REPLY two (turn 2, mode default)");
    expect(acpCalls(world)).toHaveLength(2);
    expect(acpMethods(world)).toContain("session/load");
    expect(await survivors([host.server.pid, host.scv.pid])).toEqual([]);
    // The new host holds the loaded session.
    expect(world.hostRecord(handle)?.session).toBe(session);
  });

  it("a host that does not answer within 2 s is killed, and the turn falls back to a cold start", async () => {
    const { handle, host } = await firstWarmTurn(world);
    process.kill(host.scv.pid, "SIGSTOP");
    const started = Date.now();
    const second = await scv(world, ["delegate", "-c", handle, "--json", "two"]);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(json(second.stdout).reply).toBe("REPLY two (turn 2, mode default)");
    // It waited the hello limit out, then no longer than a cold start (on a loaded machine).
    expect(Date.now() - started).toBeGreaterThanOrEqual(DURATIONS.helloLimit);
    expect(Date.now() - started).toBeLessThan(DURATIONS.helloLimit + 20_000);
    expect(acpCalls(world)).toHaveLength(2);
    expect(acpMethods(world)).toContain("session/load");
    expect(await survivors([host.server.pid, host.scv.pid])).toEqual([]);
    await endSessionHost(world, handle, world.hostRecord(handle) as HostFile);
  });

  it("a turn that would start the server differently (another --policy) ends the host and starts afresh", async () => {
    const { handle, host } = await firstWarmTurn(world);
    const second = await scv(world, ["delegate", "-c", handle, "--policy", "auto", "--json", "two"]);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(json(second.stdout).reply).toBe("REPLY two (turn 2, mode yolo)");
    expect(acpCalls(world)).toHaveLength(2);
    expect(acpMethods(world)).toContain("session/load");
    expect(await survivors([host.server.pid, host.scv.pid])).toEqual([]);
    await endSessionHost(world, handle, world.hostRecord(handle) as HostFile);
  });
});
