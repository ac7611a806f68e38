// The tools `scv mcp` offers, as data: each one's name, the description a model reads to decide when
// and how to call it, and its input schema (zod, which the server validates calls with and lists as
// JSON Schema). docs/mcp.md is generated from this table (`npm run docs`; a test checks it).

import * as z from "zod/mini";
import { toJSONSchema } from "zod/v4";
import { AGENT_NAMES, agentProducts, EXAMPLE_AGENTS } from "../adapters.js";
import { APPROVAL_ANSWERS, APPROVAL_PATTERN } from "../home/approvals.js";
import { MCP_SERVER_NAME } from "../home/config-schema.js";
import { HANDLE_PATTERN } from "../home/conversations.js";
import { JOB_PATTERN } from "../home/turn-files.js";

/** Hosts cut a tool call at 60 s by default (some rows' `mcpHost.timeout` say so): a wait
 * ends early enough to answer within that. */
export const MAX_WAIT_SECONDS = 55;
export const DEFAULT_WAIT_SECONDS = 45;
export const DEFAULT_CONVERSATIONS = 20;

/** The agents and handles the descriptions give as examples: rows of the table. */
const [A, B] = EXAMPLE_AGENTS;
const HANDLE = `${A}-k3f9x2`;
const JOB = `${HANDLE}.a1b2c3d4`;

const job = () =>
  z.string({ error: `the job a delegate call returned, like ${JOB}` }).check(
    z.regex(JOB_PATTERN, {
      error: `give the job a delegate call returned, like ${JOB}`,
    }),
    z.describe(
      `the job a delegate call returned (like ${JOB}: its conversation's handle, a dot, 8 characters)`,
    ),
  );

const waitSeconds = () =>
  z.optional(
    z
      .number({ error: "a number of seconds" })
      .check(
        z.gte(0, { error: "give 0 to 55 seconds" }),
        z.lte(MAX_WAIT_SECONDS, { error: `at most ${MAX_WAIT_SECONDS} (hosts cut a call at 60 s)` }),
        z.describe(
          `how long to wait for the reply before returning the job instead (default ${DEFAULT_WAIT_SECONDS}, at most ${MAX_WAIT_SECONDS}; 0 returns at once)`,
        ),
      ),
  );

const agentName = () =>
  z
    .string({ error: `an agent's name, like ${A}` })
    .check(
      z.minLength(1, { error: `name an agent, like ${A}` }),
      z.maxLength(200, { error: "too long for an agent name" }),
    );

const reviewers = (what: string) =>
  z.optional(
    z
      .union([agentName(), z.array(agentName()).check(z.maxLength(8, { error: "at most 8 reviewers" }))], {
        error: `an agent's name (${EXAMPLE_AGENTS[0]}), a list of them, or auto`,
      })
      .check(z.describe(what)),
  );

const focus = () =>
  z.optional(
    z
      .string()
      .check(
        z.minLength(1, { error: "say what to look at" }),
        z.describe("what the reviewers should look at"),
      ),
  );

