// Codex: `codex exec --json` (codex-rs/exec/src/exec_events.rs). The reply is the last
// `agent_message`; top-level `error` lines are mostly retry notices and only `turn.failed` is
// terminal; exit 0 without `turn.completed` is not a success. The `-o` file is the backstop.

import type { StringPlace } from "./elision.js";
import { byType, failedTurn, retryEvent } from "./event-builders.js";
import type { StreamParser, TurnEvent, Usage } from "./event-types.js";
import { classifyErrorText, retryKind } from "./failure.js";
import { createJsonLinesParser } from "./json-lines.js";
import { linesOfTypes } from "./reply-lines.js";
import * as s from "./shape.js";
import { isSummaryArgument, summarizeTool } from "./tool-summary.js";
import { type Summary, ToolTracker } from "./tool-tracker.js";
import { maybe, maybeNumber, maybeString, readAs } from "./wire.js";

const ThreadStarted = s.object({ type: s.literal("thread.started"), thread_id: s.string() });

/** The items scv reads, by what they are read for (exec_events.rs `ThreadItemDetails`). Every field
 * is optional, so any object passes; each line is checked only for the fields its type is read for
 * (one schema of all of them cost every line all of them). */
const TextItem = s.object({ text: maybeString });
const ErrorItem = s.object({ message: maybeString });
/** Every tool item, read on each of its lines. */
const ToolItem = s.object({
  /** `item_N`: a counter within one process, not stable across runs. */
  id: maybeString,
  /** `in_progress`, `completed`, `failed`, `declined` */
  status: maybeString,
  error: maybe(s.object({ message: maybeString })),
});
type ToolItem = s.Infer<typeof ToolItem>;
/** What each tool item's one-line summary reads, once, when the tool starts. */
const CommandDetails = s.object({ command: maybe(s.union([s.string(), s.array(s.string())])) });
const FileChangeDetails = s.object({ changes: maybe(s.array(s.object({ path: maybeString }))) });
const WebSearchDetails = s.object({ query: maybeString });
/** mcp_tool_call (and collab_tool_call, without a server). */
const CallDetails = s.object({
  server: maybeString,
  tool: maybeString,
  arguments: s.optional(s.unknown()),
});

const TurnCompleted = s.object({
  type: s.literal("turn.completed"),
  /** Cumulative for the thread, carried over `exec resume` (openai/codex#17539). */
  usage: maybe(
    s.object({
      /** Includes the cached tokens. */
      input_tokens: maybeNumber,
      cached_input_tokens: maybeNumber,
      cache_write_input_tokens: maybeNumber,
      output_tokens: maybeNumber,
      reasoning_output_tokens: maybeNumber,
    }),
  ),
});
type CodexUsage = NonNullable<s.Infer<typeof TurnCompleted>["usage"]>;

const TurnFailed = s.object({
  type: s.literal("turn.failed"),
  error: maybe(s.object({ message: maybeString })),
});

const ErrorLine = s.object({ type: s.literal("error"), message: maybeString });

const TOOL_ITEMS = new Set([
  "command_execution",
  "file_change",
  "mcp_tool_call",
  "web_search",
  "collab_tool_call",
]);
/** Item types whose events scv reads; the others (reasoning, todo_list, …) are valid and yield nothing. */
const READ_ITEMS = new Set(["agent_message", "assistant_message", "plan", "error", ...TOOL_ITEMS]);
const RECONNECTING = /^Reconnecting\.\.\.\s*(?:(\d+)\/(\d+))?\s*(?:\((.*)\))?\s*$/s;
/** A connection that failed before any HTTP status: `Reconnecting... waiting for network (Connection
 * failed: error sending request)`. Codex retries it forever (0.171.0). */
const WAITING_FOR_NETWORK = /^Reconnecting\.\.\.\s*waiting for network\s*(?:\((.*)\))?\s*$/s;
/** The HTTP status in Codex's error text: `unexpected status 401 Unauthorized: …`,
 * `exceeded retry limit, last status: 429 Too Many Requests`. */
const HTTP_STATUS = /\b(?:unexpected status|last status:)\s*(\d{3})\b/;

