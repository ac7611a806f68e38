// The MCP `delegate` tool's `mcp`: the `[mcp_servers]` the delegated agent gets, as `--mcp` gives
// them; an empty list for none over the agent's default; an unknown name a tool error.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { agentCalls, createWorld, ensureBuilt, SCV, signIn, type World } from "../helpers/scv.js";

let world: World;
let client: Client | undefined;
beforeAll(ensureBuilt, 120_000);
beforeEach(() => {
  world = createWorld();
  const config = join(world.root, "config.toml");
  writeFileSync(
    config,
    ["[mcp_servers.docs]", 'command = "docs-mcp"', "[agents.claude]", 'mcp = ["docs"]', ""].join("\n"),
  );
  world.env.SCV_CONFIG = config;
});
afterEach(async () => {
  await client?.close().catch(() => {});
  world.dispose();
});

async function delegate(args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  client = client ?? new Client({ name: "scv-test", version: "1.0.0" });
  if (client.transport === undefined)
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [SCV, "mcp"],
        cwd: world.project,
        env: world.env,
      }),
    );
  const result = await client.callTool({ name: "delegate", arguments: args }, { timeout: 90_000 });
  const content = result.content as { type: string; text: string }[];
  return { text: content[0]?.text ?? "", isError: result.isError === true };
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