const delegateInput = z.strictObject({
  agent: z.optional(
    z
      .union(
        [
          agentName(),
          z
            .array(agentName())
            .check(
              z.minLength(1, { error: "name at least one agent" }),
              z.maxLength(16, { error: "at most 16 agents at once" }),
            ),
        ],
        { error: `an agent's name (${A}) or a list of names` },
      )
      .check(
        z.describe(
          `who does the work: an agent's name (${AGENT_NAMES.join(", ")}, or one defined in scv's config; the agents tool lists them all), optionally with a model and effort as agent:model/effort (${A}:gpt-5.5/high, ${B}:opus, ${B}/high) and the user's accounts to use in order as @account,… (${A}@work, ${B}:opus@work,personal: a rate-limited account passes the turn, fresh, to the next); a list asks each agent the same prompt, each in its own conversation. Leave it out when continuing a conversation.`,
        ),
      ),
  ),
  prompt: z
    .string({ error: "the task for the agent, as text" })
    .check(
      z.minLength(1, { error: "write the task for the agent" }),
      z.describe(
        "the task, written as to a colleague: the agent sees only this prompt (and the conversation so far) and the project's files",
      ),
    ),
  conversation: z.optional(
    z
      .string()
      .check(
        z.regex(HANDLE_PATTERN, { error: `give a conversation handle, like ${HANDLE}` }),
        z.describe(
          `continue this scv conversation (a handle from an earlier result, like ${HANDLE}): the agent, folder, model and effort of its first turn, with the history of its earlier turns; model, effort and policy given here apply to this turn only`,
        ),
      ),
  ),
  cwd: z.optional(
    z
      .string()
      .check(
        z.minLength(1, { error: "give a folder" }),
        z.describe(
          "the project folder the agent works in: absolute, or relative to where scv mcp runs (the default)",
        ),
      ),
  ),
  model: z.optional(
    z
      .string()
      .check(
        z.minLength(1, { error: "give a model name" }),
        z.describe("the model, in the agent's own naming (the agents tool shows what its names look like)"),
      ),
  ),
  effort: z.optional(
    z
      .string()
      .check(
        z.minLength(1, { error: "give an effort level" }),
        z.describe("reasoning effort, one of the agent's levels (the agents tool lists them)"),
      ),
  ),
  policy: z.optional(
    z
      .enum(["auto", "default"], { error: "auto or default" })
      .check(
        z.describe(
          "auto: the agent edits files and runs commands without asking (its full-autonomy mode); default: the agent CLI's own defaults, where what would need approval is refused — or, for an agent run over ACP, stops the job until you answer it with approve",
        ),
      ),
  ),
  mcp: z.optional(
    z
      .array(z.string().check(z.regex(MCP_SERVER_NAME, { error: "a server's name, like docs" })))
      .check(
        z.describe(
          "MCP servers declared in scv's config ([mcp_servers.<name>]) the agent gets for this turn; an empty list for none. Left out: the agent's default from the config, else none",
        ),
      ),
  ),
  worktree: z.optional(
    z
      .boolean({ error: "true or false" })
      .check(
        z.describe(
          "true: each new conversation works in a git worktree of its own (a new branch scv/<handle> from HEAD of the repository containing cwd), so agents given the same task never edit the same files; the result names the branch, the commit of what the turn changed and its diffstat, and the user reviews it with scv diff <handle> and takes it with scv apply <handle>. A continued conversation keeps working in its worktree",
        ),
      ),
  ),
  check: z.optional(
    z
      .string()
      .check(
        z.minLength(1, { error: "give a command, like npm test" }),
        z.describe(
          "with worktree: a shell command run in the worktree after the turn (like npm test); the result's check says pass or fail, its exit code, time and last lines",
        ),
      ),
  ),
  review_by: reviewers(
    `review the agent's changes before the result counts: reviewers written as agents are (${EXAMPLE_AGENTS[0]}, ${EXAMPLE_AGENTS[1]}/high, ${EXAMPLE_AGENTS[0]}@work), or auto (up to two signed-in agents of model families other than the author's). One agent only. The result carries each round's verdict and findings`,
  ),
  rounds: z.optional(
    z
      .int({ error: "a whole number" })
      .check(
        z.gte(1, { error: "at least 1" }),
        z.lte(10, { error: "at most 10" }),
        z.describe(
          "with review_by: how many reviews at most; while the reviewers request changes, their findings go back to the agent's conversation and its changes are reviewed again (default 1)",
        ),
      ),
  ),
  focus: focus(),
  wait_seconds: waitSeconds(),
});

const reviewInput = z.strictObject({
  reviewers: reviewers(
    `who reviews: agents written as for delegate (${EXAMPLE_AGENTS[0]}, ${EXAMPLE_AGENTS[1]}/high, ${EXAMPLE_AGENTS[0]}@work), or auto; left out: the config's review_by, else auto (up to two signed-in agents of model families other than the author's)`,
  ),
  base: z.optional(
    z
      .string()
      .check(
        z.minLength(1, { error: "give a ref" }),
        z.describe("review the branch's changes since its merge base with this ref (like main)"),
      ),
  ),
  staged: z.optional(z.boolean().check(z.describe("review the staged changes"))),
  commit: z.optional(
    z.string().check(z.minLength(1, { error: "give a commit" }), z.describe("review one commit")),
  ),
  job: z.optional(
    z
      .string()
      .check(
        z.minLength(1, { error: "give a job or handle" }),
        z.describe(
          "review what a delegated turn changed: its job or conversation (its worktree branch where it has one, else the files it touched)",
        ),
      ),
  ),
  focus: focus(),
  author: z.optional(
    agentName().check(z.describe("whose work it is (agent[:model]): auto leaves its model family out")),
  ),
  cwd: z.optional(
    z
      .string()
      .check(
        z.minLength(1, { error: "give a folder" }),
        z.describe("the repository: absolute, or relative to where scv mcp runs (the default)"),
      ),
  ),
  wait_seconds: waitSeconds(),
});

const waitInput = z.strictObject({
  job: job(),
  wait_seconds: waitSeconds(),
  offset: z.optional(
    z
      .int({ error: "a whole number of characters" })
      .check(
        z.gte(0, { error: "0 or more" }),
        z.describe(
          "for a reply that came in parts: where the next part starts, as the earlier part's note says",
        ),
      ),
  ),
});

const cancelInput = z.strictObject({ job: job() });

const approveInput = z.strictObject({
  job: job(),
  approval: z
    .string({ error: "the approval id the job's result named" })
    .check(
      z.regex(APPROVAL_PATTERN, { error: "give the approval id the job's result named (8 characters)" }),
      z.describe(
        "the id of the question being answered, as the needs-approval result named it: an answer counts only for the question it was given for",
      ),
    ),
  answer: z
    .enum(APPROVAL_ANSWERS, { error: "once, always or reject" })
    .check(
      z.describe(
        "once: allow this one call; always: allow this tool for the rest of the agent's session (where it offers that); reject: refuse it, and the agent goes on without it",
      ),
    ),
  wait_seconds: waitSeconds(),
});

const statusInput = z.strictObject({
  job: z.optional(job()),
});

