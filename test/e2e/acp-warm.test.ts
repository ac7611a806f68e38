// Warm ACP sessions through the built scv, against the scripted fake ACP agent standing in for
// `gemini --acp`: after a turn the conversation's server stays up in its session host, and a continued
// turn prompts it there (no new process, no session/load), also where the server cannot load a
// session; session_idle = "0" keeps nothing warm. A turn's own model and effort are
// acp-warm-model.test.ts, how a host is ended acp-warm-end.test.ts, a host that cannot serve the turn
// acp-warm-fallback.test.ts, a prompt that does not finish acp-warm-cancel.test.ts, background and
// scv mcp turns acp-warm-callers.test.ts, where its socket listens acp-warm-socket.test.ts; nothing is
// left running after any of them.

import { describe, expect, it } from "vitest";
import { acpCalls, acpMethods, useConfig } from "../helpers/acp.js";
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
