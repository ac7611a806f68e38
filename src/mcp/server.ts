// `scv mcp`: an MCP server on stdio (the official SDK's server) whose tools delegate turns to other
// agents, wait for them, stop them and list them. stdout carries only the protocol; scv's own lines go
// to stderr. A tool never crashes the server: every failure is a tool result marked as an error.

import {
  type CallToolResult,
  INVALID_REQUEST,
  McpServer,
  type ServerContext,
  type StandardSchemaWithJSON,
} from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import type * as z from "zod/mini";
import type { CliIo } from "../cli/io.js";
import { asFileError, EXIT, ScvError } from "../errors.js";
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
import { errorOutcome, type ToolOutcome, toolResult } from "./replies.js";
import { inputJsonSchema, TOOLS, type ToolDefinition, type ToolName } from "./tools.js";

const INSTRUCTIONS =
  "scv hands tasks to other coding agents' own CLIs (Codex, Claude Code, Gemini CLI, Qwen Code, OpenCode, Copilot CLI, …) and brings their replies back. Call delegate with an agent and a prompt; a long turn returns a job to wait for; a job that needs approval is answered with approve. The agents tool says which agents are installed and signed in.";

type InputOf<N extends ToolName> = z.infer<Extract<(typeof TOOLS)[number], { name: N }>["input"]>;

const HANDLERS: {
  readonly [N in ToolName]: (input: InputOf<N>, context: CallContext) => Promise<ToolOutcome>;
} = {
  delegate: delegateTool,
  wait: waitTool,
  cancel: cancelTool,
  approve: approveTool,
  status: statusTool,
  agents: agentsTool,
  conversations: conversationsTool,
};

/** Runs the server until the host closes its stdin. */
export async function mcpServeCommand(io: CliIo): Promise<number> {
  const server = new McpServer({ name: "scv", version: VERSION }, { instructions: INSTRUCTIONS });
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
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: standardSchema(tool),
        annotations: { readOnlyHint: tool.readOnly, destructiveHint: false, openWorldHint: true },
      },
      (input: unknown, ctx: ServerContext) => call(io, tool.name, input, ctx, spare),
    );
  }
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
  });
  server.server.onerror = (error) => io.stderr.write(`scv mcp: ${error.message}\n`);
  const requests = boundedLines(io.stdin, (line) => refuseOversized(io, line));
  // Every line it is given is within the bound already.
  await server.connect(
    new StdioServerTransport(requests, io.stdout, { maxBufferSize: 4 * MAX_REQUEST_BYTES }),
  );
  io.stderr.write(`scv mcp ${VERSION}: serving ${TOOLS.length} tools on stdio\n`);
  try {
    await closed;
  } finally {
    spare.release();
  }
  return EXIT.ok;
}

async function call(
  io: CliIo,
  name: ToolName,
  input: unknown,
  ctx: ServerContext,
  spare: SpareRunner,
): Promise<CallToolResult> {
  const token = ctx.mcpReq._meta?.progressToken;
  const startedAt = Date.now();
  let step = 0;
  const context: CallContext = {
    env: io.env,
    cwd: io.cwd,
    signal: ctx.mcpReq.signal,
    progressMs: timing("progressInterval"),
    spare,
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
  let outcome: ToolOutcome;
  try {
    // The SDK has validated `input` with this tool's own schema.
    const handler = HANDLERS[name] as (input: unknown, context: CallContext) => Promise<ToolOutcome>;
    outcome = await handler(input, context);
  } catch (thrown) {
    const error = asFileError(thrown);
    if (!(error instanceof ScvError)) {
      io.stderr.write(
        `scv mcp: ${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
    }
    outcome = errorOutcome(error);
  }
  return toolResult(outcome);
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

/** The SDK takes a Standard Schema that also converts itself to JSON Schema; zod's mini build
 * validates but leaves the conversion out, so it is added here (the SDK would warn and convert it
 * itself otherwise). */
function standardSchema(tool: ToolDefinition): StandardSchemaWithJSON<unknown, never> {
  const schema = tool.input as z.ZodMiniObject;
  const json = () => inputJsonSchema(tool);
  return {
    "~standard": {
      ...(schema["~standard"] as StandardSchemaWithJSON<unknown, never>["~standard"]),
      jsonSchema: { input: json, output: json },
    },
  };
}
