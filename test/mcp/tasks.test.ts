// MCP tasks through `scv mcp` (the built scv, fake agents): on the 2026-07-28 extension (its JSON-RPC
// written out, the SDK's client having no task runtime) and on the 2025-11-25 spec's tasks (the SDK's
// own client, task methods by explicit schema). Every task message is checked against the official
// @modelcontextprotocol/ext-tasks schemas. A task-augmented delegate on a slow agent returns at once
// and its id is the scv job; tasks/get goes working → completed; the result is the blocking call's;
// tasks/cancel leaves no process; a server started later still answers. An approval inside a task is
// tasks-approval.test.ts.

import {
  CallToolResultV1Schema,
  CreateTaskResultV1Schema,
  GetTaskResultV1Schema,
  ListTasksResultV1Schema,
} from "@modelcontextprotocol/ext-tasks/core/v1";
import { CreateTaskResultV2Schema } from "@modelcontextprotocol/ext-tasks/core/v2";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { connectMcp } from "../helpers/mcp-client.js";
import { TASKS } from "../helpers/mcp-raw.js";
import { JOB, normalized, pollV2, rawMcp, useTasksLab } from "../helpers/mcp-tasks.js";
import { survivors } from "../helpers/pids.js";
import { agentPids, openGate, scv, type World } from "../helpers/scv.js";

let world: World;
const leftovers = useTasksLab((created) => {
  world = created;
});

describe("scv mcp tasks, 2026-07-28 (io.modelcontextprotocol/tasks)", () => {
  it("declares the extension; delegate on a slow agent returns a task at once, named by its scv job; working → completed with the blocking call's result", async () => {
    const { client, discovered } = await rawMcp(world, { FAKE_AGENT_MODE: "gate" });
    expect(discovered.capabilities).toMatchObject({ extensions: { [TASKS]: {} } });
    const calledAt = Date.now();
    const created = await client.request("tools/call", {
      name: "delegate",
      arguments: { agent: "gemini", prompt: "Work slowly" },
    });
    const returnedMs = Date.now() - calledAt;
    const task = CreateTaskResultV2Schema.parse(created);
    expect(created.resultType).toBe("task");
    expect(task.status).toBe("working");
    expect(task.taskId).toMatch(JOB);
    expect(task.pollIntervalMs).toBeGreaterThan(0);
    expect(task.ttlMs).toBeGreaterThan(60_000);
    // The agent runs until the test opens its gate: the call did not wait for it.
    expect(returnedMs).toBeLessThan(2_500);
    leftovers.push(...(await agentPids(world)));
    const ps = await scv(world, ["ps"]);
    expect(ps.stdout).toContain(task.taskId);
    const seen: string[] = [];
    const working = await pollV2(client, task.taskId, (each) => each.status === "working", seen);
    expect(working.statusMessage).toMatch(/^gemini \d+s/);
    openGate(world);
    const done = await pollV2(client, task.taskId, (each) => each.status !== "working", seen);
    expect(seen).toEqual(["working", "completed"]);
    expect(done.status).toBe("completed");
    const result = CallToolResultV1Schema.parse((done as { result: unknown }).result);
    // The same turn through the blocking call, from a host that does not declare the extension.
    const { client: plain } = await rawMcp(world, { FAKE_AGENT_MODE: "gate" }, {});
    const direct = await plain.request("tools/call", {
      name: "delegate",
      arguments: { agent: "gemini", prompt: "Work slowly" },
    });
    expect(direct.resultType).toBe("complete");
    const { resultType: _type, _meta: _directMeta, ...directResult } = direct;
    const { _meta: _taskMeta, ...taskResult } = result as Record<string, unknown>;
    expect(normalized(directResult)).toEqual(normalized(taskResult));
    expect((result.structuredContent as { reply?: string }).reply).toBe("MOCK-REPLY-1");
    // Read, the job's result is gone from turns/ as the blocking call leaves it; the task answers
    // again a while for a host that asks twice.
    expect((await scv(world, ["wait", task.taskId])).exitCode).toBe(2);
    expect((await pollV2(client, task.taskId, () => true)).status).toBe("completed");
  });

  it("tasks/cancel stops the turn as scv kill does: no process left, the task cancelled", async () => {
    const { client } = await rawMcp(world, { FAKE_AGENT_MODE: "hang" });
    const task = CreateTaskResultV2Schema.parse(
      await client.request("tools/call", {
        name: "delegate",
        arguments: { agent: "gemini", prompt: "Hang" },
      }),
    );
    const pids = await agentPids(world);
    expect(await client.request("tasks/cancel", { taskId: task.taskId })).toMatchObject({
      resultType: "complete",
    });
    expect(await survivors(pids)).toEqual([]);
    expect((await pollV2(client, task.taskId, () => true)).status).toBe("cancelled");
    expect((await scv(world, ["ps"])).stdout).not.toContain(task.taskId);
  });

  it("a task outlives its server: a server started later answers tasks/get with the result", async () => {
    const first = await rawMcp(world, { FAKE_AGENT_MODE: "gate" });
    const task = CreateTaskResultV2Schema.parse(
      await first.client.request("tools/call", {
        name: "delegate",
        arguments: { agent: "gemini", prompt: "Outlive" },
      }),
    );
    await first.client.close();
    const { client } = await rawMcp(world);
    expect((await pollV2(client, task.taskId, () => true)).status).toBe("working");
    openGate(world);
    const done = await pollV2(client, task.taskId, (each) => each.status !== "working");
    expect(done.status).toBe("completed");
    expect(JSON.stringify(done)).toContain("MOCK-REPLY-1");
  });

  it("unknown task: -32602; a request without the extension: -32021; a host without it gets the blocking result", async () => {
    const { client } = await rawMcp(world);
    await expect(client.request("tasks/get", { taskId: "gemini-abcdef.12345678" })).rejects.toMatchObject({
      code: -32602,
    });
    const { client: plain } = await rawMcp(world, {}, {});
    await expect(plain.request("tasks/get", { taskId: "gemini-abcdef.12345678" })).rejects.toMatchObject({
      code: -32021,
    });
  });
});

