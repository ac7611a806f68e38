// The world of the MCP tasks tests (test/mcp/tasks*.test.ts): `scv mcp` spoken to on the 2026-07-28
// tasks extension's wire (RawClient) or through the SDK's client (helpers/mcp-client), Gemini as the
// fake ACP agent that asks to run a tool, tasks/get polled until a status, and a result with what
// differs between two turns blanked.

import { DetailedTaskV2Schema } from "@modelcontextprotocol/ext-tasks/core/v2";
import { afterEach } from "vitest";
import type * as z from "zod";
import { acpCalls, installAcpAgent, useConfig } from "./acp.js";
import { RawClient } from "./mcp-raw.js";
import { useMcpLab } from "./mcp-world.js";
import { killAll } from "./pids.js";
import { SCV, type World } from "./scv.js";

/** A task's id: the scv job of a turn of gemini. */
export const JOB = /^gemini-[0-9a-z]{6}\.[0-9a-z]{8}$/;

const opened: RawClient[] = [];

/** A fresh world for each test of the calling file (useMcpLab); after it the raw and SDK clients are
 * closed and the ACP agents it started killed. The pids pushed on the array returned are SIGKILLed. */
export function useTasksLab(take: (world: World) => void): number[] {
  let world: World | undefined;
  const leftovers = useMcpLab((created) => {
    world = created;
    take(created);
  });
  afterEach(async () => {
    for (const client of opened.splice(0)) await client.close().catch(() => {});
    if (world !== undefined) killAll(acpCalls(world).map((call) => call.pid));
  });
  return leftovers;
}

/** `scv mcp` on the wire of the 2026-07-28 tasks extension (its capabilities declared unless
 * `capabilities` says otherwise), `env` added to the world's; closed after the test. */
export async function rawMcp(
  world: World,
  env: Record<string, string> = {},
  capabilities?: Record<string, unknown>,
) {
  const { client, discovered } = await RawClient.open({
    command: process.execPath,
    args: [SCV, "mcp"],
    cwd: world.project,
    env: { ...world.env, ...env },
    ...(capabilities === undefined ? {} : { capabilities }),
  });
  opened.push(client);
  return { client, discovered };
}

/** Gemini as the fake ACP agent, cold, under policy default: a prompt with "tool" asks to run one. */
export function acpGemini(world: World): void {
  installAcpAgent(world, "gemini");
  useConfig(world, `[defaults]\nsession_idle = "0"\n\n[agents.gemini]\ntransport = "acp"\n`);
}

/** Polls tasks/get (2026-07-28) until `done` holds of the task; each status seen goes on `seen`. */
export async function pollV2(
  client: RawClient,
  taskId: string,
  done: (task: z.infer<typeof DetailedTaskV2Schema>) => boolean,
  seen: string[] = [],
): Promise<z.infer<typeof DetailedTaskV2Schema>> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const task = DetailedTaskV2Schema.parse(await client.request("tasks/get", { taskId }));
    if (seen.at(-1) !== task.status) seen.push(task.status);
    if (done(task)) return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} still ${task.status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A result with what differs between two turns of the same agent (ids, times, usage) blanked. */
export function normalized(result: unknown): unknown {
  const text = JSON.stringify(result)
    .replace(/gemini-[0-9a-z]{6}(\.[0-9a-z]{8})?/g, "<handle>")
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<session>")
    .replace(/"(duration|durationMs|startedAt|endedAt)":("[^"]*"|\d+)/g, '"$1":0')
    .replace(/\d+(\.\d+)?s\b/g, "<time>");
  return JSON.parse(text);
}
