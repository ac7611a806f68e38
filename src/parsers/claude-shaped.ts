// The state machine shared by the CLIs that print Claude Code's stream-json shapes (Claude, Qwen
// Code, Amp, Cursor). What differs between them is a small flavour object, not a copy of this file.

import { BoundedText } from "./bounded-text.js";
import {
  AssistantEvent,
  type ContentBlock,
  claudeElidable,
  RateLimitEvent,
  ResultEvent,
  resultErrorText,
  SystemEvent,
  TokenCounts,
  UserEvent,
  usageOfCounts,
} from "./claude-wire.js";
import type { ElisionPolicy } from "./elision.js";
import { byType, failedTurn, retryEvent } from "./event-builders.js";
import type { FailureKind, QuotaWindow, StreamParser, TurnEvent, Usage } from "./event-types.js";
import { classifyErrorText, epochToIso, kindFromStatus, retryKind, unavailableModel } from "./failure.js";
import { createJsonLinesParser } from "./json-lines.js";
import { linesOfTypes } from "./reply-lines.js";
import type * as s from "./shape.js";
import { summarizeTool } from "./tool-summary.js";
import { type Summary, ToolTracker } from "./tool-tracker.js";
import { addUsage } from "./usage.js";
import { readAs } from "./wire.js";

/** The state a flavour's extra events may touch. */
export interface ClaudeShapedState {
  /** Emits the session event when the id is new. */
  session(id: string | undefined, events: TurnEvent[]): void;
  toolStarted(id: string, name: string, summary: Summary, events: TurnEvent[]): void;
  toolEnded(id: string, ok: boolean, events: TurnEvent[]): void;
}

export interface ClaudeFlavour {
  /** Whether the reported usage is a running total across resumed turns. */
  readonly cumulativeUsage: boolean;
  /** This turn's usage from the result, given the sum of the assistant messages' usage when the
   * flavour `sumsAssistantUsage`. */
  usage(result: ResultEvent, assistantUsage: Usage | undefined): Usage | undefined;
  /** Whether `usage` reads the assistant messages' usage (Amp's result may carry none), or, for a
   * cumulative flavour, a turn stopped before its result is to report it (`unreportedUsage`): summing
   * it costs every assistant line, so the flavours that need neither skip it. */
  readonly sumsAssistantUsage?: boolean;
  /** Events only this CLI sends (Cursor's `tool_call`); null when the value is not valid. */
  extraEvent?(type: string, value: unknown, state: ClaudeShapedState): TurnEvent[] | null;
  /** Long strings of those extra events that scv never reads, beyond `claudeElidable`'s. */
  readonly extraElidable?: ElisionPolicy;
}

/** Claude's `assistant.error` categories (sdk.d.ts 4097) as failure kinds. */
const KIND_BY_ASSISTANT_ERROR: Readonly<Record<string, FailureKind>> = {
  authentication_failed: "auth",
  oauth_org_not_allowed: "auth",
  verification_required: "auth",
  cloud_credential_error: "auth",
  billing_error: "billing",
  account_on_hold: "billing",
  rate_limit: "rate-limit",
};

/** Assistant messages whose usage is kept by id: the content blocks of one message (even among
 * parallel subagents' messages) arrive close together, never hundreds of messages apart. */
const RECENT_MESSAGES = 256;

