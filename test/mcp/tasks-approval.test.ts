// An approval inside an MCP task, and without tasks, through `scv mcp` (the built scv, Gemini as the
// fake ACP agent asking to run a tool under policy default): on the 2026-07-28 extension it shows as
// input_required with the question as an elicitation and tasks/update's answer (or a decline) reaches
// the agent; on 2025-11-25, tasks/result puts it to the person; without tasks, a host with elicitation
// is asked during the blocking call. Task messages are checked against the official schemas.

import { CreateTaskResultV1Schema, GetTaskResultV1Schema } from "@modelcontextprotocol/ext-tasks/core/v1";
import { CreateTaskResultV2Schema } from "@modelcontextprotocol/ext-tasks/core/v2";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { connectMcp } from "../helpers/mcp-client.js";
import { acpGemini, pollV2, rawMcp, useTasksLab } from "../helpers/mcp-tasks.js";
import type { World } from "../helpers/scv.js";

let world: World;
useTasksLab((created) => {
  world = created;
});

describe("an approval in scv mcp tasks, 2026-07-28 (io.modelcontextprotocol/tasks)", () => {
  it("an approval inside a task: input_required with the question as an elicitation; tasks/update's answer reaches the agent", async () => {
    acpGemini(world);
    const { client } = await rawMcp(world);
    const task = CreateTaskResultV2Schema.parse(
      await client.request("tools/call", {
        name: "delegate",
        arguments: { agent: "gemini", prompt: "use a tool", policy: "default" },
      }),
    );
    const asking = await pollV2(client, task.taskId, (each) => each.status === "input_required");
    const requests = (asking as { inputRequests: Record<string, { method: string; params: unknown }> })
      .inputRequests;
    const [[key, request]] = Object.entries(requests) as [[string, { method: string; params: unknown }]];
    expect(request.method).toBe("elicitation/create");
    const params = request.params as {
      message: string;
      requestedSchema: { properties: { answer: { oneOf: { const: string }[] } } };
    };
    expect(params.message).toContain("gemini asks to run execute: $ touch probe.txt");
    expect(params.requestedSchema.properties.answer.oneOf.map((each) => each.const)).toEqual([
      "once",
      "always",
      "reject",
    ]);
    expect(asking.statusMessage).toContain(`approval ${key}`);
    await client.request("tasks/update", {
      taskId: task.taskId,
      inputResponses: { [key]: { action: "accept", content: { answer: "once" } } },
    });
    const done = await pollV2(client, task.taskId, (each) => each.status === "completed");
    expect(JSON.stringify(done)).toContain("ALLOWED proceed_once");
  });

  it("a declined elicitation rejects the request, with a note", async () => {
    acpGemini(world);
    const { client } = await rawMcp(world);
    const task = CreateTaskResultV2Schema.parse(
      await client.request("tools/call", {
        name: "delegate",
        arguments: { agent: "gemini", prompt: "use a tool", policy: "default" },
      }),
    );
    const asking = await pollV2(client, task.taskId, (each) => each.status === "input_required");
    const [key] = Object.keys((asking as { inputRequests: Record<string, unknown> }).inputRequests);
    await client.request("tasks/update", {
      taskId: task.taskId,
      inputResponses: { [key as string]: { action: "decline" } },
    });
    const done = await pollV2(client, task.taskId, (each) => each.status === "completed");
    const text = JSON.stringify(done);
    expect(text).toContain("REJECTED");
    expect(text).toContain("you rejected gemini's execute: $ touch probe.txt");
  });

  it("without tasks, an approval during a blocking delegate is an elicitation (input_required, then the call made again)", async () => {
    acpGemini(world);
    const asked: Record<string, unknown>[] = [];
    const client = await connectMcp(
      world,
      {},
      {
        pin: "2026-07-28",
        elicit: (params) => {
          asked.push(params);
          return { action: "accept", content: { answer: "always" } };
        },
      },
    );
    const result = await client.callTool(
      { name: "delegate", arguments: { agent: "gemini", prompt: "use a tool", policy: "default" } },
      { timeout: 60_000 },
    );
    expect(asked).toHaveLength(1);
    expect(asked[0]?.message).toContain("gemini asks to run execute: $ touch probe.txt");
    expect(JSON.stringify(result.structuredContent)).toContain("ALLOWED proceed_always");
  });
});

describe("an approval in scv mcp tasks, 2025-11-25", () => {
  it("an approval inside a task: input_required, then tasks/result puts it to the person; the answer reaches the agent", async () => {
    acpGemini(world);
    const asked: Record<string, unknown>[] = [];
    const client = await connectMcp(
      world,
      {},
      {
        elicit: (params) => {
          asked.push(params);
          return { action: "accept", content: { answer: "once" } };
        },
      },
    );
    const created = CreateTaskResultV1Schema.parse(
      await client.request(
        {
          method: "tools/call",
          params: {
            name: "delegate",
            arguments: { agent: "gemini", prompt: "use a tool", policy: "default" },
            task: {},
          },
        },
        CreateTaskResultV1Schema,
      ),
    );
    const taskId = created.task.taskId;
    const deadline = Date.now() + 30_000;
    let status = "working";
    while (status !== "input_required" && Date.now() < deadline) {
      status = GetTaskResultV1Schema.parse(
        await client.request({ method: "tasks/get", params: { taskId } }, GetTaskResultV1Schema),
      ).status;
      if (status !== "input_required") await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe("input_required");
    const result = await client.request({ method: "tasks/result", params: { taskId } }, z.looseObject({}));
    expect(asked).toHaveLength(1);
    expect(asked[0]?._meta).toEqual({ "io.modelcontextprotocol/related-task": { taskId } });
    expect(JSON.stringify(result)).toContain("ALLOWED proceed_once");
  });

  it("without tasks, a host with elicitation is asked during the blocking call; the approve tool stays for one without", async () => {
    acpGemini(world);
    const client = await connectMcp(world, {}, { elicit: () => ({ action: "cancel" }) });
    const result = await client.callTool(
      { name: "delegate", arguments: { agent: "gemini", prompt: "use a tool", policy: "default" } },
      { timeout: 60_000 },
    );
    expect(JSON.stringify(result.structuredContent)).toContain("REJECTED");
  });
});
