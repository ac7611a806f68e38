// MCP tasks and elicitation through `scv mcp` (the built scv, fake agents): on the 2026-07-28
// extension (its JSON-RPC written out, the SDK's client having no task runtime) and on the 2025-11-25
// spec's tasks (the SDK's own client, task methods by explicit schema). Every task message is checked
// against the official @modelcontextprotocol/ext-tasks schemas. A task-augmented delegate on a slow
// agent returns at once and its id is the scv job; tasks/get goes working → completed; the result is
// the blocking call's; tasks/cancel leaves no process; a server started later still answers; an
// approval shows as input_required (or an elicitation) and the person's answer reaches the ACP agent.

import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import {
  CallToolResultV1Schema,
  CreateTaskResultV1Schema,
  GetTaskResultV1Schema,
  ListTasksResultV1Schema,
} from "@modelcontextprotocol/ext-tasks/core/v1";
import { CreateTaskResultV2Schema, DetailedTaskV2Schema } from "@modelcontextprotocol/ext-tasks/core/v2";
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { useLab } from "../helpers/lab.js";
import { RawClient, TASKS } from "../helpers/mcp-raw.js";
import { killAll, survivors } from "../helpers/pids.js";
import { agentPids, SCV, scv, type World } from "../helpers/scv.js";

type ElicitAnswer = {
  readonly action: "accept" | "decline" | "cancel";
  readonly content?: Record<string, string>;
  readonly [key: string]: unknown;
};

const ACP_AGENT = pathToFileURL(join(import.meta.dirname, "..", "fake-agents", "acp-agent.mjs")).href;
const JOB = /^gemini-[0-9a-z]{6}\.[0-9a-z]{8}$/;

let world: World;
const closers: (() => Promise<void>)[] = [];
const lab = useLab((created) => {
  world = created;
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close().catch(() => {});
  killAll(acpPids());
});

async function raw(env: Record<string, string> = {}, capabilities?: Record<string, unknown>) {
  const { client, discovered } = await RawClient.open({
    command: process.execPath,
    args: [SCV, "mcp"],
    cwd: world.project,
    env: { ...world.env, ...env },
    ...(capabilities === undefined ? {} : { capabilities }),
  });
  closers.push(() => client.close());
  return { client, discovered };
}

async function sdk(
  env: Record<string, string> = {},
  options: { pin?: string; elicit?: (params: Record<string, unknown>) => ElicitAnswer } = {},
): Promise<Client> {
  const client = new Client(
    { name: "scv-test", version: "1.0.0" },
    {
      ...(options.elicit === undefined ? {} : { capabilities: { elicitation: { form: {} } } }),
      ...(options.pin === undefined ? {} : { versionNegotiation: { mode: { pin: options.pin } } }),
    },
  );
  if (options.elicit !== undefined) {
    const elicit = options.elicit;
    client.setRequestHandler("elicitation/create", async (request) =>
      elicit(request.params as Record<string, unknown>),
    );
  }
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [SCV, "mcp"],
      cwd: world.project,
      env: { ...world.env, ...env },
      stderr: "pipe",
    }),
  );
  closers.push(() => client.close());
  return client;
}

/** Gemini as the fake ACP agent, cold, under policy default: a prompt with "tool" asks to run one. */
function acpGemini(): void {
  writeFileSync(
    join(world.bin, "gemini"),
    `#!${process.execPath}
const { appendFileSync } = require("node:fs");
appendFileSync(process.env.FAKE_AGENT_DIR + "/acp-calls.jsonl", JSON.stringify({ pid: process.pid }) + "\\n");
process.argv.splice(2, process.argv.length, "scripted");
import(${JSON.stringify(ACP_AGENT)});
`,
  );
  chmodSync(join(world.bin, "gemini"), 0o755);
  writeFileSync(
    join(world.root, "config.toml"),
    `[defaults]\nsession_idle = "0"\n\n[agents.gemini]\ntransport = "acp"\n`,
  );
  world.env.SCV_CONFIG = join(world.root, "config.toml");
}

/** Lets a fake agent in FAKE_AGENT_MODE gate end its turn (and any started after at once). */
function openGate(): void {
  writeFileSync(join(world.calls, "open"), "");
}

