// `scv mcp`: an MCP server on stdio (the official SDK's server) whose tools delegate turns to other
// agents, wait for them, stop them and list them. stdout carries only the protocol; scv's own lines go
// to stderr. A tool never crashes the server: every failure is a tool result marked as an error.

import {
  type CallToolRequest,
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  INVALID_REQUEST,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  type ProtocolEra,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { StdioServerTransport, serveStdio } from "@modelcontextprotocol/server/stdio";
import type * as z from "zod/mini";
import { agentProducts } from "../adapters.js";
import { asFileError, EXIT, ScvError } from "../errors.js";
import { giveAnswer, questionText } from "../home/approvals.js";
import type { CliIo } from "../io.js";
import { backgroundCommand, backgroundEnv, scvScript } from "../jobs/launch.js";
import { createSpareRunner, type SpareRunner } from "../jobs/spare.js";
import { timing } from "../timing.js";
import { VERSION } from "../version.js";
import { boundedLines, MAX_REQUEST_BYTES, type OversizedLine } from "./bounded-stdin.js";
import { agentsTool, conversationsTool } from "./info-tools.js";
import {
  approveTool,
  type CallContext,
  cancelTool,
  delegateTool,
  statusTool,
  waitTool,
} from "./job-tools.js";
import {
  approvalForm,
  hostAsksPerson,
  PERSON_ANSWER_MS,
  PendingCalls,
  personAnswer,
} from "./person-questions.js";
import { errorOutcome, type ToolOutcome, toolResult } from "./replies.js";
import { reviewTool } from "./review-tools.js";
import { followTaskV1, serveTasksV1, serveTasksV2, type TaskMethodsContext } from "./task-methods.js";
import { TASK_WORKS } from "./task-tools.js";
import { createdTask, declaresTasks, envelopeValue, TASKS_EXTENSION } from "./task-wire.js";
import { createTask, sweepTasks } from "./tasks.js";
import { inputJsonSchema, TOOLS, type ToolDefinition, type ToolName } from "./tools.js";

const INSTRUCTIONS = `scv hands tasks to other coding agents' own CLIs (${agentProducts().join(", ")}) and brings their replies back. Call delegate with an agent and a prompt; a long turn returns a job to wait for (or, for a host that runs tool calls as tasks, a task whose result comes when it ends); a job that needs approval is answered with approve, unless the host asks its user. The agents tool says which agents are installed and signed in.`;

type InputOf<N extends ToolName> = z.infer<Extract<(typeof TOOLS)[number], { name: N }>["input"]>;

const HANDLERS: {
  readonly [N in ToolName]: (input: InputOf<N>, context: CallContext) => Promise<ToolOutcome>;
} = {
  delegate: delegateTool,
  review: reviewTool,
  wait: waitTool,
  cancel: cancelTool,
  approve: approveTool,
  status: statusTool,
  agents: agentsTool,
  conversations: conversationsTool,
};

/** What every connection of this server shares. */
interface Shared {
  readonly io: CliIo;
  readonly spare: SpareRunner;
  /** Calls waiting for their person's answer to a question they raised (elicitation). */
  readonly pending: PendingCalls;
  /** Aborted when the host closes the connection. */
  readonly closed: AbortSignal;
}

/** Runs the server until the host closes its stdin. */
export async function mcpServeCommand(io: CliIo): Promise<number> {
  // A detached scv loaded ahead of the first delegate call, and after each (jobs/spare.ts).
  const command = backgroundCommand();
  const spare = createSpareRunner({
    env: io.env,
    cwd: io.cwd,
    command: command.file,
    args: command.args,
    spawnEnv: backgroundEnv(io.env),
    code: scvScript(),
  });
  const closing = new AbortController();
  const shared: Shared = { io, spare, pending: new PendingCalls(), closed: closing.signal };
  const requests = boundedLines(io.stdin, (line) => refuseOversized(io, line));
  const ended = new Promise<void>((resolve) => {
    requests.once("end", resolve);
    requests.once("close", resolve);
  });
  // The SDK's stdio entry serves both protocol versions: a host that opens with server/discover gets
  // 2026-07-28, one that opens with initialize the 2025 one. Every line it is given is within the
  // bound already.
  const connection = serveStdio(({ era }) => scvServer(shared, era), {
    transport: new StdioServerTransport(requests, io.stdout, { maxBufferSize: 4 * MAX_REQUEST_BYTES }),
    onerror: (error) => io.stderr.write(`scv mcp: ${error.message}\n`),
  });
  io.stderr.write(`scv mcp ${VERSION}: serving ${TOOLS.length} tools on stdio\n`);
  // Tasks whose time is up go (their results with them), whoever created them.
  await sweepTasks(io.env).catch(() => {});
  try {
    await ended;
    closing.abort();
    await connection.close();
  } finally {
    spare.release();
  }
  return EXIT.ok;
}

/** The server for one connection, on the protocol version the host opened with. */
function scvServer(shared: Shared, era: ProtocolEra): Server {
  const { io } = shared;
  const modern = era === "modern";
  const server = new Server(
    { name: "scv", version: VERSION },
    {
      instructions: INSTRUCTIONS,
      // A 2025 host is asked a question by the SDK pushing the form; a person takes their time, and
      // an agent may ask many times in one turn.
      inputRequired: { maxRounds: 64, roundTimeoutMs: PERSON_ANSWER_MS },
      // Each version's task vocabulary: the 2025-11-25 `tasks` capability, the 2026-07-28 extension.
      capabilities: modern
        ? { tools: {}, extensions: { [TASKS_EXTENSION]: {} } }
        : { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
    },
  );
  const tasks: TaskMethodsContext = { env: io.env, cwd: io.cwd, works: TASK_WORKS };
  server.setRequestHandler("tools/list", () => ({ tools: TOOLS.map(listedTool) }));
  server.setRequestHandler("tools/call", (request, ctx) => callTool(server, shared, tasks, request, ctx));
  if (modern) serveTasksV2(server, tasks);
  else serveTasksV1(server, tasks);
  server.onerror = (error) => io.stderr.write(`scv mcp: ${error.message}\n`);
  return server;
}

/** A tool as `tools/list` shows it; one that may run as a task says so (the 2026-07-28 wire drops
 * `execution`: there the server decides per call). */
function listedTool(tool: ToolDefinition) {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inputJsonSchema(tool) as { type: "object" },
    annotations: { readOnlyHint: tool.readOnly, destructiveHint: false, openWorldHint: true },
    ...(tool.taskSupport === undefined ? {} : { execution: { taskSupport: tool.taskSupport } }),
  };
}

async function callTool(
  server: Server,
  shared: Shared,
  tasks: TaskMethodsContext,
  request: CallToolRequest,
  ctx: ServerContext,
): Promise<CallToolResult | InputRequiredResult> {
  const name = request.params.name;
  const tool = TOOLS.find((each) => each.name === name);
  if (tool === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${name} not found`);
  const parsed = (tool.input as z.ZodMiniObject).safeParse(request.params.arguments ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((issue) => (issue.path.length === 0 ? issue.message : `${issue.path.join(".")}: ${issue.message}`))
      .join(", ");
    return {
      content: [
        { type: "text", text: `Input validation error: Invalid arguments for tool ${name}: ${issues}` },
      ],
      isError: true,
    };
  }
  const requestCapabilities = envelopeValue(ctx, CLIENT_CAPABILITIES_META_KEY);
  const context = callContext(shared, ctx, resumed(shared, name, ctx));
  const work = TASK_WORKS.get(name);
  const ttl = taskAsked(server, tool, request, requestCapabilities);
  if (work !== undefined && ttl !== undefined && context.resume === undefined) {
    const created = await run(shared.io, name, () =>
      createTask(work, name, parsed.data, context, {
        ttlMs: ttl ?? undefined,
        protocol: server.getNegotiatedProtocolVersion() === "2026-07-28" ? "2026-07-28" : "2025-11-25",
        host: hostOf(server, ctx),
      }),
    );
    if ("task" in created) {
      const message = `started ${created.task.jobs.join(", ")}`;
      const shapes = createdTask(created.task, message);
      if (created.task.protocol === "2025-11-25") {
        followTaskV1(server, tasks, created.task.taskId, shared.closed);
        return shapes.v1;
      }
      return shapes.v2 as unknown as CallToolResult;
    }
    if ("answer" in created)
      return server.projectCallToolResult(toolResult(created.answer.outcome), undefined);
    return server.projectCallToolResult(toolResult(created), undefined);
  }
  const handler = HANDLERS[name as ToolName] as (
    input: unknown,
    context: CallContext,
  ) => Promise<ToolOutcome>;
  const outcome = await run(shared.io, name, () => handler(parsed.data, context));
  // A job waits for a permission question: a host that can ask its person is given the question, and
  // makes the call again with the answer (the SDK pushes it as elicitation/create to a 2025 host).
  const ask = outcome.ask;
  if (ask !== undefined && hostAsksPerson(requestCapabilities, server.getClientCapabilities())) {
    const token = shared.pending.put({ tool: name, ...ask });
    return inputRequired({
      inputRequests: {
        [ask.approval.id]: { method: "elicitation/create", params: approvalForm(ask.job, ask.approval) },
      },
      requestState: token,
    });
  }
  return server.projectCallToolResult(toolResult(outcome), undefined);
}

/** Runs a tool's work; a failure is its result, never the server's end. */
async function run<T>(io: CliIo, name: string, work: () => Promise<T>): Promise<T | ToolOutcome> {
  try {
    return await work();
  } catch (thrown) {
    const error = asFileError(thrown);
    if (!(error instanceof ScvError)) {
      io.stderr.write(
        `scv mcp: ${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
    }
    return errorOutcome(error);
  }
}

/** The call made again with the person's answer to the question an earlier round raised: the answer
 * given to the job, and what that round left to go on with. */
function resumed(shared: Shared, tool: string, ctx: ServerContext): unknown {
  const token = ctx.mcpReq.requestState();
  if (typeof token !== "string") return undefined;
  const pending = shared.pending.take(token);
  if (pending === undefined || pending.tool !== tool) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      "this question is no longer open (answered already, or scv mcp restarted) — call status or wait for the job",
    );
  }
  const answer = personAnswer(
    inputResponse(ctx.mcpReq.inputResponses, pending.approval.id),
    pending.approval,
  );
  giveAnswer(pending.job, pending.approval.id, answer, shared.io.env);
  shared.io.stderr.write(
    `scv mcp: ${answer === "reject" ? "rejected" : `allowed ${answer}`}: ${questionText(pending.approval)}\n`,
  );
  return pending.resume;
}