export function createClaudeShapedParser(flavour: ClaudeFlavour): StreamParser {
  let sessionId: string | undefined;
  const tools = new ToolTracker();
  // The text of the latest main-agent assistant message: the reply when `result.result` is
  // missing or cut short. Pre-tool chatter of earlier messages is dropped as a new message begins.
  const segment = new BoundedText();
  let segmentMessageId: string | undefined;
  let toolSinceText = false;
  // Structured failure signals seen before the terminal result.
  let assistantErrorKind: FailureKind | undefined;
  const limits = new RateLimits();
  let lastRetryStatus: number | undefined;
  const assistantUsage = new MessageUsage();
  let finalText: string | undefined;
  /** The result's `structured_output` as JSON (`--json-schema`), which is the reply when present. */
  let structuredReply: string | undefined;
  let failureMessage: string | undefined;

  const state: ClaudeShapedState = {
    session(id, events) {
      if (id === undefined || id === "" || id === sessionId) return;
      sessionId = id;
      events.push({ type: "session", sessionId: id });
    },
    toolStarted(id, name, summary, events) {
      toolSinceText = true;
      events.push(tools.start(id, name, summary));
    },
    toolEnded(id, ok, events) {
      events.push(tools.end(id, ok));
    },
  };

  /** Reads one event kind: null when the value is not that shape, else its events, the session first. */
  function withSession<T extends { session_id?: string | undefined }>(
    schema: s.Shape<T>,
    read: (event: T, events: TurnEvent[]) => void,
  ): (value: unknown) => TurnEvent[] | null {
    return (value) => {
      const event = readAs(schema, value);
      if (event === null) return null;
      const events: TurnEvent[] = [];
      state.session(event.session_id, events);
      read(event, events);
      return events;
    };
  }

  function appendText(messageId: string | undefined, text: string): void {
    const newMessage = messageId !== undefined && messageId !== segmentMessageId;
    if (newMessage || toolSinceText) segment.clear();
    if (messageId !== undefined) segmentMessageId = messageId;
    toolSinceText = false;
    segment.append(text);
  }

  const onSystem = withSession(SystemEvent, (system, events) => {
    if (system.subtype === "api_retry") lastRetryStatus = system.error_status ?? lastRetryStatus;
    events.push(...systemEvents(system));
  });

  const onAssistant = withSession(AssistantEvent, (assistant, events) => {
    const { message } = assistant;
    const counts = flavour.sumsAssistantUsage === true ? readAs(TokenCounts, message.usage) : null;
    if (counts !== null) assistantUsage.add(message.id, usageOfCounts(counts));
    if (assistant.error !== undefined) {
      // A synthetic message standing for an API failure: its text is the error, not a reply.
      const text = Array.isArray(message.content)
        ? message.content.map((block) => block.text ?? "").join("\n")
        : (message.content ?? "");
      assistantErrorKind =
        unavailableModel(text) ??
        KIND_BY_ASSISTANT_ERROR[assistant.error] ??
        kindFromStatus(assistant.api_error_status) ??
        "other";
      return;
    }
    const mainAgent = assistant.parent_tool_use_id === null || assistant.parent_tool_use_id === undefined;
    const blocks = Array.isArray(message.content) ? message.content : [];
    for (const block of blocks) {
      if (
        block.type === "text" &&
        block.text !== undefined &&
        mainAgent &&
        assistant.model_call_id === undefined
      ) {
        appendText(message.id, block.text);
        events.push({ type: "text", text: block.text });
      } else if (block.type === "tool_use" && block.id !== undefined) {
        const name = block.name ?? "tool";
        const input = block.input;
        state.toolStarted(block.id, name, () => summarizeTool(name, input), events);
      }
    }
  });

  const onUser = withSession(UserEvent, (user, events) => {
    const blocks: ContentBlock[] = Array.isArray(user.message.content) ? user.message.content : [];
    for (const block of blocks) {
      if (block.type === "tool_result" && block.tool_use_id !== undefined) {
        state.toolEnded(block.tool_use_id, block.is_error !== true, events);
      }
    }
  });

  const onRateLimit = withSession(RateLimitEvent, (event, events) => limits.read(event, events));

  const onResult = withSession(ResultEvent, (result, events) => {
    const usage = flavour.usage(result, assistantUsage.sum());
    if (usage !== undefined) events.push({ type: "usage", usage });
    if (result.is_error !== true && result.stop_reason === "refusal") {
      events.push({ type: "turn-end", ok: false, declined: true });
    } else if (result.is_error === false || (result.is_error === undefined && result.subtype === "success")) {
      finalText = result.result;
      // What `--json-schema` asked for is the reply, whatever prose came with it.
      if (typeof result.structured_output === "object" && result.structured_output !== null) {
        structuredReply = JSON.stringify(result.structured_output);
      }
      events.push({ type: "turn-end", ok: true });
    } else {
      const message = resultErrorText(result) ?? `${result.subtype ?? "error"} (no message)`;
      failureMessage = message;
      const kind =
        unavailableModel(message) ??
        assistantErrorKind ??
        kindFromStatus(result.api_error_status) ??
        (limits.rejected ? "rate-limit" : undefined) ??
        nonOther(classifyErrorText(message)) ??
        kindFromStatus(lastRetryStatus) ??
        "other";
      // Without a structured reset time, the record reads one from the message.
      const resetsAt = kind === "rate-limit" ? limits.resetsAt : undefined;
      events.push(...failedTurn(message, kind, resetsAt));
    }
  });

  const { extraElidable } = flavour;
  return createJsonLinesParser({
    cumulativeUsage: flavour.cumulativeUsage,
    quota: () => limits.quota(),
    // The reply is an assistant message's text, and again the result's `result` (or its
    // `structured_output`), which Claude writes before the result's `type`.
    replyLines: linesOfTypes(["assistant", "result"], ["result", "structured_output"]),
    ...(flavour.cumulativeUsage && flavour.sumsAssistantUsage === true
      ? { unreportedUsage: () => assistantUsage.sum() }
      : {}),
    elision:
      extraElidable === undefined ? claudeElidable : (place) => claudeElidable(place) || extraElidable(place),
    event: byType((type, value) => {
      switch (type) {
        case "system":
          return onSystem(value);
        case "assistant":
          return onAssistant(value);
        case "user":
          return onUser(value);
        case "rate_limit_event":
          return onRateLimit(value);
        case "result":
          return onResult(value);
        default:
          return flavour.extraEvent?.(type, value, state) ?? [];
      }
    }),
    reply() {
      if (structuredReply !== undefined) return structuredReply;
      const rebuilt = segment.toString();
      // `result.result` is the CLI's own final text, but it has come back empty, missing, or only
      // the first chunk of a reply split over several content blocks (Claude #8126, #78686).
      if (finalText !== undefined && finalText.trim() !== "" && finalText.length >= rebuilt.length) {
        return finalText;
      }
      // A failed turn whose only text is the error itself (Qwen repeats it as assistant text).
      if (failureMessage !== undefined && rebuilt.trim() === failureMessage.trim()) return "";
      return rebuilt;
    },
  });
}