/** "rate-limit" when a retry's reason names one without a status (`stream disconnected: rate limit`). */
function rateLimitIn(reason: string | undefined): "rate-limit" | undefined {
  return reason !== undefined && classifyErrorText(reason) === "rate-limit" ? "rate-limit" : undefined;
}

/** An item's type: `type`, or `item_type` before Codex 0.44-0.130 (`assistant_message`). */
function itemType(item: Record<string, unknown>): string {
  const { type, item_type } = item;
  return typeof type === "string" ? type : typeof item_type === "string" ? item_type : "unknown";
}

/**
 * The long strings of item events scv never reads (elision.ts): a command's output, an MCP call's
 * result, reasoning text (told by the item's `type` given before it, as Codex writes it), and the
 * MCP arguments the one-line summary does not read. Never an agent message, a plan, an error or
 * a command line.
 */
export function codexElidable({ path, types }: StringPlace): boolean {
  const [top, field, argument] = path;
  if (top !== "item") return false;
  switch (field) {
    case "aggregated_output":
    case "result":
      return true;
    case "text":
      return path.length === 2 && types[1] === "reasoning";
    case "arguments":
      return argument === undefined || !isSummaryArgument(argument);
    default:
      return false;
  }
}

/** The tool's name and one-line summary, or null when the item is not that tool's shape. */
function toolStart(type: string, item: unknown): { name: string; summary: Summary } | null {
  switch (type) {
    case "command_execution": {
      const details = readAs(CommandDetails, item);
      return (
        details && { name: "shell", summary: () => summarizeTool("shell", { command: details.command }) }
      );
    }
    case "file_change": {
      const details = readAs(FileChangeDetails, item);
      if (details === null) return null;
      const paths = (details.changes ?? []).flatMap((change) =>
        change.path === undefined ? [] : [change.path],
      );
      const more = paths.length > 1 ? ` (+${paths.length - 1} more)` : "";
      return { name: "apply_patch", summary: () => `${summarizeTool("edit", { path: paths[0] })}${more}` };
    }
    case "web_search": {
      const details = readAs(WebSearchDetails, item);
      return (
        details && {
          name: "web_search",
          summary: () => summarizeTool("web_search", { query: details.query }),
        }
      );
    }
    case "mcp_tool_call": {
      const details = readAs(CallDetails, item);
      if (details === null) return null;
      const name = [details.server, details.tool].filter((part) => part !== undefined).join(".") || "mcp";
      return { name, summary: () => summarizeTool(name, details.arguments) };
    }
    default: {
      const details = readAs(CallDetails, item);
      const name = details?.tool ?? type;
      return details && { name, summary: () => summarizeTool(name, details.arguments) };
    }
  }
}

function usageOf(usage: CodexUsage): Usage {
  const normalized: Usage = {};
  if (usage.input_tokens !== undefined) {
    normalized.input = Math.max(0, usage.input_tokens - (usage.cached_input_tokens ?? 0));
  }
  if (usage.cached_input_tokens !== undefined) normalized.cached = usage.cached_input_tokens;
  if (usage.cache_write_input_tokens !== undefined) normalized.cacheWrite = usage.cache_write_input_tokens;
  if (usage.output_tokens !== undefined) normalized.output = usage.output_tokens;
  if (usage.reasoning_output_tokens !== undefined) normalized.reasoning = usage.reasoning_output_tokens;
  return normalized;
}

