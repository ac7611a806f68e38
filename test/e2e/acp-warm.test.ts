// Warm ACP sessions through the built scv, against the scripted fake ACP agent standing in for
// `gemini --acp`: after a turn the conversation's server stays up in its session host, and a continued
// turn prompts it there (no new process, no session/load), with that turn's own model and effort only;
// session_idle = "0" keeps nothing warm. How a host ends is acp-warm-end.test.ts, a prompt that does
// not finish acp-warm-cancel.test.ts, background and scv mcp turns acp-warm-callers.test.ts, where its
// socket listens acp-warm-socket.test.ts; nothing is left running after any of them.

import { describe, expect, it } from "vitest";
import { acpCalls, acpMethods, acpPrompts, useConfig } from "../helpers/acp.js";
import {
  type AcpWorld,
  acpWorldPerTest,
  endSessionHost,
  firstWarmTurn,
  type HostFile,
  resultOf as json,
} from "../helpers/acp-world.js";
import { isAlive, survivors } from "../helpers/pids.js";
import { scv } from "../helpers/scv.js";

let world: AcpWorld;
acpWorldPerTest((created) => {
  world = created;
});

describe("a warm continued turn", () => {
  it("a continued turn prompts the running server: no new process, no session/load, the history there", async () => {
    const { handle, host } = await firstWarmTurn(world);
    // The server outlived its turn, in the host, with the host's own tag (no turn's sweep ends it).
    expect(isAlive(host.server.pid)).toBe(true);
    expect(acpCalls(world)).toHaveLength(1);
    const second = await scv(world, ["delegate", "-c", handle, "--json", "two"]);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(json(second.stdout).reply).toBe("REPLY two (turn 2, mode default)");
    expect(acpCalls(world)).toHaveLength(1);
    expect(acpMethods(world)).toEqual(["initialize", "session/new", "session/prompt", "session/prompt"]);
    const events = await scv(world, ["delegate", "-c", handle, "--events", "three"]);
    expect(events.exitCode, events.stderr).toBe(0);
    expect(events.stdout).toContain('"type":"text"');
    expect(acpCalls(world)).toHaveLength(1);
    await endSessionHost(world, handle, host);
  });

  it("a turn's own model and effort are that turn's only: the next turn runs the conversation's again", async () => {
    const env = { FAKE_ACP_EFFORT: "1" };
    const first = await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", "one"], { env });
    expect(first.exitCode, first.stderr).toBe(0);
    const handle = json(first.stdout).conversation ?? "";
    const once = ["delegate", "-c", handle, "-m", "fake-large", "--effort", "high", "--json", "two"];
    const second = await scv(world, once, { env });
    expect(second.exitCode, second.stderr).toBe(0);
    const third = await scv(world, ["delegate", "-c", handle, "--json", "three"], { env });
    expect(third.exitCode, third.stderr).toBe(0);
    expect(acpCalls(world)).toHaveLength(1);
    expect(acpPrompts(world).map(({ text, model, effort }) => [text, model, effort])).toEqual([
      ["one", "fake-small", "medium"],
      ["two", "fake-large", "high"],
      ["three", "fake-small", "medium"],
    ]);
    const host = world.hostRecord(handle)?.scv.pid ?? 0;
    expect((await scv(world, ["kill", handle])).exitCode).toBe(0);
    expect(await survivors([...acpCalls(world).map((call) => call.pid), host])).toEqual([]);
  });

  it("a conversation begun with a model keeps it after a turn that used another", async () => {
    const env = { FAKE_ACP_EFFORT: "1" };
    const started = ["delegate", "gemini:fake-large", "--transport", "acp", "--json", "four"];
    const other = await scv(world, started, { env });
    expect(other.exitCode, other.stderr).toBe(0);
    const otherHandle = json(other.stdout).conversation ?? "";
    const small = await scv(world, ["delegate", "-c", otherHandle, "-m", "fake-small", "--json", "five"], {
      env,
    });
    expect(small.exitCode, small.stderr).toBe(0);
    const back = await scv(world, ["delegate", "-c", otherHandle, "--json", "six"], { env });
    expect(back.exitCode, back.stderr).toBe(0);
    expect(acpPrompts(world).map(({ text, model }) => [text, model])).toEqual([
      ["four", "fake-large"],
      ["five", "fake-small"],
      ["six", "fake-large"],
    ]);
    const hosts = [world.hostRecord(otherHandle)].map((host) => host?.scv.pid ?? 0);
    expect((await scv(world, ["kill", otherHandle])).exitCode).toBe(0);
    expect(await survivors([...acpCalls(world).map((call) => call.pid), ...hosts])).toEqual([]);
  });

  it("a warm conversation continues on a server that cannot load a session (no loadSession)", async () => {
    const env = { FAKE_ACP_NO_LOAD: "1" };
    const first = await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", "one"], { env });
    expect(first.exitCode, first.stderr).toBe(0);
    const handle = json(first.stdout).conversation ?? "";
    const second = await scv(world, ["delegate", "-c", handle, "--json", "two"], { env });
    expect(second.exitCode, second.stderr).toBe(0);
    expect(json(second.stdout).reply).toBe("REPLY two (turn 2, mode default)");
    await endSessionHost(world, handle, world.hostRecord(handle) as HostFile);
  });

  it('session_idle = "0" keeps nothing warm', async () => {
    useConfig(world, '[defaults]\nsession_idle = "0"\n');
    const run = await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", "one"]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(world.hostRecord(json(run.stdout).conversation ?? "")).toBeUndefined();
    expect(await survivors(acpCalls(world).map((call) => call.pid))).toEqual([]);
  });
});
