// The MCP `delegate` tool's `mcp`: the `[mcp_servers]` the delegated agent gets, as `--mcp` gives
// them; an empty list for none over the agent's default; an unknown name a tool error.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useLab } from "../helpers/lab.js";
import { callTool, closeClients, connectMcp } from "../helpers/mcp-client.js";
import { agentCalls, signIn, type World } from "../helpers/scv.js";

let world: World;
let client: Client | undefined;
useLab((created) => {
  world = created;
});
beforeEach(() => {
  const config = join(world.root, "config.toml");
  writeFileSync(
    config,
    ["[mcp_servers.docs]", 'command = "docs-mcp"', "[agents.claude]", 'mcp = ["docs"]', ""].join("\n"),
  );
  world.env.SCV_CONFIG = config;
});
afterEach(async () => {
  await closeClients();
  client = undefined;
});

async function delegate(args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  client ??= await connectMcp(world);
  return callTool(client, "delegate", args);
}

describe("the delegate tool's mcp", () => {
  it("names the servers; an empty list gives none over the agent's default; a name not declared is a tool error", async () => {
    await signIn(world, "claude");
    const named = await delegate({ agent: "claude", prompt: "Say hi", mcp: ["docs"] });
    expect(named.isError, named.text).toBe(false);
    const none = await delegate({ agent: "claude", prompt: "Say hi", mcp: [] });
    expect(none.isError, none.text).toBe(false);
    const [withDocs, withNone] = agentCalls(world);
    expect(withDocs?.argv).toContain("--mcp-config");
    expect(withNone?.argv).not.toContain("--mcp-config");
    expect(withNone?.argv).toContain("--strict-mcp-config");
    const unknown = await delegate({ agent: "claude", prompt: "Say hi", mcp: ["nope"] });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain("--mcp 'nope': no [mcp_servers.nope] in scv's config — known: docs");
    expect(agentCalls(world)).toHaveLength(2);
  });
});
