// `scv mcp` through the MCP SDK's own client over stdio, started in a world's project: a connected
// client (closed after the test by `closeClients`) and a tool call read as a host reads it.

import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { expect } from "vitest";
import { SCV, type World } from "./scv.js";

const open: Client[] = [];

/** What a host answers an elicitation with. */
export type ElicitAnswer = {
  readonly action: "accept" | "decline" | "cancel";
  readonly content?: Record<string, string>;
  readonly [key: string]: unknown;
};

export interface McpClientOptions {
  /** The protocol version the client pins (the SDK's newest otherwise). */
  readonly pin?: string;
  /** Declares elicitation (form) and answers each request so. */
  readonly elicit?: (params: Record<string, unknown>) => ElicitAnswer;
}

/** A client connected to `scv mcp`, with `env` added to the world's. */
export async function connectMcp(
  world: World,
  env: Record<string, string> = {},
  options: McpClientOptions = {},
): Promise<Client> {
  const client = new Client(
    { name: "scv-test", version: "1.0.0" },
    {
      ...(options.elicit === undefined ? {} : { capabilities: { elicitation: { form: {} } } }),
      ...(options.pin === undefined ? {} : { versionNegotiation: { mode: { pin: options.pin } } }),
    },
  );
  const elicit = options.elicit;
  if (elicit !== undefined)
    client.setRequestHandler("elicitation/create", async (request) =>
      elicit(request.params as Record<string, unknown>),
    );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SCV, "mcp"],
    cwd: world.project,
    env: { ...world.env, ...env },
    stderr: "pipe",
  });
  // Drained: a server that writes much to stderr must not stall on a full pipe.
  transport.stderr?.on("data", () => {});
  await client.connect(transport);
  open.push(client);
  return client;
}

/** Closes every client `connectMcp` opened (their servers exit as their stdin closes). */
export async function closeClients(): Promise<void> {
  for (const client of open.splice(0)) await client.close().catch(() => {});
}

export interface CallResult {
  readonly text: string;
  readonly structured: Record<string, unknown>;
  readonly isError: boolean;
}

/** A tool call's one text content, its structured content and whether it is an error. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  onprogress?: (progress: { progress: number; message?: string }) => void,
): Promise<CallResult> {
  const result = await client.callTool({ name, arguments: args }, { onprogress, timeout: 90_000 });
  const content = result.content as { type: string; text: string }[];
  expect(content).toHaveLength(1);
  return {
    text: content[0]?.text ?? "",
    structured: (result.structuredContent ?? {}) as Record<string, unknown>,
    isError: result.isError === true,
  };
}
