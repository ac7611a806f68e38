// How a warm ACP session's host ends, through the built scv against the scripted fake ACP agent: scv ps
// lists it and scv kill ends it, `conversations rm` ends it, an idle one exits after session_idle, a
// dead or stuck one's conversation falls back to a cold start (session/load), and a turn that would
// start the server differently ends it and starts afresh.

import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DURATIONS } from "../../src/timing.js";
import { acpCalls, acpMethods, useConfig } from "../helpers/acp.js";
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

describe("how a session host ends", () => {
  it("scv ps lists the host; scv kill <handle> ends it and its server", async () => {
    const { handle, host } = await firstWarmTurn(world);
    const ps = await scv(world, ["ps"]);
    expect(ps.stdout).toMatch(new RegExp(`${handle}\\s+gemini\\s+.*idle`));
    const rows = JSON.parse((await scv(world, ["ps", "--json"])).stdout) as {
      kind?: string;
      handle: string;
    }[];
    expect(rows).toMatchObject([{ kind: "host", handle, agent: "gemini" }]);
    const killed = await scv(world, ["kill", handle]);
    expect(killed.exitCode, killed.stderr).toBe(0);
    expect(killed.stderr).toBe(`ended the session host of ${handle}\n`);
    expect(await survivors([host.server.pid, host.scv.pid])).toEqual([]);
    expect(existsSync(join(world.scvHome, "hosts", `${handle}.sock`))).toBe(false);
    expect((await scv(world, ["ps"])).stderr).toBe("no running turns\n");
  });

  it("scv conversations rm ends the conversation's host", async () => {
    const { handle, host } = await firstWarmTurn(world);
    const removed = await scv(world, ["conversations", "rm", handle]);
    expect(removed.exitCode, removed.stderr).toBe(0);
    expect(await survivors([host.server.pid, host.scv.pid])).toEqual([]);
    expect(world.hostRecord(handle)).toBeUndefined();
  });

  it("an idle host closes its server and exits after session_idle", async () => {
    useConfig(world, '[agents.gemini]\nsession_idle = "1s"\n');
    const { handle, host } = await firstWarmTurn(world);
    // Gone after its second of idleness, not the default ten minutes (a loaded machine takes its time).
    expect(await survivors([host.server.pid, host.scv.pid], 30_000)).toEqual([]);
    expect(world.hostRecord(handle)).toBeUndefined();
    expect(existsSync(join(world.scvHome, "hosts", `${handle}.sock`))).toBe(false);
  });

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
