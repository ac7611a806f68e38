// GitHub Copilot CLI: `copilot -p … --output-format json` prints its session event bus as JSONL
// (`{type, data, id, timestamp}`), ending with a top-level `result` holding the session id and exit
// code. Shapes from captures of 1.0.36, 1.0.63 and 1.0.102; no vendor schema is published.

import { BoundedText } from "./bounded-text.js";
import { byType, failedTurn, retryEvent } from "./event-builders.js";
import type { FailureKind, StreamParser, TurnEvent, TurnFailure, Usage } from "./event-types.js";
import { classifyErrorText, kindFromStatus, retryKind, unavailableModel } from "./failure.js";
import { createJsonLinesParser } from "./json-lines.js";
import { linesOfTypes } from "./reply-lines.js";
import * as s from "./shape.js";
import { summarizeTool } from "./tool-summary.js";
import { ToolTracker } from "./tool-tracker.js";
import { addUsage } from "./usage.js";
import { maybe, maybeBoolean, maybeNumber, maybeString, readAs } from "./wire.js";

function withData<F extends s.Fields>(shape: F) {
  return s.object({ data: s.object(shape) });
}

const MessageDelta = withData({ deltaContent: s.string() });
const AssistantMessage = withData({ content: maybeString });
const AssistantUsage = withData({
  inputTokens: maybeNumber,
  outputTokens: maybeNumber,
  cacheReadTokens: maybeNumber,
  cacheWriteTokens: maybeNumber,
});
const ToolStart = withData({
  toolCallId: s.string(),
  toolName: s.string(),
  arguments: s.optional(s.unknown()),
});
const ToolComplete = withData({ toolCallId: s.string(), success: maybeBoolean });
const TurnRetry = withData({ reason: maybeString });
/** A model request that failed; the `assistant.turn_retry` that follows retries it. */
const CallFailure = withData({ statusCode: maybeNumber, retryAttempt: maybeNumber, isByok: maybeBoolean });
const SessionError = withData({
  /** `authentication`, `authorization`, `rate_limit`, … */
  errorType: maybeString,
  message: maybeString,
  statusCode: maybeNumber,
});
const Result = s.object({
  type: s.literal("result"),
  sessionId: maybeString,
  exitCode: maybe(s.number()),
});

const KIND_BY_ERROR_TYPE: Readonly<Record<string, FailureKind>> = {
  authentication: "auth",
  authorization: "auth",
  rate_limit: "rate-limit",
  quota: "rate-limit",
};

export function createCopilotJsonParser(): StreamParser {
  const tools = new ToolTracker();
  // Text still arriving as deltas: the reply when a turn is cut off before its `assistant.message`.
  const pending = new BoundedText();
  let lastMessage: string | undefined;
  let usage: Usage | undefined;
  let sessionError: TurnFailure | undefined;
  let lastCallFailure: s.Infer<typeof CallFailure>["data"] | undefined;

  function onTyped(type: string, value: unknown): TurnEvent[] | null {
    switch (type) {
      case "assistant.message_start":
        pending.clear();
        return [];
      case "assistant.message_delta": {
        const delta = readAs(MessageDelta, value);
        if (delta === null) return null;
        pending.append(delta.data.deltaContent);
        return [];
      }
      case "assistant.message": {
        const message = readAs(AssistantMessage, value);
        if (message === null) return null;
        pending.clear();
        const content = message.data.content ?? "";
        // A message holding only tool requests has empty content; the reply is the last that spoke.
        if (content.trim() === "") return [];
        lastMessage = content;
        return [{ type: "text", text: content }];
      }
      case "assistant.usage": {
        const report = readAs(AssistantUsage, value);
        if (report === null) return null;
        const { data } = report;
        usage = addUsage(usage, {
          ...(data.inputTokens === undefined ? {} : { input: data.inputTokens }),
          ...(data.cacheReadTokens === undefined ? {} : { cached: data.cacheReadTokens }),
          ...(data.cacheWriteTokens === undefined ? {} : { cacheWrite: data.cacheWriteTokens }),
          ...(data.outputTokens === undefined ? {} : { output: data.outputTokens }),
        });
        return [{ type: "usage", usage }];
      }
      case "tool.execution_start": {
        const start = readAs(ToolStart, value);
        if (start === null) return null;
        const { data } = start;
        return [
          tools.start(data.toolCallId, data.toolName, () => summarizeTool(data.toolName, data.arguments)),
        ];
      }
      case "tool.execution_complete": {
        const complete = readAs(ToolComplete, value);
        if (complete === null) return null;
        return [tools.end(complete.data.toolCallId, complete.data.success !== false)];
      }
      case "assistant.turn_retry": {
        const retry = readAs(TurnRetry, value);
        if (retry === null) return null;
        const failed = lastCallFailure;
        lastCallFailure = undefined;
        const status = failed?.statusCode;
        const kind = retryKind(status);
        return [
          retryEvent(retry.data.reason ?? "retrying the model request", {
            attempt: failed?.retryAttempt === undefined ? undefined : failed.retryAttempt + 1,
            status,
            // A refused key of the user's own provider (BYOK) stays refused; a GitHub token may be
            // refreshed by the retry itself ("transient_auth_error").
            kind: kind === "auth" && failed?.isByok !== true ? undefined : kind,
          }),
        ];
      }
      case "model.call_failure": {
        const failure = readAs(CallFailure, value);
        if (failure === null) return null;
        lastCallFailure = failure.data;
        return [];
      }
      case "session.error": {
        const error = readAs(SessionError, value);
        if (error === null) return null;
        const { data } = error;
        const message = data.message ?? data.errorType ?? "session error";
        const kind =
          unavailableModel(message) ??
          (data.errorType === undefined ? undefined : KIND_BY_ERROR_TYPE[data.errorType]) ??
          kindFromStatus(data.statusCode) ??
          classifyErrorText(message);
        sessionError = { kind, message };
        return [{ type: "error", message, kind, terminal: false }];
      }
      case "result": {
        const result = readAs(Result, value);
        if (result === null) return null;
        const events: TurnEvent[] = [];
        if (result.sessionId !== undefined) events.push({ type: "session", sessionId: result.sessionId });
        if (result.exitCode === 0) return [...events, { type: "turn-end", ok: true }];
        // The session error, if any, is what made the exit code non-zero.
        const failure = sessionError ?? {
          kind: "other",
          message: `Copilot exited with code ${result.exitCode ?? "?"}`,
        };
        return [...events, ...failedTurn(failure.message, failure.kind)];
      }
      default:
        return [];
    }
  }

  return createJsonLinesParser({
    replyLines: linesOfTypes(["assistant.message"]),
    cumulativeUsage: false,
    event: byType(onTyped),
    reply() {
      // Deltas left after the last whole message belong to a newer one that was cut off.
      return pending.size > 0 ? pending.toString() : (lastMessage ?? "");
    },
  });
}