/** Usage per assistant message id: one line per content block repeats the same message usage. Only
 * recent messages are kept by id; older ones are folded into a sum, so the map of a long turn stays
 * small (one entry per message grew ~10 MB per GB of stream). */
class MessageUsage {
  private readonly byId = new Map<string, Usage>();
  private folded: Usage | undefined;

  add(id: string | undefined, usage: Usage): void {
    if (id === undefined) {
      this.folded = addUsage(this.folded, usage);
      return;
    }
    this.byId.set(id, usage);
    if (this.byId.size <= RECENT_MESSAGES) return;
    const [oldest, oldestUsage] = this.byId.entries().next().value as [string, Usage];
    this.byId.delete(oldest);
    this.folded = addUsage(this.folded, oldestUsage);
  }

  sum(): Usage | undefined {
    let sum = this.folded;
    for (const usage of this.byId.values()) sum = addUsage(sum, usage);
    return sum;
  }
}

/** What the rate_limit_events said: the last report of each quota window, and whether (and until
 * when) the turn was refused. */
class RateLimits {
  rejected = false;
  resetsAt: string | undefined;
  private readonly windows = new Map<string, QuotaWindow>();

  read(event: s.Infer<typeof RateLimitEvent>, events: TurnEvent[]): void {
    const info = event.rate_limit_info;
    if (info.status !== undefined) {
      const window = info.rateLimitType ?? "unknown";
      this.windows.set(window, {
        window,
        status: info.status,
        ...(info.utilization === undefined || info.utilization < 0 ? {} : { utilization: info.utilization }),
        ...(info.resetsAt === undefined ? {} : { resetsAt: epochToIso(info.resetsAt) }),
      });
    }
    if (info.status === "rejected") {
      this.rejected = true;
      this.resetsAt = info.resetsAt === undefined ? undefined : epochToIso(info.resetsAt);
      events.push({
        type: "error",
        message: "usage limit reached",
        kind: "rate-limit",
        terminal: false,
        ...(this.resetsAt === undefined ? {} : { resetsAt: this.resetsAt }),
      });
    }
  }

  quota(): QuotaWindow[] {
    return [...this.windows.values()];
  }
}

/** A system event's mode report and retry notices. */
function systemEvents(system: s.Infer<typeof SystemEvent>): TurnEvent[] {
  const events: TurnEvent[] = [];
  const mode = system.permissionMode ?? system.permission_mode;
  if (mode !== undefined && (system.subtype === "init" || system.subtype === "status")) {
    events.push({ type: "mode", mode });
  }
  if (system.subtype === "api_retry") {
    const status = system.error_status ?? undefined;
    const message = [system.error ?? "API error", status === undefined ? "" : `(${status})`].join(" ").trim();
    events.push(
      retryEvent(message, {
        attempt: system.attempt,
        maxAttempts: system.max_retries,
        delayMs: system.retry_delay_ms,
        status,
        kind: retryKind(status),
      }),
    );
  }
  if (system.subtype === "retry" && system.data !== undefined) {
    const { attempt, maxRetries, delayMs } = system.data;
    events.push(retryEvent("retrying the model request", { attempt, maxAttempts: maxRetries, delayMs }));
  }
  return events;
}

function nonOther(kind: FailureKind): FailureKind | undefined {
  return kind === "other" ? undefined : kind;
}
