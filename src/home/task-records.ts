// An MCP task of `scv mcp` (a task-augmented tool call: returned at once, its result fetched later) as
// one 0600 file beside its jobs, `turns/<task id>.task.json`, so that the task outlives the server that
// created it: a new `scv mcp` (the host restarted) answers for it from here. The task id is the task's
// first job, so `scv ps`, `scv wait` and `scv kill` see it under the same name. What the task's jobs
// did stays in their own files (`<job>.done.json`) until the task's result is read; the record then
// keeps that result, a while, for a host that asks again.

import * as z from "zod/mini";
import { lazy } from "../lazy.js";
import { writeAtomicSync } from "./atomic.js";
import { readJsonFile } from "./json-file.js";
import type { Env } from "./paths.js";
import { removeIfPresent } from "./remove.js";
import { jobFile, taskIds } from "./turn-files.js";
import { ensureTurnsDir } from "./turn-records.js";

const taskRecordSchema = lazy(() =>
  z.object({
    version: z.literal(1),
    taskId: z.string(),
    /** The tool called (its task support makes the jobs and the answer: mcp/tasks.ts). */
    tool: z.string(),
    /** Every job the call started, the task id first. */
    jobs: z.array(z.string()),
    /** What the tool keeps to make its answer from (delegate: the turns as started). */
    data: z.unknown(),
    createdAt: z.string(),
    /** From creation; null for no limit. */
    ttlMs: z.nullable(z.number()),
    pollIntervalMs: z.number(),
    /** The protocol version the host negotiated: the task's wire shape. */
    protocol: z.enum(["2025-11-25", "2026-07-28"]),
    /** The host that asked (its clientInfo) and the folder its server ran in: `tasks/list` lists a
     * host's own tasks. */
    host: z.object({ name: z.string(), version: z.optional(z.string()) }),
    cwd: z.string(),
    cancelledAt: z.optional(z.string()),
    /** The result as the host was given it, and when. */
    delivered: z.optional(
      z.object({
        at: z.string(),
        result: z.record(z.string(), z.unknown()),
        isError: z.boolean(),
      }),
    ),
  }),
);

export type TaskRecord = z.infer<ReturnType<typeof taskRecordSchema>>;

export function readTask(taskId: string, env: Env): TaskRecord | undefined {
  const record = readJsonFile(jobFile(taskId, "task", env), taskRecordSchema());
  return record?.taskId === taskId ? record : undefined;
}

/** Writes the record whole (0600), replacing an earlier one. */
export function writeTask(record: TaskRecord, env: Env): void {
  ensureTurnsDir(env);
  writeAtomicSync(jobFile(record.taskId, "task", env), `${JSON.stringify(record)}\n`, { fsync: false });
}

export function removeTask(taskId: string, env: Env): void {
  removeIfPresent(jobFile(taskId, "task", env));
}

/** Every task recorded, oldest first. */
export function allTasks(env: Env): TaskRecord[] {
  return taskIds(env)
    .flatMap((id) => {
      const record = readTask(id, env);
      return record === undefined ? [] : [record];
    })
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.taskId.localeCompare(b.taskId));
}