/** The time to live a host asks of a call it wants run as a task (null: scv's default), or undefined
 * when it wants the result in the call: the 2025-11-25 `task` parameter, or the 2026-07-28 extension
 * declared on the request (the server then decides: a task). */
function taskAsked(
  server: Server,
  tool: ToolDefinition,
  request: CallToolRequest,
  requestCapabilities: unknown,
): number | null | undefined {
  if (tool.taskSupport === undefined) return undefined;
  if (server.getNegotiatedProtocolVersion() === "2026-07-28") {
    return declaresTasks(requestCapabilities) ? null : undefined;
  }
  const task = (request.params as { task?: { ttl?: unknown } }).task;
  if (task === undefined || typeof task !== "object" || task === null) return undefined;
  return typeof task.ttl === "number" ? task.ttl : null;
}

/** The host, as it named itself. */
function hostOf(server: Server, ctx: ServerContext): { name: string; version?: string } {
  const info = (envelopeValue(ctx, CLIENT_INFO_META_KEY) ?? server.getClientVersion()) as
    | { name?: unknown; version?: unknown }
    | undefined;
  return {
    name: typeof info?.name === "string" ? info.name : "",
    ...(typeof info?.version === "string" ? { version: info.version } : {}),
  };
}

function callContext(shared: Shared, ctx: ServerContext, resume: unknown): CallContext {
  const token = ctx.mcpReq._meta?.progressToken;
  const startedAt = Date.now();
  let step = 0;
  return {
    env: shared.io.env,
    cwd: shared.io.cwd,
    signal: ctx.mcpReq.signal,
    progressMs: timing("progressInterval"),
    spare: shared.spare,
    ...(resume === undefined ? {} : { resume }),
    progress:
      token === undefined
        ? undefined
        : (message) => {
            // Each notification's progress grows (the protocol requires it): seconds waited, and a step.
            step += 1;
            const progress = Math.floor((Date.now() - startedAt) / 1000) + step / 1000;
            ctx.mcpReq
              .notify({
                method: "notifications/progress",
                params: { progressToken: token, progress, message },
              })
              .catch(() => {});
          },
  };
}

/** A message over the bound, answered as an invalid request (its id read from its ends) so the host's
 * call ends, and said on stderr. */
function refuseOversized(io: CliIo, line: OversizedLine): void {
  const size = `${(line.bytes / 2 ** 20).toFixed(1)} MiB`;
  const message = `this request is ${size}, over the ${MAX_REQUEST_BYTES / 2 ** 20} MiB scv mcp reads — put the material in a file in the project and name the file in the prompt`;
  io.stderr.write(
    `scv mcp: dropped a message of ${size}${line.id === null ? " (no id found in it, so nothing answered)" : ` (request ${JSON.stringify(line.id)}, answered with an error)`}\n`,
  );
  if (line.id === null) return;
  const error = { jsonrpc: "2.0", id: line.id, error: { code: INVALID_REQUEST, message } };
  io.stdout.write(`${JSON.stringify(error)}\n`);
}
