// delegate as an MCP task (the 2026-07-28 extension, as Claude Code asks for it) through a running
// `scv mcp`, on the fake claude that sleeps 1 s: how long the host's call takes to get its task back
// (the turn started in the server's spare runner, its record written), and how long after the turn's
// end the host has its result — polling tasks/get every 25 ms (what scv itself adds), and at the
// poll interval scv asks of hosts (what a host that honours it sees). The turn's end is when its
// result lands in $SCV_HOME/turns (fs.watch on the folder).

import { watch } from "node:fs";
import { join } from "node:path";
import { RawClient } from "../test/helpers/mcp-raw.js";
import { median } from "./lib.js";
import { SCV, type World } from "./world.js";

export interface McpTaskResult {
  readonly runs: number;
  /** Median wall time from the call to the task returned, ms. */
  readonly taskMs: number;
  /** Median time from the turn's result saved to tasks/get answering it, polling every 25 ms. */
  readonly resultFastMs: number;
  /** The same, polling at the task's pollIntervalMs. */
  readonly resultHostMs: number;
  readonly pollIntervalMs: number;
}

const IDLE_MS = 1_000;

export async function mcpTaskBench(world: World, runs: number, warmup: number): Promise<McpTaskResult> {
  const { client } = await RawClient.open({
    command: process.execPath,
    args: [SCV, "mcp"],
    cwd: world.project,
    env: world.slowEnv,
  });
  const turns = join(world.slowEnv.SCV_HOME ?? "", "turns");
  const saved = new Map<string, number>();
  const watcher = watch(turns, (_event, name) => {
    const job = name?.toString().match(/^(.+)\.done\.json$/)?.[1];
    if (job !== undefined && !saved.has(job)) saved.set(job, performance.now());
  });
  const times = { task: [] as number[], fast: [] as number[], host: [] as number[] };
  let pollIntervalMs = 0;
  try {
    for (let round = 0; round < warmup + runs * 2; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
      const calledAt = performance.now();
      const task = await client.request("tools/call", {
        name: "delegate",
        arguments: { agent: "claude", prompt: "hi" },
      });
      const taskMs = performance.now() - calledAt;
      if (task.resultType !== "task") throw new Error(`no task: ${JSON.stringify(task)}`);
      const taskId = task.taskId as string;
      pollIntervalMs = task.pollIntervalMs as number;
      const host = round % 2 === 1;
      let done: number | undefined;
      while (done === undefined) {
        await new Promise((resolve) => setTimeout(resolve, host ? pollIntervalMs : 25));
        const got = await client.request("tasks/get", { taskId });
        if (got.status === "completed") done = performance.now();
        else if (got.status !== "working") throw new Error(`task ${taskId}: ${JSON.stringify(got)}`);
      }
      const end = saved.get(taskId);
      if (end === undefined) throw new Error(`never saw ${taskId}'s result saved`);
      if (round < warmup) continue;
      times.task.push(taskMs);
      (host ? times.host : times.fast).push(done - end);
    }
  } finally {
    watcher.close();
    await client.close();
  }
  return {
    runs,
    taskMs: median(times.task),
    resultFastMs: median(times.fast),
    resultHostMs: median(times.host),
    pollIntervalMs,
  };
}