function acpPids(): number[] {
  try {
    return readFileSync(join(world.calls, "acp-calls.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { pid: number }).pid);
  } catch {
    return [];
  }
}

/** Polls tasks/get (2026-07-28) until `done` holds of the task. */
async function pollV2(
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
function normalized(result: unknown): unknown {
  const text = JSON.stringify(result)
    .replace(/gemini-[0-9a-z]{6}(\.[0-9a-z]{8})?/g, "<handle>")
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<session>")
    .replace(/"(duration|durationMs|startedAt|endedAt)":("[^"]*"|\d+)/g, '"$1":0')
    .replace(/\d+(\.\d+)?s\b/g, "<time>");
  return JSON.parse(text);
}

describe("scv mcp tasks, 2026-07-28 (io.modelcontextprotocol/tasks)", () => {
  it("declares the extension; delegate on a slow agent returns a task at once, named by its scv job; working → completed with the blocking call's result", async () => {
    const { client, discovered } = await raw({ FAKE_AGENT_MODE: "gate" });
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
    await lab.pidsOf();
    const ps = await scv(world, ["ps"]);
    expect(ps.stdout).toContain(task.taskId);
    const seen: string[] = [];
    const working = await pollV2(client, task.taskId, (each) => each.status === "working", seen);
    expect(working.statusMessage).toMatch(/^gemini \d+s/);
    openGate();
    const done = await pollV2(client, task.taskId, (each) => each.status !== "working", seen);
    expect(seen).toEqual(["working", "completed"]);
    expect(done.status).toBe("completed");
    const result = CallToolResultV1Schema.parse((done as { result: unknown }).result);
    // The same turn through the blocking call, from a host that does not declare the extension.
    const { client: plain } = await raw({ FAKE_AGENT_MODE: "gate" }, {});
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
    const { client } = await raw({ FAKE_AGENT_MODE: "hang" });
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
    const first = await raw({ FAKE_AGENT_MODE: "gate" });
    const task = CreateTaskResultV2Schema.parse(
      await first.client.request("tools/call", {
        name: "delegate",
        arguments: { agent: "gemini", prompt: "Outlive" },
      }),
    );
    await first.client.close();
    const { client } = await raw();
    expect((await pollV2(client, task.taskId, () => true)).status).toBe("working");
    openGate();
    const done = await pollV2(client, task.taskId, (each) => each.status !== "working");
    expect(done.status).toBe("completed");
    expect(JSON.stringify(done)).toContain("MOCK-REPLY-1");
  });

  it("unknown task: -32602; a request without the extension: -32021; a host without it gets the blocking result", async () => {
    const { client } = await raw();
    await expect(client.request("tasks/get", { taskId: "gemini-abcdef.12345678" })).rejects.toMatchObject({
      code: -32602,
    });
    const { client: plain } = await raw({}, {});
    await expect(plain.request("tasks/get", { taskId: "gemini-abcdef.12345678" })).rejects.toMatchObject({
      code: -32021,
    });
  });

  it("an approval inside a task: input_required with the question as an elicitation; tasks/update's answer reaches the agent", async () => {
    acpGemini();
    const { client } = await raw();
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
    acpGemini();
    const { client } = await raw();
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
    acpGemini();
    const asked: Record<string, unknown>[] = [];
    const client = await sdk(
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

describe("scv mcp tasks, 2025-11-25", () => {
  it("declares tasks; delegate may run as a task; tasks/get, status notifications, tasks/result (the blocking call's result), tasks/list", async () => {
    const client = await sdk({ FAKE_AGENT_MODE: "gate" });
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
    openGate();
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
    const client = await sdk({ FAKE_AGENT_MODE: "hang" });
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

  it("an approval inside a task: input_required, then tasks/result puts it to the person; the answer reaches the agent", async () => {
    acpGemini();
    const asked: Record<string, unknown>[] = [];
    const client = await sdk(
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
    }
    expect(status).toBe("input_required");
    const result = await client.request({ method: "tasks/result", params: { taskId } }, z.looseObject({}));
    expect(asked).toHaveLength(1);
    expect(asked[0]?._meta).toEqual({ "io.modelcontextprotocol/related-task": { taskId } });
    expect(JSON.stringify(result)).toContain("ALLOWED proceed_once");
  });

  it("without tasks, a host with elicitation is asked during the blocking call; the approve tool stays for one without", async () => {
    acpGemini();
    const client = await sdk({}, { elicit: () => ({ action: "cancel" }) });
    const result = await client.callTool(
      { name: "delegate", arguments: { agent: "gemini", prompt: "use a tool", policy: "default" } },
      { timeout: 60_000 },
    );
    expect(JSON.stringify(result.structuredContent)).toContain("REJECTED");
  });
});