const agentsInput = z.strictObject({
  agent: z.optional(
    agentName().check(z.describe("only this agent (faster: the others' sign-in is not checked)")),
  ),
});

const conversationsInput = z.strictObject({
  agent: z.optional(agentName().check(z.describe("only this agent's conversations"))),
  limit: z.optional(
    z
      .int({ error: "a whole number" })
      .check(
        z.gte(1, { error: "at least 1" }),
        z.lte(200, { error: "at most 200" }),
        z.describe(`how many, newest first (default ${DEFAULT_CONVERSATIONS})`),
      ),
  ),
});

export type DelegateInput = z.infer<typeof delegateInput>;
export type ReviewInput = z.infer<typeof reviewInput>;
export type WaitInput = z.infer<typeof waitInput>;
export type CancelInput = z.infer<typeof cancelInput>;
export type StatusInput = z.infer<typeof statusInput>;
export type ApproveInput = z.infer<typeof approveInput>;
export type AgentsInput = z.infer<typeof agentsInput>;
export type ConversationsInput = z.infer<typeof conversationsInput>;

export interface ToolDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly input: z.ZodMiniObject;
  /** Changes nothing (the host may call it without asking). */
  readonly readOnly: boolean;
  /** The host may run a call as a task (MCP tasks: returned at once, its result fetched later): the
   * tool's durable work is scv jobs (tasks.ts). */
  readonly taskSupport?: "optional";
}

export const TOOLS = [
  {
    name: "delegate",
    title: "Delegate to a coding agent",
    description: `Hand a task to another coding agent (${agentProducts().join(", ")}) and get its reply. The agent runs in its own CLI, headless, in the project folder, signed in as scv set it up. This call waits up to wait_seconds (default ${DEFAULT_WAIT_SECONDS}); a turn that takes longer keeps running and the result names its job: call wait with it. Every result names the conversation: pass it as conversation to continue where the agent left off.`,
    input: delegateInput,
    readOnly: false,
    taskSupport: "optional",
  },
  {
    name: "review",
    title: "Review changes with other agents",
    description: `Have other coding agents review changes, read-only: by default the working tree's against HEAD; base, staged, commit or job say otherwise. Each reviewer replies with findings (severity, file, line, title, body) and a verdict; the result is one merged report, the verdict first (approve, request-changes or comment). Waits up to wait_seconds (default ${DEFAULT_WAIT_SECONDS}); a longer review returns its job: call wait with it.`,
    input: reviewInput,
    readOnly: false,
    taskSupport: "optional",
  },
  {
    name: "wait",
    title: "Wait for a delegated turn",
    description: `Wait for a job that delegate started and return the agent's reply. Waits up to wait_seconds (default ${DEFAULT_WAIT_SECONDS}); if the agent is still working, the result says so: call wait again. A reply too long for one result comes in parts, each saying the offset of the next.`,
    input: waitInput,
    readOnly: false,
  },
  {
    name: "cancel",
    title: "Stop a delegated turn",
    description:
      "Stop a running job: its agent and every process it started end, and the result has what the agent had said so far. The conversation stays and can be continued.",
    input: cancelInput,
    readOnly: false,
  },
  {
    name: "approve",
    title: "Answer an agent's permission question",
    description: `Answer a job that needs approval: under policy default, an agent asking to run a tool stops its job, and delegate, wait and status say what it asks, which answers it offers and the approval id. Answer with the job, that id and once, always or reject; the agent goes on, and this call then waits for the job as wait does (up to wait_seconds, default ${DEFAULT_WAIT_SECONDS}). The job's own time limit keeps running while it waits, and cancel still stops it.`,
    input: approveInput,
    readOnly: false,
  },
  {
    name: "status",
    title: "Running agent turns",
    description:
      "The agent turns running now (jobs from delegate, and turns started from a shell): agent, how long, the tool it is running. With job: that job's state, or its result once finished (the result stays until wait reads it).",
    input: statusInput,
    readOnly: true,
  },
  {
    name: "agents",
    title: "Agents scv can delegate to",
    description:
      "Which coding agents scv can delegate to: installed or not (and how to install), version, signed in or not (never a secret), effort levels and what model names look like, and the user's accounts of each agent (signed in? cooling down after a limit until when?) to name in delegate as agent@account. Use it to choose an agent or account, or when delegate says one is not installed, not signed in or rate limited.",
    input: agentsInput,
    readOnly: true,
  },
  {
    name: "conversations",
    title: "Recent conversations",
    description:
      "Recent scv conversations, newest first: handle, agent, turns, folder, model, last prompt. Pass a handle as conversation to delegate to continue one.",
    input: conversationsInput,
    readOnly: true,
  },
] as const satisfies readonly ToolDefinition[];

export type ToolName = (typeof TOOLS)[number]["name"];

/** A tool's input schema as JSON Schema, as `tools/list` shows it. Classic zod's converter (in the
 * bundle, the copy the MCP SDK brings: scripts/build.mjs) reads mini's schemas as well. */
export function inputJsonSchema(tool: ToolDefinition): Record<string, unknown> {
  return toJSONSchema(tool.input, { io: "input" }) as Record<string, unknown>;
}
