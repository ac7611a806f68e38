// A task's life in $SCV_HOME, without a server: the time to live a host asks for is kept within
// bounds; a finished task's result is the tool's answer for its jobs, taken into the record when read
// (the job's own result dropped, as the blocking call drops what it read) and kept a while for a host
// that asks again; a task past its time to live goes with its jobs' unread results; one whose job
// still runs stays; a task whose job's result was read elsewhere is lost, not invented.

import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ScvError } from "../../src/errors.js";
import { readTask, type TaskRecord, writeTask } from "../../src/home/task-records.js";
import { jobFile } from "../../src/home/turn-files.js";
import { saveBackgroundResult } from "../../src/home/turn-records.js";
import { TASK_WORKS } from "../../src/mcp/task-tools.js";
import { detailedTaskV2, statusV1 } from "../../src/mcp/task-wire.js";
import {
  DEFAULT_TTL_MS,
  deliver,
  MAX_TTL_MS,
  MIN_TTL_MS,
  READ_KEPT_MS,
  sweepTasks,
  taskNow,
  taskTtl,
} from "../../src/mcp/tasks.js";
import { TOOLS, type ToolDefinition } from "../../src/mcp/tools.js";
import { failedResult } from "../../src/turn/outcome.js";

const JOB = "codex-k3f9x2.a1b2c3d4";
let root: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "scv-task-life-"));
  env = { SCV_HOME: join(root, "scv-home"), HOME: root };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function record(overrides: Partial<TaskRecord> = {}): TaskRecord {
  return {
    version: 1,
    taskId: JOB,
    tool: "delegate",
    jobs: [JOB],
    data: [{ kind: "started", job: JOB, conversation: "codex-k3f9x2", agent: "codex" }],
    createdAt: new Date().toISOString(),
    ttlMs: DEFAULT_TTL_MS,
    pollIntervalMs: 500,
    protocol: "2026-07-28",
    host: { name: "claude-code", version: "2.1.332" },
    cwd: root,
    ...overrides,
  };
}

/** The job's result, as its detached scv saves it: a failure, so the answer is a tool error. */
function finishJob(): void {
  const result = {
    ...failedResult(new ScvError("NOT_SIGNED_IN", "codex is not signed in"), "codex"),
    conversation: "codex-k3f9x2",
  };
  expect(saveBackgroundResult(JOB, result, new Date(), env)).toMatch(/^saved/);
}

describe("task support is a tool's own property", () => {
  it("every tool that declares it has its task work, and only those", () => {
    for (const tool of TOOLS) {
      expect(TASK_WORKS.has(tool.name), tool.name).toBe((tool as ToolDefinition).taskSupport !== undefined);
    }
  });
});

describe("a task's time to live", () => {
  it("is 24 h unless asked, and an asked one is kept within bounds", () => {
    expect(taskTtl(undefined)).toBe(DEFAULT_TTL_MS);
    expect(taskTtl(120_000)).toBe(120_000);
    expect(taskTtl(1)).toBe(MIN_TTL_MS);
    expect(taskTtl(Number.MAX_SAFE_INTEGER)).toBe(MAX_TTL_MS);
  });
});

describe("a finished task", () => {
  it("answers as the blocking call does; read, its job's result moves into the record, kept a while", async () => {
    writeTask(record(), env);
    finishJob();
    const now = await taskNow(record(), TASK_WORKS, env);
    expect(now.kind).toBe("finished");
    if (now.kind !== "finished") return;
    expect(now.isError).toBe(true);
    expect(JSON.stringify(now.result)).toContain(
      "codex failed (exit 4, not signed in): codex is not signed in",
    );
    // A failed turn: completed with its tool error on 2026-07-28, a failed task on 2025-11-25.
    expect(detailedTaskV2(record(), now)).toMatchObject({ status: "completed", result: now.result });
    expect(statusV1(now, record())).toBe("failed");
    deliver(record(), now, env);
    expect(existsSync(jobFile(JOB, "done", env))).toBe(false);
    const read = readTask(JOB, env);
    expect(read?.delivered?.result).toEqual(now.result);
    expect((await taskNow(read as TaskRecord, TASK_WORKS, env)).kind).toBe("finished");
    await sweepTasks(env);
    expect(readTask(JOB, env)).toBeDefined();
    await sweepTasks(env, Date.now() + READ_KEPT_MS + 1_000);
    expect(readTask(JOB, env)).toBeUndefined();
  });

  it("unread past its time to live: goes, with its job's result", async () => {
    const old = record({
      ttlMs: MIN_TTL_MS,
      createdAt: new Date(Date.now() - MIN_TTL_MS - 5_000).toISOString(),
    });
    writeTask(old, env);
    finishJob();
    await sweepTasks(env, Date.now() - 10_000);
    expect(readTask(JOB, env)).toBeDefined();
    await sweepTasks(env);
    expect(readTask(JOB, env)).toBeUndefined();
    expect(existsSync(jobFile(JOB, "done", env))).toBe(false);
  });

  it("whose job's result was read elsewhere is lost: a failed task saying why", async () => {
    writeTask(record(), env);
    const now = await taskNow(record(), TASK_WORKS, env);
    expect(now).toMatchObject({ kind: "lost" });
    expect(detailedTaskV2(record(), now)).toMatchObject({
      status: "failed",
      error: { code: -32603, message: expect.stringContaining(`the result of ${JOB} was read elsewhere`) },
    });
  });
});
