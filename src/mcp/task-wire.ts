// A task as each protocol version carries it. The two are not wire-compatible: the 2025-11-25 spec's
// experimental tasks (`ttl`, `pollInterval`; a tool result with isError is a failed task; the result
// comes from `tasks/result`) and the 2026-07-28 extension `io.modelcontextprotocol/tasks` (`ttlMs`,
// `pollIntervalMs`; `resultType: "task"`; `tasks/get` carries the result, the questions the task waits
// on as `inputRequests`, a protocol failure as `error`). The shapes are the ones the official
// `@modelcontextprotocol/ext-tasks` package defines (its core/v1 and core/v2 schemas check them in the
// tests); the task's state is tasks.ts's, whatever the version.

import type { TaskV1 } from "@modelcontextprotocol/ext-tasks/core/v1";
import type { DetailedTaskV2, TaskV2 } from "@modelcontextprotocol/ext-tasks/core/v2";
import type { CallToolResult, ServerContext } from "@modelcontextprotocol/server";
import type { TaskRecord } from "../home/task-records.js";
import { approvalForm } from "./person-questions.js";
import type { TaskNow } from "./tasks.js";

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
export const RELATED_TASK = "io.modelcontextprotocol/related-task";
/** What a 2025-11-25 host may show its model at once while the task runs (the spec's provisional key). */
const IMMEDIATE_RESPONSE = "io.modelcontextprotocol/model-immediate-response";

type StatusV1 = TaskV1["status"];

/** A member of a 2026-07-28 request's `_meta` envelope (the host's capabilities, its name). */
export function envelopeValue(ctx: ServerContext, key: string): unknown {
  return (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[key];
}

/** Whether the request's own capabilities declare the tasks extension. */
export function declaresTasks(requestCapabilities: unknown): boolean {
  const extensions = (requestCapabilities as { extensions?: Record<string, unknown> } | undefined)
    ?.extensions;
  return extensions?.[TASKS_EXTENSION] !== undefined;
}

/** A 2025-11-25 task's status: a tool result marked isError is a failed task there. */
export function statusV1(now: TaskNow, record: TaskRecord): StatusV1 {
  if (record.cancelledAt !== undefined) return "cancelled";
  switch (now.kind) {
    case "working":
      return "working";
    case "input_required":
      return "input_required";
    case "finished":
      return now.cancelled ? "cancelled" : now.isError ? "failed" : "completed";
    case "lost":
      return "failed";
  }
}

export function isTerminalV1(status: StatusV1): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

export function taskV1(record: TaskRecord, now: TaskNow): TaskV1 {
  return {
    taskId: record.taskId,
    status: statusV1(now, record),
    statusMessage: now.message,
    createdAt: record.createdAt,
    lastUpdatedAt: new Date().toISOString(),
    ttl: record.ttlMs,
    pollInterval: record.pollIntervalMs,
  } as TaskV1;
}

/** A 2026-07-28 task as `tasks/get` returns it: the result once completed (a tool result with
 * isError too), the questions it waits on, a protocol failure. */
export function detailedTaskV2(record: TaskRecord, now: TaskNow): DetailedTaskV2 {
  const base = {
    taskId: record.taskId,
    statusMessage: now.message,
    createdAt: record.createdAt,
    lastUpdatedAt: new Date().toISOString(),
    ttlMs: record.ttlMs,
    pollIntervalMs: record.pollIntervalMs,
  };
  if (now.kind === "lost") {
    return { ...base, status: "failed", error: { code: -32603, message: now.message } } as DetailedTaskV2;
  }
  if (record.cancelledAt !== undefined || (now.kind === "finished" && now.cancelled)) {
    return { ...base, status: "cancelled" } as DetailedTaskV2;
  }
  if (now.kind === "finished") {
    return {
      ...base,
      status: "completed",
      result: now.result as unknown as Record<string, never>,
    } as DetailedTaskV2;
  }
  if (now.kind === "input_required") {
    const inputRequests = Object.fromEntries(
      now.questions.map(({ job, approval }) => [
        approval.id,
        { method: "elicitation/create", params: approvalForm(job, approval) },
      ]),
    );
    return { ...base, status: "input_required", inputRequests } as DetailedTaskV2;
  }
  return { ...base, status: "working" } as DetailedTaskV2;
}

/** The task as a tool call first returns it, on each version. */
export function createdTask(
  record: TaskRecord,
  message: string,
): { readonly v1: CallToolResult; readonly v2: Record<string, unknown> } {
  const working: TaskNow = { kind: "working", message };
  const v2: TaskV2 = { ...detailedTaskV2(record, working) } as TaskV2;
  return {
    // The SDK's tools/call check wants content beside a task; an empty list says nothing more.
    v1: {
      content: [],
      task: taskV1(record, working),
      _meta: {
        [IMMEDIATE_RESPONSE]: `${message}. It runs as task ${record.taskId} (an scv job: scv ps lists it); its result comes when it finishes.`,
      },
    } as CallToolResult,
    v2: { resultType: "task", ...v2 },
  };
}
