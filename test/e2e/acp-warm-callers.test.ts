// The other callers of a warm ACP session's host, through the built scv against the scripted fake ACP
// agent: a background continued turn (as scv mcp runs them) and scv mcp's delegate tool continuing the
// conversation prompt the running server, no new process.

import { describe, expect, it } from "vitest";
import { acpCalls } from "../helpers/acp.js";
import {
  type AcpWorld,
  acpWorldPerTest,
  endSessionHost,
  firstWarmTurn,
  type HostFile,
} from "../helpers/acp-world.js";
import { callTool, closeClients, connectMcp } from "../helpers/mcp-client.js";
import { scv } from "../helpers/scv.js";

let world: AcpWorld;
acpWorldPerTest((created) => {
  world = created;
});

describe("background and scv mcp turns on a warm host", () => {
  it("a background continued turn (as scv mcp runs them) uses the host too", async () => {
    const { handle } = await firstWarmTurn(world);
    const started = await scv(world, ["delegate", "--background", "-c", handle, "two"]);
    expect(started.exitCode, started.stderr).toBe(0);
    const waited = await scv(world, ["wait", started.stdout.trim()]);
    expect(waited.stdout).toBe("REPLY two (turn 2, mode default)\n");
    expect(acpCalls(world)).toHaveLength(1);
    const { host } = { host: world.hostRecord(handle) as HostFile };
    await endSessionHost(world, handle, host);
  });

  it("scv mcp's delegate tool continuing the conversation uses the host too", async () => {
    const { handle, host } = await firstWarmTurn(world);
    const client = await connectMcp(world);
    try {
      const result = await callTool(client, "delegate", { conversation: handle, prompt: "two" });
      expect(result.isError, result.text).toBe(false);
      expect(result.structured).toMatchObject({ reply: "REPLY two (turn 2, mode default)" });
    } finally {
      await closeClients();
    }
    expect(acpCalls(world)).toHaveLength(1);
    await endSessionHost(world, handle, host);
  });
});
