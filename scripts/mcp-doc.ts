// Renders docs/mcp.md from the MCP server's tool table (src/mcp/tools.ts) and its host table
// (each row's mcpHost, src/table/), so the documented tools, schemas and host commands can never drift from the code.

import { MAX_REQUEST_BYTES } from "../src/mcp/bounded-stdin.js";
import { ARGS, COMMAND, ENV, type HostAppRow, NAME, shippedHostApps } from "../src/mcp/host-apps.js";
import { SHOWN_BYTES } from "../src/mcp/shown-size.js";
import { DEFAULT_TTL_MS, MAX_TTL_MS, MIN_TTL_MS, POLL_INTERVAL_MS, READ_KEPT_MS } from "../src/mcp/tasks.js";
import { inputJsonSchema, MAX_WAIT_SECONDS, TOOLS, type ToolDefinition } from "../src/mcp/tools.js";
import { DURATIONS } from "../src/timing.js";

interface JsonSchema {
  type?: string;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  items?: JsonSchema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

function typeOf(schema: JsonSchema): string {
  if (schema.anyOf !== undefined) return schema.anyOf.map(typeOf).join(" or ");
  if (schema.enum !== undefined)
    return schema.enum.map((value) => `\`${JSON.stringify(value)}\``).join(" or ");
  if (schema.type === "array" && schema.items !== undefined) {
    const count = schema.maxItems === undefined ? "" : `, ${schema.minItems ?? 0}–${schema.maxItems}`;
    return `array of ${typeOf(schema.items)}${count}`;
  }
  const bounds: string[] = [];
  if (schema.minimum !== undefined && schema.maximum !== undefined && schema.maximum < 2 ** 53 - 1)
    bounds.push(`${schema.minimum}–${schema.maximum}`);
  else if (schema.minimum !== undefined) bounds.push(`≥ ${schema.minimum}`);
  if (schema.pattern !== undefined) bounds.push(`\`${schema.pattern}\``);
  return `${schema.type ?? "any"}${bounds.length === 0 ? "" : ` (${bounds.join(", ")})`}`;
}

function cell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}

function toolSection(tool: ToolDefinition): string {
  const schema = inputJsonSchema(tool) as JsonSchema;
  const required = new Set(schema.required ?? []);
  const rows = Object.entries(schema.properties ?? {}).map(
    ([name, property]) =>
      `| \`${name}\` | ${cell(typeOf(property))} | ${required.has(name) ? "yes" : "no"} | ${cell(property.description ?? "")} |`,
  );
  return [
    `## \`${tool.name}\` — ${tool.title}`,
    "",
    tool.description,
    "",
    `${tool.readOnly ? "Read-only" : "Starts, reads or stops turns"}; unknown arguments are refused.${tool.taskSupport === undefined ? "" : ' A host may run it as a task (below, "Tasks").'}`,
    "",
    "| argument | type | required | what it is |",
    "| --- | --- | --- | --- |",
    ...rows,
    "",
    "```json",
    JSON.stringify(schema, null, 2),
    "```",
    "",
  ].join("\n");
}

function shown(args: readonly string[], envFlag = "", shownBytes?: number): string {
  const always = shownBytes === undefined ? [] : [envFlag, `SCV_MCP_SHOWN_BYTES=${shownBytes}`];
  return args
    .flatMap((part) => {
      if (part === ARGS) return ["mcp"];
      if (part === ENV) return [...always, `[${envFlag} SCV_HOME=… ${envFlag} SCV_CONFIG=…]`];
      return [part.replace(NAME, "scv").replace(COMMAND, "<scv>")];
    })
    .join(" ");
}

