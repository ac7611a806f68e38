// The task methods `scv mcp` answers, on the protocol version the host negotiated. The SDK serves
// neither version's tasks (its 2.x has no task runtime), so they are handlers over its low-level
// server, with the task's life in tasks.ts and its shapes in task-wire.ts:
//
//   2025-11-25  tasks/get, tasks/result (waits for the end; puts the task's permission questions to
//               the person meanwhile, where the host can ask), tasks/list (this host's tasks, from
//               this folder), tasks/cancel; notifications/tasks/status while this server runs
//   2026-07-28  tasks/get (the result, or the questions as inputRequests), tasks/update (the person's
//               answers), tasks/cancel — for a host that declares the extension on the request

import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  inputResponse,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import * as z from "zod/mini";
import type { Env } from "../home/paths.js";
import type { TaskRecord } from "../home/task-records.js";
import { waitForJobs } from "./jobs.js";
import { approvalForm, hostAsksPerson, PERSON_ANSWER_MS, personAnswer } from "./person-questions.js";
import {
  declaresTasks,
  detailedTaskV2,
  envelopeValue,
  isTerminalV1,
  RELATED_TASK,
  statusV1,
  TASKS_EXTENSION,
  taskV1,
} from "./task-wire.js";
import {
  answerQuestion,
  cancelTask,
  deliver,
  hostTasks,
  knownTask,
  sweepTasks,
  type TaskNow,
  type TaskWorks,
  taskNow,
} from "./tasks.js";

export interface TaskMethodsContext {
  readonly env: Env;
  readonly cwd: string;
  readonly works: TaskWorks;
}

const taskParams = z.looseObject({ taskId: z.string() });
const listParams = z.looseObject({ cursor: z.optional(z.string()) });

/** How many tasks one tasks/list page holds. */
const PAGE = 50;

/** The 2025-11-25 task methods. */
export function serveTasksV1(server: Server, context: TaskMethodsContext): void {
  const { env, works } = context;
  const now = async (taskId: string): Promise<{ record: TaskRecord; now: TaskNow }> => {
    await sweepTasks(env);
    const record = knownTask(taskId, env);
    return { record, now: await taskNow(record, works, env) };
  };
  server.setRequestHandler("tasks/get", { params: taskParams }, async ({ taskId }) => {
    const { record, now: state } = await now(taskId);
    return taskV1(record, state);
  });
  server.setRequestHandler("tasks/result", { params: taskParams }, async ({ taskId }, ctx) =>
    taskResultV1(server, context, taskId, ctx),
  );
  server.setRequestHandler("tasks/list", { params: listParams }, async ({ cursor }) => {
    await sweepTasks(env);
    const host = server.getClientVersion()?.name ?? "";
    const records = hostTasks(host, context.cwd, env);
    const start = cursor === undefined ? 0 : Number.parseInt(cursor, 10);
    if (!Number.isInteger(start) || start < 0 || start > records.length) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor ${JSON.stringify(cursor)}`);
    }
    const page = records.slice(start, start + PAGE);
    const tasks = await Promise.all(
      page.map(async (record) => taskV1(record, await taskNow(record, works, env))),
    );
    const next = start + PAGE < records.length ? { nextCursor: String(start + PAGE) } : {};
    return { tasks, ...next };
  });
  server.setRequestHandler("tasks/cancel", { params: taskParams }, async ({ taskId }) => {
    const { record, now: state } = await now(taskId);
    const status = statusV1(state, record);
    if (isTerminalV1(status)) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Cannot cancel task: already in terminal status '${status}'`,
      );
    }
    const cancelled = await cancelTask(record, env);
    return taskV1(cancelled, await taskNow(cancelled, works, env));
  });
}

/** `tasks/result`: the call's result once the task ends, exactly what the blocking call returns;
 * meanwhile the task's permission questions go to the person, where the host can ask. */
