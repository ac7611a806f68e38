// A delegate round trip through a running `scv mcp` (the MCP SDK's client over stdio, as a host
// calls it) against the same turn through `scv delegate claude "hi"` started as a process, on the
// fast fake claude; interleaved round by round so both see the same machine. The server is started
// once, as a host keeps it; each of its turns is a background turn, handed to the spare detached scv
// the server keeps loaded (src/jobs/spare.ts). Rounds are spaced by IDLE_MS, as a host's calls are
// spaced by its model's turns, so the spare started after one call is ready for the next.

import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { median, mustRun } from "./lib.js";
import { REPLY, SCV, type World } from "./world.js";

export interface McpResult {
  readonly runs: number;
  /** Median wall time of one delegate call through the running server, ms. */
  readonly mcpMs: number;
  /** Median wall time of one `scv delegate claude "hi"` process, ms. */
  readonly cliMs: number;
  /** Median over rounds of (mcp − cli) in the same round, ms. */
  readonly differenceMs: number;
}

/** Between rounds: a host's calls are seconds apart (its model writes the next call). */
const IDLE_MS = 1_000;

export async function mcpBench(world: World, runs: number, warmup: number): Promise<McpResult> {
  const client = new Client({ name: "scv-bench", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [SCV, "mcp"],
      cwd: world.project,
      env: world.env,
      stderr: "ignore",
    }),
  );
  const mcp = async (): Promise<number> => {
    const started = process.hrtime.bigint();
    const result = await client.callTool({ name: "delegate", arguments: { agent: "claude", prompt: "hi" } });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const reply = (result.structuredContent as { reply?: string } | undefined)?.reply;
    if (result.isError || reply !== REPLY)
      throw new Error(`scv mcp replied ${JSON.stringify(result.content)}`);
    return ms;
  };
  const cli = async (): Promise<number> => {
    const run = await mustRun(process.execPath, [SCV, "delegate", "claude", "hi"], {
      env: world.env,
      cwd: world.project,
    });
    if (run.stdout.trim() !== REPLY) throw new Error(`scv delegate replied ${JSON.stringify(run.stdout)}`);
    return run.ms;
  };
  const times = { mcp: [] as number[], cli: [] as number[] };
  try {
    for (let round = 0; round < warmup + runs; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
      // Alternate which goes first.
      const [first, second] = round % 2 === 0 ? [mcp, cli] : [cli, mcp];
      const a = await first();
      const b = await second();
      if (round < warmup) continue;
      times.mcp.push(round % 2 === 0 ? a : b);
      times.cli.push(round % 2 === 0 ? b : a);
    }
  } finally {
    await client.close();
  }
  return {
    runs,
    mcpMs: median(times.mcp),
    cliMs: median(times.cli),
    differenceMs: median(times.mcp.map((ms, i) => ms - (times.cli[i] as number))),
  };
}
