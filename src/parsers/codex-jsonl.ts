// Codex: `codex exec --json` (codex-rs/exec/src/exec_events.rs). The reply is the last
// `agent_message`; top-level `error` lines are mostly retry notices and only `turn.failed` is
// terminal; exit 0 without `turn.completed` is not a success. The `-o` file is the backstop.

import * as z from "zod/mini";
import type { StringPlace } from "./elision.js";
import { byType, failedTurn } from "./events.js";
import { classifyErrorText } from "./failure.js";
import { createJsonLinesParser } from "./json-lines.js";
import { isSummaryArgument, summarizeTool } from "./tool-summary.js";
import { ToolTracker } from "./tool-tracker.js";
import type { StreamParser, TurnEvent, Usage } from "./types.js";
import { maybe, maybeNumber, maybeString, readAs } from "./wire.js";

const ThreadStarted = z.looseObject({ type: z.literal("thread.started"), thread_id: z.string() });

const CodexItem = z.looseObject({
  /** `item_N`: a counter within one process, not stable across runs. */
  id: maybeString,
  /** `agent_message`, `reasoning`, `command_execution`, `file_change`, `mcp_tool_call`, … */
  type: maybeString,
  /** The field's name and value before Codex 0.44-0.130 (`assistant_message`). */
  item_type: maybeString,
  /** agent_message, reasoning, plan */
  text: maybeString,
  /** error items */
  message: maybeString,
  /** command_execution */
  command: maybe(z.union([z.string(), z.array(z.string())])),
  exit_code: maybe(z.nullable(z.number())),
  /** `in_progress`, `completed`, `failed`, `declined` */
  status: maybeString,
  /** file_change */
  changes: maybe(z.array(z.looseObject({ path: maybeString }))),
  /** mcp_tool_call */
  server: maybeString,
  tool: maybeString,
  arguments: z.optional(z.unknown()),
  error: maybe(z.looseObject({ message: maybeString })),
  /** web_search */
  query: maybeString,
});
type CodexItem = z.infer<typeof CodexItem>;

const ItemEvent = z.looseObject({
  type: z.enum(["item.started", "item.updated", "item.completed"]),
  item: CodexItem,
});

const TurnCompleted = z.looseObject({
  type: z.literal("turn.completed"),
  /** Cumulative for the thread, carried over `exec resume` (openai/codex#17539). */
  usage: maybe(
    z.looseObject({
      /** Includes the cached tokens. */
      input_tokens: maybeNumber,
      cached_input_tokens: maybeNumber,
      cache_write_input_tokens: maybeNumber,
      output_tokens: maybeNumber,
      reasoning_output_tokens: maybeNumber,
    }),
  ),
});
type CodexUsage = NonNullable<z.infer<typeof TurnCompleted>["usage"]>;

const TurnFailed = z.looseObject({
  type: z.literal("turn.failed"),
  error: maybe(z.looseObject({ message: maybeString })),
});

const ErrorLine = z.looseObject({ type: z.literal("error"), message: maybeString });

const TOOL_ITEMS = new Set([
  "command_execution",
  "file_change",
  "mcp_tool_call",
  "web_search",
  "collab_tool_call",
]);
const RECONNECTING = /^Reconnecting\.\.\.\s*(?:(\d+)\/\d+)?/;

function itemType(item: CodexItem): string {
  return item.type ?? item.item_type ?? "unknown";
}

/** Item types whose events scv reads; the others (reasoning, todo_list, …) are valid and yield nothing. */
const READ_ITEMS = new Set(["agent_message", "assistant_message", "plan", "error", ...TOOL_ITEMS]);

/** Whether `value` is an item event of a type scv does not read, told without the schema: most lines
 * of a long turn are reasoning, and checking them field by field costs more than parsing their
 * JSON. CodexItem accepts any object, so this skips nothing the schema would refuse. */
function ignoredItem(value: unknown): boolean {
  const item = (value as { item?: unknown }).item;
  if (typeof item !== "object" || item === null || Array.isArray(item)) return false;
  const { type, item_type } = item as { type?: unknown; item_type?: unknown };
  return !READ_ITEMS.has(
    typeof type === "string" ? type : typeof item_type === "string" ? item_type : "unknown",
  );
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

function toolSummary(type: string, item: CodexItem): { name: string; summary: string } {
  switch (type) {
    case "command_execution":
      return { name: "shell", summary: summarizeTool("shell", { command: item.command }) };
    case "file_change": {
      const paths = (item.changes ?? []).flatMap((change) =>
        change.path === undefined ? [] : [change.path],
      );
      const more = paths.length > 1 ? ` (+${paths.length - 1} more)` : "";
      return { name: "apply_patch", summary: `${summarizeTool("edit", { path: paths[0] })}${more}` };
    }
    case "mcp_tool_call": {
      const name = [item.server, item.tool].filter((part) => part !== undefined).join(".") || "mcp";
      return { name, summary: summarizeTool(name, item.arguments) };
    }
    case "web_search":
      return { name: "web_search", summary: summarizeTool("web_search", { query: item.query }) };
    default:
      return { name: item.tool ?? type, summary: summarizeTool(item.tool ?? type, item.arguments) };
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

  function onItem(value: unknown): TurnEvent[] | null {
    if (ignoredItem(value)) return [];
    const event = readAs(ItemEvent, value);
    if (event === null) return null;
    const { item } = event;
    const type = itemType(item);
    const events: TurnEvent[] = [];
    if (event.type === "item.completed" && (type === "agent_message" || type === "assistant_message")) {
      lastAgentMessage = item.text ?? "";
      events.push({ type: "text", text: lastAgentMessage });
    } else if (event.type === "item.completed" && type === "plan" && item.text !== undefined) {
      lastPlan = item.text;
    } else if (event.type === "item.completed" && type === "error" && item.message !== undefined) {
      // Non-fatal notices: config warnings, "model rerouted", transport fallbacks.
      events.push({
        type: "error",
        message: item.message,
        kind: classifyErrorText(item.message),
        terminal: false,
      });
    } else if (TOOL_ITEMS.has(type) && item.id !== undefined) {
      // `file_change` may come only as `item.completed`: it still gets its start.
      if (!tools.isOpen(item.id) && event.type !== "item.updated") {
        const { name, summary } = toolSummary(type, item);
        events.push(tools.start(item.id, name, summary));
      }
      if (event.type === "item.completed") {
        const ok = item.status !== "failed" && item.status !== "declined" && item.error === undefined;
        events.push(tools.end(item.id, ok, type));
      }
    }
    return events;
  }

  function onError(value: unknown): TurnEvent[] | null {
    const line = readAs(ErrorLine, value);
    if (line === null) return null;
    const message = line.message ?? "error";
    const retry = RECONNECTING.exec(message);
    if (retry !== null) {
      const attempt = retry[1] === undefined ? undefined : Number(retry[1]);
      return [{ type: "retry", message, ...(attempt === undefined ? {} : { attempt }) }];
    }
    return [{ type: "error", message, kind: classifyErrorText(message), terminal: false }];
  }

  return createJsonLinesParser({
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
          return onItem(value);
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