function hostAppRow({ entry, registration }: HostAppRow): string {
  const host = entry.name;
  const how =
    registration.kind === "command"
      ? `\`${entry.command} ${shown(registration.add, registration.envFlag, registration.shownBytes)}\` (after \`${entry.command} ${shown(registration.remove)}\`)`
      : `\`${registration.path.map((part) => part.replace(NAME, "scv")).join(".")}\` in the first of ${registration.files.map((file) => `\`${file}\``).join(", ")} in ${registration.dir.variable === undefined ? "" : `\`$${registration.dir.variable}\` or `}\`~/${registration.dir.fallback}\`${registration.dir.sub === undefined ? "" : `/${registration.dir.sub}`}: \`${JSON.stringify(registration.entry).replace(`"${COMMAND}","${ARGS}"`, '"<scv>","mcp"')}\`${registration.shownBytes === undefined ? "" : `, with \`SCV_MCP_SHOWN_BYTES\` = ${registration.shownBytes} in its \`${registration.envKey}\``}`;
  const timeout = registration.timeout;
  const limit =
    timeout.kind === "toml-key"
      ? `sets \`${timeout.key} = ${timeout.value}\` in \`[${timeout.table.map((part) => part.replace(NAME, "scv")).join(".")}]\` of \`${timeout.dir.variable === undefined ? "" : `$${timeout.dir.variable}/`}${timeout.file}\` (default \`~/${timeout.dir.fallback}/${timeout.file}\`)`
      : timeout.kind === "json-key"
        ? `sets \`${timeout.path.map((part) => part.replace(NAME, "scv")).join(".")}\` to ${timeout.value} in \`${timeout.dir.variable === undefined ? "" : `$${timeout.dir.variable}/`}${timeout.file}\` (default \`~/${timeout.dir.fallback}/${timeout.file}\`)`
        : timeout.why;
  return `| \`${host}\` | \`scv mcp install ${host}\` | ${cell(how)} | ${cell(limit)} |`;
}

/** `45 000` */
function bytes(count: number): string {
  return count.toLocaleString("en-US").replaceAll(",", " ");
}

