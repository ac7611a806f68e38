// A prompt on a warm ACP session's host that does not finish, through the built scv against the
// scripted fake ACP agent: the time limit and Ctrl-C cancel it (session/cancel) and the host stays to
// serve the next turn; a server that dies mid-prompt fails the turn and takes its host with it.

import { describe, expect, it } from "vitest";
import { acpCalls, acpMethods } from "../helpers/acp.js";
import {
  type AcpWorld,
  acpWorldPerTest,
  endSessionHost,
  firstWarmTurn,
  resultOf as json,
  until,
} from "../helpers/acp-world.js";
import { isAlive, survivors } from "../helpers/pids.js";
import { scv, startScv } from "../helpers/scv.js";

let world: AcpWorld;
acpWorldPerTest((created) => {
  world = created;
});

describe("a prompt on a warm host that does not finish", () => {
  it("a timed-out prompt on a warm host is cancelled (exit 124); the host stays and serves the next turn", async () => {
    const { handle, host } = await firstWarmTurn(world);
    const hung = await scv(world, ["delegate", "-c", handle, "--timeout", "1s", "hang on"]);
    expect(hung.exitCode).toBe(124);
    expect(acpMethods(world)).toContain("session/cancel");
    expect(isAlive(host.server.pid)).toBe(true);
    const next = await scv(world, ["delegate", "-c", handle, "--json", "after"]);
    expect(next.exitCode, next.stderr).toBe(0);
    expect(json(next.stdout).reply).toContain("REPLY after");
    expect(acpCalls(world)).toHaveLength(1);
    await endSessionHost(world, handle, host);
  });

  it("Ctrl-C on a warm turn cancels its prompt (exit 130), and the host stays", async () => {
    const { handle, host } = await firstWarmTurn(world);
    const before = acpMethods(world).length;
    const child = startScv(world, ["delegate", "-c", handle, "hang on"]);
    expect(await until(() => acpMethods(world).slice(before).includes("session/prompt"), 20_000)).toBe(true);
    child.kill("SIGINT");
    const done = await child;
    expect(done.exitCode).toBe(130);
    expect(acpMethods(world).slice(before)).toContain("session/cancel");
    expect(isAlive(host.server.pid)).toBe(true);
    await endSessionHost(world, handle, host);
  });

  it("a server that dies mid-prompt fails the turn (exit 1) and takes its host with it", async () => {
    const { handle, host } = await firstWarmTurn(world);
    const died = await scv(world, ["delegate", "-c", handle, "--json", "die now"]);
    expect(died.exitCode).toBe(1);
    expect(json(died.stdout).error).toContain("fatal: model crashed");
    expect(await survivors([host.server.pid, host.scv.pid])).toEqual([]);
    expect(world.hostRecord(handle)).toBeUndefined();
  });
});