describe("scv mcp tasks, 2025-11-25", () => {
  it("declares tasks; delegate may run as a task; tasks/get, status notifications, tasks/result (the blocking call's result), tasks/list", async () => {
    const client = await connectMcp(world, { FAKE_AGENT_MODE: "gate" });
    expect(client.getServerCapabilities()).toMatchObject({
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    });
    const tools = (await client.listTools()).tools;
    expect(tools.find((tool) => tool.name === "delegate")?.execution).toEqual({ taskSupport: "optional" });
    expect(tools.find((tool) => tool.name === "wait")?.execution).toBeUndefined();
    const statuses: string[] = [];
    client.fallbackNotificationHandler = async (notification) => {
      if (notification.method === "notifications/tasks/status")
        statuses.push((notification.params as { status: string }).status);
    };
    const calledAt = Date.now();
    const created = CreateTaskResultV1Schema.parse(
      await client.request(
        {
          method: "tools/call",
          params: {
            name: "delegate",
            arguments: { agent: "gemini", prompt: "Work" },
            task: { ttl: 120_000 },
          },
        },
        CreateTaskResultV1Schema,
      ),
    );
    expect(Date.now() - calledAt).toBeLessThan(2_000);
    const taskId = created.task.taskId;
    expect(taskId).toMatch(JOB);
    expect(created.task).toMatchObject({ status: "working", ttl: 120_000 });
    const got = GetTaskResultV1Schema.parse(
      await client.request({ method: "tasks/get", params: { taskId } }, GetTaskResultV1Schema),
    );
    expect(got.status).toBe("working");
    openGate(world);
    const result = await client.request(
      { method: "tasks/result", params: { taskId } },
      z.looseObject({ structuredContent: z.record(z.string(), z.unknown()) }),
    );
    expect(result.structuredContent.reply).toBe("MOCK-REPLY-1");
    expect((result._meta as Record<string, unknown>)["io.modelcontextprotocol/related-task"]).toEqual({
      taskId,
    });
    const blocking = await client.callTool({
      name: "delegate",
      arguments: { agent: "gemini", prompt: "Work" },
    });
    const { _meta: _m1, ...taskResult } = result;
    const { _meta: _m2, ...blockingResult } = blocking;
    expect(normalized(taskResult)).toEqual(normalized(blockingResult));
    const listed = ListTasksResultV1Schema.parse(
      await client.request({ method: "tasks/list", params: {} }, ListTasksResultV1Schema),
    );
    expect(listed.tasks.map((task) => [task.taskId, task.status])).toEqual([[taskId, "completed"]]);
    await expect(
      client.request({ method: "tasks/cancel", params: { taskId } }, GetTaskResultV1Schema),
    ).rejects.toThrow(/terminal status 'completed'/);
    const deadline = Date.now() + 5_000;
    while (!statuses.includes("completed") && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(statuses).toContain("completed");
  });

  it("tasks/cancel: cancelled at once, no process left", async () => {
    const client = await connectMcp(world, { FAKE_AGENT_MODE: "hang" });
    const created = CreateTaskResultV1Schema.parse(
      await client.request(
        {
          method: "tools/call",
          params: { name: "delegate", arguments: { agent: "gemini", prompt: "Hang" }, task: {} },
        },
        CreateTaskResultV1Schema,
      ),
    );
    const pids = await agentPids(world);
    const cancelled = GetTaskResultV1Schema.parse(
      await client.request(
        { method: "tasks/cancel", params: { taskId: created.task.taskId } },
        GetTaskResultV1Schema,
      ),
    );
    expect(cancelled.status).toBe("cancelled");
    expect(await survivors(pids)).toEqual([]);
  });
});
