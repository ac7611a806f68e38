// pi: `pi --mode json` (pi-coding-agent docs/json.md, print-mode.js). The first line is the
// session header; the reply is the last assistant message. In json mode pi exits 0 even when that
// message ended with `stopReason:"error"`, so the verdict comes from the message, not the exit code.
// A retried attempt is reported in this order (agent-session.js, and the retry-* captures):
// `agent_end` (stopReason error), `auto_retry_start`, the backoff in silence, the next attempt's
// events, `auto_retry_end {success:true}` after its message, `agent_end`. When retries run out,
// `auto_retry_end {success:false}` follows the last `agent_end`. A retry withdraws the verdict of
// the `agent_end` before it (turn-record.ts, turn/turn-verdict.ts).

import { byType, failedTurn, retryEvent } from "./event-builders.js";
import type { StreamParser, TurnEvent, Usage } from "./event-types.js";
import { classifyErrorText, retryKind } from "./failure.js";
import { createJsonLinesParser } from "./json-lines.js";
import { linesOfTypes } from "./reply-lines.js";
import * as s from "./shape.js";
import { summarizeTool } from "./tool-summary.js";
import { ToolTracker } from "./tool-tracker.js";
import { addUsage } from "./usage.js";
import { maybe, maybeBoolean, maybeNumber, maybeString, readAs } from "./wire.js";

const SessionHeader = s.object({ type: s.literal("session"), id: s.string() });

/** pi-ai `AssistantMessage` (and the user and tool-result messages, which scv skips). */
const AgentMessage = s.object({
  role: s.string(),
  content: maybe(s.array(s.object({ type: s.string(), text: maybeString }))),
  /** `stop`, `length`, `toolUse`, `error`, `aborted`. */
  stopReason: maybeString,
  errorMessage: maybeString,
  usage: maybe(
    s.object({
      input: maybeNumber,
      output: maybeNumber,
      cacheRead: maybeNumber,
      cacheWrite: maybeNumber,
      /** Dollars, from pi's own model table. */
      cost: maybe(s.object({ total: maybeNumber })),
    }),
  ),
});
type AgentMessage = s.Infer<typeof AgentMessage>;

const MessageEnd = s.object({ type: s.literal("message_end"), message: AgentMessage });

const MessageUpdate = s.object({
  type: s.literal("message_update"),
  assistantMessageEvent: maybe(s.object({ type: s.string(), delta: maybeString })),
});

const ToolStart = s.object({
  type: s.literal("tool_execution_start"),
  toolCallId: s.string(),
  toolName: s.string(),
  args: s.optional(s.unknown()),
});

const ToolEnd = s.object({
  type: s.literal("tool_execution_end"),
  toolCallId: s.string(),
  toolName: maybeString,
  isError: maybeBoolean,
});

const RetryStart = s.object({
  type: s.literal("auto_retry_start"),
  attempt: maybeNumber,
  maxAttempts: maybeNumber,
  delayMs: maybeNumber,
  /** `429 Rate limit reached for requests`: the provider's status, then its message. */
  errorMessage: maybeString,
});

const RetryEnd = s.object({
  type: s.literal("auto_retry_end"),
  success: maybeBoolean,
  finalError: maybeString,
});

const AgentEnd = s.object({ type: s.literal("agent_end"), messages: maybe(s.array(AgentMessage)) });

function usageOf(message: AgentMessage): Usage | undefined {
  const { usage } = message;
  if (usage === undefined) return undefined;
  const normalized: Usage = {};
  if (usage.input !== undefined) normalized.input = usage.input;
  if (usage.cacheRead !== undefined) normalized.cached = usage.cacheRead;
  if (usage.cacheWrite !== undefined) normalized.cacheWrite = usage.cacheWrite;
  if (usage.output !== undefined) normalized.output = usage.output;
  if (usage.cost?.total !== undefined) normalized.costUsd = usage.cost.total;
  return normalized;
}

function textOf(message: AgentMessage): string {
  return (message.content ?? [])
    .flatMap((block) => (block.type === "text" && block.text !== undefined ? [block.text] : []))
    .join("\n");
}

/** The terminal events for the run's last assistant message. */
function verdict(last: AgentMessage | undefined): TurnEvent[] {
  if (last === undefined) {
    return failedTurn("pi ended without an assistant message", "other");
  }
  if (last.stopReason === "error" || last.stopReason === "aborted") {
    return failedTurn(last.errorMessage ?? `the model request ended with stopReason ${last.stopReason}`);
  }
  return [{ type: "turn-end", ok: true }];
}

export function createPiJsonParser(): StreamParser {
  const tools = new ToolTracker();
  let lastAssistant: AgentMessage | undefined;
  let usage: Usage | undefined;

  function onTyped(type: string, value: unknown): TurnEvent[] | null {
    switch (type) {
      case "session": {
        const header = readAs(SessionHeader, value);
        return header === null ? null : [{ type: "session", sessionId: header.id }];
      }
      case "message_update": {
        const update = readAs(MessageUpdate, value);
        if (update === null) return null;
        const event = update.assistantMessageEvent;
        // Only the deltas: the `partial` copies inside an update can run ahead of them.
        if (event?.type !== "text_delta" || event.delta === undefined) return [];
        return [{ type: "text", text: event.delta, delta: true }];
      }
      case "message_end": {
        const end = readAs(MessageEnd, value);
        if (end === null) return null;
        if (end.message.role !== "assistant") return [];
        lastAssistant = end.message;
        const messageUsage = usageOf(end.message);
        if (messageUsage === undefined) return [];
        // One assistant message per model call: their usage adds up to the run's.
        usage = addUsage(usage, messageUsage);
        return [{ type: "usage", usage }];
      }
      case "tool_execution_start": {
        const start = readAs(ToolStart, value);
        if (start === null) return null;
        return [
          tools.start(start.toolCallId, start.toolName, () => summarizeTool(start.toolName, start.args)),
        ];
      }
      case "tool_execution_end": {
        const end = readAs(ToolEnd, value);
        if (end === null) return null;
        return [tools.end(end.toolCallId, end.isError !== true, end.toolName)];
      }
      case "auto_retry_start": {
        const retry = readAs(RetryStart, value);
        if (retry === null) return null;
        const message = retry.errorMessage ?? "retrying the model request";
        const code = /^([1-5]\d\d)\b/.exec(message)?.[1];
        const status = code === undefined ? undefined : Number(code);
        const { attempt, maxAttempts, delayMs } = retry;
        return [retryEvent(message, { attempt, maxAttempts, delayMs, status, kind: retryKind(status) })];
      }
      case "auto_retry_end": {
        const retry = readAs(RetryEnd, value);
        if (retry === null) return null;
        if (retry.success !== false) return [];
        const message = retry.finalError ?? "retries exhausted";
        return [{ type: "error", message, kind: classifyErrorText(message), terminal: false }];
      }
      case "agent_end": {
        const end = readAs(AgentEnd, value);
        if (end === null) return null;
        const fromEnd = end.messages?.findLast((message) => message.role === "assistant");
        if (fromEnd !== undefined) lastAssistant = fromEnd;
        return verdict(lastAssistant);
      }
      default:
        return [];
    }
  }

  return createJsonLinesParser({
    // The reply is the last assistant message, at its `message_end` and again in `agent_end`.
    // `message_update` lines repeat the message so far and are left to the ordinary bound: their
    // deltas are only progress.
    replyLines: linesOfTypes(["message_end", "agent_end"]),
    cumulativeUsage: false,
    event: byType(onTyped),
    reply() {
      return lastAssistant === undefined ? "" : textOf(lastAssistant);
    },
  });
}
