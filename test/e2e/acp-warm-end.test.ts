// How a warm ACP session's host is ended, through the built scv against the scripted fake ACP agent:
// scv ps lists it and scv kill ends it, `conversations rm` ends it, an idle one exits after
// session_idle; nothing of it is left. A dead, stuck or mismatched host is acp-warm-fallback.test.ts.

import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useConfig } from "../helpers/acp.js";
import { type AcpWorld, acpWorldPerTest, firstWarmTurn } from "../helpers/acp-world.js";
import { survivors } from "../helpers/pids.js";
import { scv } from "../helpers/scv.js";

let world: AcpWorld;
acpWorldPerTest((created) => {
  world = created;
});

describe("how a session host is ended", () => {
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
    // Long enough that the host is still there when the turn's scv has exited and the test reads its
    // record (at 1 s a CI machine at load 22 was slower than the host's idleness).
    useConfig(world, '[agents.gemini]\nsession_idle = "5s"\n');
    const { handle, host } = await firstWarmTurn(world);
    // Gone after its seconds of idleness, not the default ten minutes (a loaded machine takes its time).
    expect(await survivors([host.server.pid, host.scv.pid], 30_000)).toEqual([]);
    expect(world.hostRecord(handle)).toBeUndefined();
    expect(existsSync(join(world.scvHome, "hosts", `${handle}.sock`))).toBe(false);
  });
});