export function renderMcpDoc(): string {
  return [
    "# scv mcp",
    "",
    "<!-- Generated from src/mcp/tools.ts and the rows' mcpHost (src/table/) by `npm run docs`; a test fails when this file is stale. -->",
    "",
    "`scv mcp` is an MCP server on stdio. Its tools start other agents' turns as scv's background turns",
    "(so `scv ps`, `scv wait` and `scv kill` see them, and they outlive the server), wait for them, stop",
    "them and list them. Each turn is a job, `<conversation>.<8 characters>` (`codex-k3f9x2.a1b2c3d4`),",
    "whose result is kept until it is read, whatever other turns of its conversation do. A turn of a",
    "conversation another turn holds waits 2 s for it, then is refused as busy, naming that job.",
    "",
    "Every call answers in two forms, text and `structuredContent`, and a host shows its model one of",
    "them: Claude Code and Codex show the structured content (as compact JSON; Claude Code the text of a",
    "tool error), other hosts the text. So both say the same, and each leads with what the model needs:",
    "the reply, then `next`, one sentence with the step to take (the call to make, with its arguments).",
    "",
    "- a finished turn: as text its reply, then `[To continue this conversation, call delegate with",
    '  conversation codex-k3f9x2.]`; as structured content `{"reply", "next", …}` followed by the rest of',
    "  the object `scv delegate --json` prints (`turnResultSchema`, [output.md](output.md)). A turn that",
    "  failed is a tool error (`isError`) whose text starts with one line in the command line's classes,",
    "  `codex failed (exit 4, not signed in): … — run: scv agents login codex`, and whose structured",
    '  content starts `{"error", "hint", "fallbacks", "reply", "next", …}`;',
    '- a turn still running when the wait ends: `{"status": "running", "next", "job", "conversation"}`,',
    "  `next` (and the text) saying what it is doing and to call `wait` with the job;",
    "- a job that needs approval (an agent run over ACP under policy `default` asked to run a tool): at",
    '  once, `{"status": "needs-approval", "next", "job", "conversation", "approval": {"id", "agent",',
    '  "tool", "summary", "answers", "askedAt"}}` — `answers` are those the agent offers, of `once`,',
    "  `always` and `reject`, and `next` tells the model to call `approve` with the job, the id and an",
    "  answer. The turn waits, its own time limit running, until `approve` answers that id (then the call",
    "  waits for the job as `wait` does), `cancel` or `scv kill` stops it, or the limit ends it; a turn",
    "  stopped so says in its notes that the agent's request went unanswered and did not run. An answer",
    "  for a question no longer pending is refused and answers nothing, saying what became of it",
    "  (answered already, the agent stopped asking, the job finished) or that the job never asked it. A",
    "  job waiting so shows in `status` and `scv ps` as `needs approval`, and `scv wait` says so on",
    "  stderr. The question and its answer pass through 0600 files beside the job's result,",
    "  `$SCV_HOME/turns/<job>.ask.json` and `<job>.answer.json`, gone once it is answered, and",
    "  `<job>.questions.json`, the ids it asked and what became of each, gone with the turn. An agent run as a",
    "  per-turn process cannot ask: what would need approval is refused, as on the command line;",
    '- several agents (`agent` as a list): `{"results": [...]}`, one of the above per agent in the order',
    "  given, the text under `=== agent (handle) ===` headers;",
    "- a refused call (unknown agent or job, a conversation busy, a config to fix): a tool error, one",
    "  line ending with the command line's exit code and class, `(exit 2, usage error)`, and",
    '  `{"error", "exitCode"}`; arguments the schema refuses get its message.',
    "",
    `A call waits at most ${MAX_WAIT_SECONDS} s (hosts cut tool calls at 60 s by default). While it waits, a`,
    `client that sent a progress token gets \`notifications/progress\` every ${DURATIONS.progressInterval / 1000} s: the seconds waited and`,
    "the agent's current tool (`codex 35s — $ npm test`).",
    "",
    `Results are bounded by what hosts show: each form of one result, the structured content as JSON`,
    `included, is at most ${bytes(SHOWN_BYTES)} bytes of UTF-8. Claude Code 2.1.332 keeps a tool result of up to`,
    "50 000 characters in its model's context and saves a longer one to a file, showing the model a",
    "2 KB preview; Codex 0.171.0 shows about 48 000 bytes (10 000 tokens for the models it knows) and",
    "cuts the middle out of a longer one. A host that passes `MAX_MCP_OUTPUT_TOKENS` to the server",
    "lowers the bound to 2 bytes a token, and `SCV_MCP_SHOWN_BYTES` in the server's environment to that",
    "many bytes: `scv mcp install` registers it for a host that shows less (pi 1.6.0 cuts the middle out",
    "of a text over 20 KiB; the hosts' table below). A fan-out's agents share the bound. A longer reply comes in parts:",
    "each part's `next` gives the `offset` to pass to `wait` for the rest, and the result stays in",
    "`$SCV_HOME/turns/` (where `scv wait <job>` reads it whole) until the last part is read.",
    "",
    `A message from the host over ${MAX_REQUEST_BYTES / 2 ** 20} MiB (a prompt that large) is not read: it is answered with a`,
    "JSON-RPC error (`-32600`, invalid request) saying to put the material in a file, found by the id at",
    "either end of the message, and the server goes on serving the calls in flight and the next ones.",
    "",
    "## Tasks",
    "",
    "A host that runs tool calls as MCP tasks gets `delegate` back at once as a task instead of a call",
    'that waits (`tools/list` marks it `execution.taskSupport: "optional"` on 2025-11-25; on',
    "2026-07-28 the server decides per call, and makes a task whenever the request declares the",
    "extension). The task is the scv job: its id is the job's (a fan-out's first job), so `scv ps`,",
    "`scv wait` and `scv kill` see it, and it outlives the server: a task is recorded beside its job",
    "(`$SCV_HOME/turns/<job>.task.json`, 0600), and any `scv mcp` — the host restarted — answers for it.",
    "Its result is exactly what the blocking call returns once the turn has ended: the same text and",
    "structured content, cut into parts the same way (the rest read with `wait` and `offset`).",
    "",
    "- **2026-07-28, the extension `io.modelcontextprotocol/tasks`** (declared in `server/discover`):",
    '  `tools/call` returns `{"resultType": "task", "taskId", "status": "working", …}`; `tasks/get`',
    "  answers `working` (`statusMessage`: the agent, the time so far and its current tool, `codex 35s —",
    "  $ npm test`), `input_required` with the permission questions the task waits on as `inputRequests`",
    "  (one `elicitation/create` form each, keyed by the approval id), `completed` with `result` (a",
    "  failed turn too: its result is a tool error), `cancelled`, or `failed` with `error` when the",
    "  result can no longer be made (a job's result was read elsewhere, by `scv wait`); `tasks/update`",
    "  gives the person's answers; `tasks/cancel` stops the turn as `scv kill` does. A request without",
    "  the extension gets `-32021`; an unknown task `-32602`. No status notifications: the extension",
    "  sends them only on a `subscriptions/listen` stream naming the tasks, which scv does not serve",
    "  (hosts poll; Claude Code does, at the interval asked).",
    "- **2025-11-25, experimental tasks** (the `tasks` capability: `list`, `cancel`,",
    '  `requests.tools.call`): `tools/call` with `task` returns `{"task": {…}}` (with the model\'s',
    "  immediate text in `_meta`); `tasks/get`; `tasks/result` waits for the end and returns the result",
    "  with `io.modelcontextprotocol/related-task`, putting the task's permission questions to the",
    "  person meanwhile (`elicitation/create`, tagged with the task) where the host declared",
    "  elicitation; `tasks/list` lists this host's tasks (by its name, from the same folder);",
    "  `tasks/cancel` stops the turn and answers `cancelled` (a finished task is refused, `-32602`);",
    "  `notifications/tasks/status` on each change while the server runs. A failed turn is a `failed`",
    "  task there, as that version says.",
    "",
    `Times: a task's time to live is ${DEFAULT_TTL_MS / 3_600_000} h from its creation unless a 2025-11-25 host asks for another (`,
    `kept within ${MIN_TTL_MS / 1000} s and ${MAX_TTL_MS / 86_400_000} days); hosts are asked to poll every ${POLL_INTERVAL_MS / 1000} s. A result is kept until the host has`,
    `read it (then ${READ_KEPT_MS / 60_000} more minutes, for a host that asks again) or the time to live passes (with the job's`,
    "unread result); a task whose turn still runs is kept until it ends. Task ids are the jobs' (a",
    "conversation's handle and 8 random characters): anyone who can run the server as you can read",
    "them in `$SCV_HOME` anyway.",
    "",
    "## Approvals asked of the person",
    "",
    "Where the host declared elicitation (form mode), a job's permission question (an agent run over",
    "ACP under policy `default`) goes to the person instead of the model: a form whose message says",
    "the agent, the tool and one line of what it would do, and whose one field offers the answers the",
    "agent does (`once`, `always`, `reject`). Inside a task, the version's route: `inputRequests` and",
    "`tasks/update` on 2026-07-28, an `elicitation/create` during `tasks/result` on 2025-11-25. In a",
    "blocking `delegate`, `wait` or `approve`, the call returns `input_required` with the form (2026-07-28;",
    "on 2025 the SDK sends it as `elicitation/create`), and, answered, goes on waiting for the job. Only",
    "an accepted form naming an offered answer allows anything: a declined or dismissed one rejects the",
    "request, and the turn's notes say it was rejected. A host without elicitation keeps `approve`.",
    "",
    "## Which hosts use them (checked)",
    "",
    "| host (version checked) | protocol it opens with | tasks | elicitation |",
    "| --- | --- | --- | --- |",
    "| Claude Code 2.1.332 | `server/discover`, 2026-07-28 | in its UI: the 2026-07-28 extension on every call, the task moved to the background at once and its result delivered to the model as a task notification (`<task-notification>` with the structured content); none with `-p` or with `CLAUDE_CODE_DISABLE_MCP_TASKS=1`, where calls block as before; no 2025-11-25 tasks (a server that answers only `initialize` gets none) | form and url, declared on every request, `-p` too: in its UI the form is shown to the person (MCP server \u201cscv\u201d requests your input), and the answer chosen there reaches the agent; with `-p` nobody can answer, the form comes back unanswered and the request is rejected — use policy `auto` there |",
    "| Codex 0.171.0 | `initialize`, 2025-06-18 | none (calls block as before) | form and url (declared; whether `codex exec` shows the form was not checked) |",
    "| Gemini CLI, Qwen Code, OpenCode, Copilot CLI (pinned) | not checked here | open requests upstream; none seen | not checked |",
    "",
    "Claude Code's model is told at once that the call became a background task (its id, and that the",
    "result comes as a notification), then, when the turn ends, the result as the structured content",
    "in a task notification; the test suite checks both in the model's requests (test/real/",
    "mcp-tasks-host.test.ts).",
    "",
    ...TOOLS.map(toolSection),
    "## Registering scv with a host",
    "",
    "`scv mcp install <host>` registers `<scv> mcp` (`<scv>`: the path scv runs from) in the host's user",
    "configuration, replacing an earlier registration; `scv mcp uninstall <host>` removes it; `--dry-run`",
    "prints what either would do. Agents scv delegates to run with HOME in their private homes and never",
    "see it; `--agent-home` registers it in scv's private home of that agent on purpose (nested",
    "delegation stays bounded by `max_depth`). Inside a delegated turn (HOME is a private home) install",
    "refuses without `--agent-home`. `SCV_HOME` and `SCV_CONFIG`, when set (for `--agent-home`: always),",
    "are registered in the server's environment (`environment` in OpenCode's entry): hosts pass few of",
    "their own variables on to a server (Codex: HOME, PATH and a handful).",
    "",
    "| host | command | what it does | tool-call time limit |",
    "| --- | --- | --- | --- |",
    ...shippedHostApps().map(hostAppRow),
    "",
  ].join("\n");
}