export function createCodexJsonlParser(): StreamParser {
  let lastAgentMessage: string | undefined;
  let lastPlan: string | undefined;
  const tools = new ToolTracker();

  function onItem(
    phase: "item.started" | "item.updated" | "item.completed",
    value: unknown,
  ): TurnEvent[] | null {
    const item = (value as { item?: unknown }).item;
    if (typeof item !== "object" || item === null || Array.isArray(item)) return null;
    const type = itemType(item as Record<string, unknown>);
    // Most lines of a long turn are reasoning, which scv does not read: no schema runs on them.
    if (!READ_ITEMS.has(type)) return [];
    const completed = phase === "item.completed";
    if (type === "agent_message" || type === "assistant_message") {
      const message = readAs(TextItem, item);
      if (message === null || !completed) return message && [];
      lastAgentMessage = message.text ?? "";
      return [{ type: "text", text: lastAgentMessage }];
    }
    if (type === "plan") {
      const plan = readAs(TextItem, item);
      if (plan !== null && completed && plan.text !== undefined) lastPlan = plan.text;
      return plan && [];
    }
    if (type === "error") {
      const error = readAs(ErrorItem, item);
      if (error === null || !completed || error.message === undefined) return error && [];
      // Non-fatal notices: config warnings, "model rerouted", transport fallbacks.
      return [
        { type: "error", message: error.message, kind: classifyErrorText(error.message), terminal: false },
      ];
    }
    const tool = readAs(ToolItem, item);
    return tool && onTool(phase, type, tool, item);
  }

  function onTool(
    phase: "item.started" | "item.updated" | "item.completed",
    type: string,
    tool: ToolItem,
    item: unknown,
  ): TurnEvent[] | null {
    if (tool.id === undefined) return [];
    const events: TurnEvent[] = [];
    // `file_change` may come only as `item.completed`: it still gets its start.
    if (!tools.isOpen(tool.id) && phase !== "item.updated") {
      const start = toolStart(type, item);
      if (start === null) return null;
      events.push(tools.start(tool.id, start.name, start.summary));
    }
    if (phase === "item.completed") {
      const ok = tool.status !== "failed" && tool.status !== "declined" && tool.error === undefined;
      events.push(tools.end(tool.id, ok, type));
    }
    return events;
  }

  function onError(value: unknown): TurnEvent[] | null {
    const line = readAs(ErrorLine, value);
    if (line === null) return null;
    const message = line.message ?? "error";
    const offline = WAITING_FOR_NETWORK.exec(message);
    if (offline !== null) return [retryEvent(offline[1] || "waiting for network", { kind: "unreachable" })];
    const retry = RECONNECTING.exec(message);
    if (retry !== null) {
      // `Reconnecting... 2/5 (unexpected status 429 Too Many Requests: …)`: the reason is the message.
      const [, attempt, maxAttempts, reason] = retry;
      const code = HTTP_STATUS.exec(reason ?? "")?.[1];
      const status = code === undefined ? undefined : Number(code);
      return [
        retryEvent(reason ?? message, {
          attempt: attempt === undefined ? undefined : Number(attempt),
          maxAttempts: maxAttempts === undefined ? undefined : Number(maxAttempts),
          status,
          kind: retryKind(status) ?? rateLimitIn(reason),
        }),
      ];
    }
    return [{ type: "error", message, kind: classifyErrorText(message), terminal: false }];
  }

  return createJsonLinesParser({
    // The reply is an `agent_message` item's text.
    replyLines: linesOfTypes(["item.completed"]),
    cumulativeUsage: true,
    elision: codexElidable,
    event: byType((type, value) => {
      switch (type) {
        case "thread.started": {
          const started = readAs(ThreadStarted, value);
          return started === null ? null : [{ type: "session", sessionId: started.thread_id }];
        }
        case "item.started":
        case "item.updated":
        case "item.completed":
          return onItem(type, value);
        case "turn.completed": {
          const completed = readAs(TurnCompleted, value);
          if (completed === null) return null;
          const usage: TurnEvent[] =
            completed.usage === undefined ? [] : [{ type: "usage", usage: usageOf(completed.usage) }];
          return [...usage, { type: "turn-end", ok: true }];
        }
        case "turn.failed": {
          const failed = readAs(TurnFailed, value);
          if (failed === null) return null;
          return failedTurn(failed.error?.message ?? "the turn failed");
        }
        case "error":
          return onError(value);
        default:
          return [];
      }
    }),
    finishEvents(end, record) {
      // `-o` is written only after a successful turn: when the stream itself was damaged, a
      // non-empty file with exit 0 is Codex's own word that the turn completed.
      const backstop = end.lastMessage?.trim() ?? "";
      const damaged = record.badLines > 0;
      if (record.terminal === undefined && damaged && end.exitCode === 0 && backstop !== "") {
        return [{ type: "turn-end", ok: true }];
      }
      return [];
    },
    reply(end, record) {
      const backstop = end.lastMessage;
      if (record.badLines > 0 && backstop !== undefined && backstop.trim() !== "") return backstop;
      return lastAgentMessage ?? lastPlan ?? backstop ?? "";
    },
  });
}