async function taskResultV1(
  server: Server,
  context: TaskMethodsContext,
  taskId: string,
  ctx: ServerContext,
): Promise<CallToolResult> {
  const { env, works } = context;
  const asked = new Set<string>();
  for (;;) {
    const record = knownTask(taskId, env);
    const state = await taskNow(record, works, env);
    if (state.kind === "finished") {
      deliver(record, state, env);
      return { ...state.result, _meta: { ...state.result._meta, [RELATED_TASK]: { taskId } } };
    }
    if (state.kind === "lost") throw new ProtocolError(ProtocolErrorCode.InternalError, state.message);
    if (state.kind === "input_required" && hostAsksPerson(undefined, server.getClientCapabilities())) {
      const fresh = state.questions.filter(({ approval }) => !asked.has(approval.id));
      for (const { job, approval } of fresh) {
        asked.add(approval.id);
        const form = { ...approvalForm(job, approval), _meta: { [RELATED_TASK]: { taskId } } };
        const response = await ctx.mcpReq
          .elicitInput(form, { timeout: PERSON_ANSWER_MS, signal: ctx.mcpReq.signal })
          .catch(() => undefined);
        const view =
          response === undefined
            ? ({ kind: "missing" } as const)
            : inputResponse({ answer: response }, "answer");
        answerQuestion(record, job, approval.id, personAnswer(view, approval), env);
      }
      if (fresh.length > 0) continue;
    }
    ctx.mcpReq.signal.throwIfAborted();
    // Wakes when a job ends or asks; a question already asked is waited out.
    const waiting = state.kind === "input_required" ? [] : record.jobs;
    await waitForJobs(waiting, {
      env,
      deadline: Date.now() + record.pollIntervalMs,
      signal: ctx.mcpReq.signal,
      progressMs: record.pollIntervalMs,
    });
    if (waiting.length === 0) await new Promise((resolve) => setTimeout(resolve, record.pollIntervalMs));
  }
}

/** Refuses a 2026-07-28 task request from a host that did not declare the extension on it. */
function requireExtension(ctx: ServerContext): void {
  if (!declaresTasks(envelopeValue(ctx, CLIENT_CAPABILITIES_META_KEY))) {
    throw new MissingRequiredClientCapabilityError({
      requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } as ClientCapabilities,
    });
  }
}

/** The 2026-07-28 extension's task methods. */
export function serveTasksV2(server: Server, context: TaskMethodsContext): void {
  const { env, works } = context;
  server.setRequestHandler("tasks/get", { params: taskParams }, async ({ taskId }, ctx) => {
    requireExtension(ctx);
    await sweepTasks(env);
    const record = knownTask(taskId, env);
    const state = await taskNow(record, works, env);
    // A completed task's result is read with it.
    if (state.kind === "finished" && !state.cancelled) deliver(record, state, env);
    return detailedTaskV2(record, state);
  });
  server.setRequestHandler("tasks/update", { params: taskParams }, async ({ taskId }, ctx) => {
    requireExtension(ctx);
    const record = knownTask(taskId, env);
    const state = await taskNow(record, works, env);
    // Answers to questions no longer asked (or never) are ignored, as the extension says.
    if (state.kind === "input_required") {
      for (const { job, approval } of state.questions) {
        const view = inputResponse(ctx.mcpReq.inputResponses, approval.id);
        if (view.kind === "missing") continue;
        answerQuestion(record, job, approval.id, personAnswer(view, approval), env);
      }
    }
    return {};
  });
  server.setRequestHandler("tasks/cancel", { params: taskParams }, async ({ taskId }, ctx) => {
    requireExtension(ctx);
    const record = knownTask(taskId, env);
    if (record.cancelledAt === undefined && record.delivered === undefined) await cancelTask(record, env);
    return {};
  });
}

/** Tells a 2025-11-25 host each change of a task's status while this server runs (the host must not
 * rely on it, and polls as well), until the task ends or the connection does. */
export function followTaskV1(
  server: Server,
  context: TaskMethodsContext,
  taskId: string,
  closed: AbortSignal,
): void {
  let last = "working";
  const look = async (): Promise<void> => {
    if (closed.aborted) return;
    const record = knownTaskOrNone(taskId, context.env);
    if (record === undefined) return;
    const task = taskV1(record, await taskNow(record, context.works, context.env));
    if (task.status !== last) {
      last = task.status;
      await server
        .notification({ method: "notifications/tasks/status", params: task } as never)
        .catch(() => {});
    }
    if (!isTerminalV1(task.status)) setTimeout(() => void look(), record.pollIntervalMs).unref();
  };
  setTimeout(() => void look(), 250).unref();
}

function knownTaskOrNone(taskId: string, env: Env): TaskRecord | undefined {
  try {
    return knownTask(taskId, env);
  } catch {
    return undefined;
  }
}
