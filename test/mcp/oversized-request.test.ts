// A message from the host over the 10 MiB the SDK's stdio transport holds: before, `scv mcp` closed
// (exit 0) and dropped every call in flight. Through the MCP SDK's own client and through raw stdio,
// the built scv against fake agents: the request is answered with an error naming its size, by its
// id wherever the client put it, and the server goes on serving — the calls in flight and the next.

import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterEach, describe, expect, it } from "vitest";
import { useLab } from "../helpers/lab.js";
import { SCV, signIn, type World } from "../helpers/scv.js";

/** A prompt past the bound. */
const HUGE = "x".repeat(11 * 1024 * 1024);

let world: World;
const servers: ChildProcessWithoutNullStreams[] = [];
const clients: Client[] = [];
useLab((created) => {
  world = created;
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => {});
  for (const server of servers.splice(0)) server.kill();
});

describe("scv mcp: a request over 10 MiB", () => {
  it("the SDK's client: the call fails with an error saying why, and the call in flight still gets its reply", async () => {
    await signIn(world, "claude");
    const client = new Client({ name: "scv-test", version: "1.0.0" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SCV, "mcp"],
      cwd: world.project,
      env: { ...world.env, FAKE_AGENT_MODE: "slow:2000" },
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await client.connect(transport);
    clients.push(client);
    const inFlight = client.callTool(
      { name: "delegate", arguments: { agent: "claude", prompt: "Work", wait_seconds: 30 } },
      { timeout: 60_000 },
    );
    const huge = client.callTool(
      { name: "delegate", arguments: { agent: "claude", prompt: HUGE } },
      { timeout: 60_000 },
    );
    await expect(huge).rejects.toThrow(
      /this request is 11\.0 MiB, over the 10 MiB scv mcp reads — put the material in a file in the project and name the file in the prompt/,
    );
    const reply = await inFlight;
    expect(reply.isError, JSON.stringify(reply)).toBeFalsy();
    expect(reply.structuredContent).toMatchObject({ status: "completed" });
    const status = await client.callTool({ name: "status", arguments: {} });
    expect(status.isError).toBeFalsy();
    expect(stderr).toMatch(
      /scv mcp: dropped a message of 11\.0 MiB \(request \d+, answered with an error\)\n/,
    );
  });

  it("raw stdio: answered by the id at either end; a notification is dropped; the server serves on and exits 0 when stdin ends", async () => {
    const server = spawn(process.execPath, [SCV, "mcp"], { cwd: world.project, env: world.env });
    servers.push(server);
    let stdout = "";
    let stderr = "";
    server.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const lines: Record<string, unknown>[] = [];
    const waiters: (() => void)[] = [];
    server.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const complete = stdout.split("\n");
      stdout = complete.pop() ?? "";
      for (const line of complete) lines.push(JSON.parse(line) as Record<string, unknown>);
      for (const wake of waiters.splice(0)) wake();
    });
    const answer = async (id: unknown): Promise<Record<string, unknown>> => {
      for (;;) {
        const found = lines.find((line) => line.id === id);
        if (found !== undefined) return found;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    };
    const send = (message: unknown) => server.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    await answer(1);
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const call = {
      method: "tools/call",
      params: { name: "delegate", arguments: { agent: "claude", prompt: HUGE } },
    };
    send({ jsonrpc: "2.0", id: 2, ...call });
    send({ ...call, jsonrpc: "2.0", id: "at-the-end" });
    send({ jsonrpc: "2.0", method: "notifications/message", params: { data: HUGE } });
    send({ jsonrpc: "2.0", id: 3, method: "tools/list" });
    for (const id of [2, "at-the-end"]) {
      expect(await answer(id)).toEqual({
        jsonrpc: "2.0",
        id,
        error: {
          code: -32600,
          message:
            "this request is 11.0 MiB, over the 10 MiB scv mcp reads — put the material in a file in the project and name the file in the prompt",
        },
      });
    }
    const listed = await answer(3);
    expect((listed.result as { tools: unknown[] }).tools).toHaveLength(8); // the eight tools, review the last added
    server.stdin.end();
    const code = await new Promise((resolve) => server.on("close", resolve));
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(
      "scv mcp: dropped a message of 11.0 MiB (no id found in it, so nothing answered)\n",
    );
    // Answers only: nothing for the notification.
    expect(lines.map((line) => line.id)).toEqual([1, 2, "at-the-end", 3]);
  });
});
