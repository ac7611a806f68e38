// Gemini CLI: `gemini -p … --output-format stream-json` (packages/core/src/output/types.ts), and
// the single pretty-printed object of `--output-format json`. The stream's `result` carries no
// text: the reply is the assistant deltas after the last tool call, as JSON mode's `response` is.
// Authentication failures print nothing on stdout and exit 41.

import { BoundedText } from "./bounded-text.js";
import { failedTurn } from "./event-builders.js";
import type { FailureKind, StreamParser, TurnEvent, Usage } from "./event-types.js";
import { classifyErrorText, unavailableModel } from "./failure.js";
import { createGeminiStderrReader } from "./gemini-stderr.js";
import { createJsonLinesParser } from "./json-lines.js";
import { linesOfTypes } from "./reply-lines.js";
import * as s from "./shape.js";
import { summarizeTool } from "./tool-summary.js";
import { ToolTracker } from "./tool-tracker.js";
import { addUsage } from "./usage.js";
import { maybe, maybeBoolean, maybeNumber, maybeString, readAs, TypedEvent } from "./wire.js";

const Init = s.object({ type: s.literal("init"), session_id: maybeString });

const Message = s.object({
  type: s.literal("message"),
  /** `user` (the prompt echoed) or `assistant`. */
  role: s.string(),
  content: s.string(),
  delta: maybeBoolean,
});

const ToolUse = s.object({
  type: s.literal("tool_use"),
  tool_name: s.string(),
  tool_id: s.string(),
  parameters: s.optional(s.unknown()),
});

const ToolResult = s.object({
  type: s.literal("tool_result"),
  tool_id: s.string(),
  /** `success` or `error`. */
  status: s.string(),
});

const ErrorNotice = s.object({
  type: s.literal("error"),
  /** `warning` or `error`; neither ends the turn. */
  severity: maybeString,
  message: s.string(),
});

const ErrorDetail = maybe(s.object({ type: maybeString, message: maybeString }));

const StreamStats = s.object({
  /** Includes the cached tokens. */
  input_tokens: maybeNumber,
  output_tokens: maybeNumber,
  cached: maybeNumber,
  /** Not cached. */
  input: maybeNumber,
});

const Result = s.object({
  type: s.literal("result"),
  /** `success` or `error`. */
  status: s.string(),
  /** Error class name and message; absent after an INVALID_STREAM error. */
  error: ErrorDetail,
  stats: maybe(StreamStats),
});

/** `--output-format json`: `JsonOutput` in packages/cli. */
const JsonOutput = s.object({
  session_id: maybeString,
  response: maybeString,
  stats: maybe(
    s.object({
      models: maybe(
        s.record(
          s.object({
            tokens: maybe(
              s.object({
                /** Not cached (newer builds). */
                input: maybeNumber,
                /** Includes the cached tokens. */
                prompt: maybeNumber,
                candidates: maybeNumber,
                cached: maybeNumber,
                thoughts: maybeNumber,
              }),
            ),
          }),
        ),
      ),
    }),
  ),
  error: ErrorDetail,
});
type JsonOutput = s.Infer<typeof JsonOutput>;

/** Gemini's error classes that name a kind by themselves. */
const KIND_BY_ERROR_TYPE: Readonly<Record<string, FailureKind>> = {
  FatalAuthenticationError: "auth",
  TerminalQuotaError: "rate-limit",
};

/** Exit 41 is FATAL_AUTHENTICATION_ERROR (packages/cli/src/utils/errors). */
export function geminiExitCodeKind(code: number): FailureKind | undefined {
  return code === 41 ? "auth" : undefined;
}

/** What Gemini CLI appends to the message of every HTTP 429 (packages/core/src/utils/errorParsing.ts).
 * The API's own 429 text, "You exceeded your current quota, please check your plan and billing
 * details", would otherwise read as billing (contract suite: the 429 turn came back exit 1). */
const GEMINI_RATE_LIMIT_NOTE = /Please wait and try again later\.|Possible quota limitations in place/;

function failureEvents(error: { type?: string; message?: string } | undefined): TurnEvent[] {
  const message = error?.message ?? `Gemini reported an error${error?.type ? ` (${error.type})` : ""}`;
  const kind =
    unavailableModel(message) ??
    (error?.type === undefined ? undefined : KIND_BY_ERROR_TYPE[error.type]) ??
    (GEMINI_RATE_LIMIT_NOTE.test(message) ? "rate-limit" : classifyErrorText(message));
  return failedTurn(readableApiError(message), kind);
}

/** The API's error body Gemini CLI wraps whole into its message. */
const API_ERROR = /^\[API Error: (\{[\s\S]*\})\]$/;
const ApiErrorBody = s.object({
  error: s.object({ code: maybeNumber, message: maybeString, status: maybeString }),
});

/** `[API Error: {"error":{"code":401,"message":"API key not valid…","status":"UNAUTHENTICATED",…}}]`
 * as `API key not valid… (401 UNAUTHENTICATED)`: a user reads one line, not the raw JSON. */
export function readableApiError(message: string): string {
  const body = API_ERROR.exec(message.trim())?.[1];
  if (body === undefined) return message;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return message;
  }
  const error = readAs(ApiErrorBody, value)?.error;
  if (error?.message === undefined) return message;
  const said = [error.code, error.status].filter((part) => part !== undefined).join(" ");
  return said === "" ? error.message : `${error.message} (${said})`;
}

function streamUsage(stats: s.Infer<typeof StreamStats>): Usage {
  const usage: Usage = {};
  const input =
    stats.input ?? (stats.input_tokens === undefined ? undefined : stats.input_tokens - (stats.cached ?? 0));
  if (input !== undefined) usage.input = Math.max(0, input);
  if (stats.cached !== undefined) usage.cached = stats.cached;
  if (stats.output_tokens !== undefined) usage.output = stats.output_tokens;
  return usage;
}

function jsonOutputUsage(output: JsonOutput): Usage | undefined {
  let usage: Usage | undefined;
  for (const model of Object.values(output.stats?.models ?? {})) {
    const tokens = model.tokens;
    if (tokens === undefined) continue;
    const input =
      tokens.input ?? (tokens.prompt === undefined ? undefined : tokens.prompt - (tokens.cached ?? 0));
    usage = addUsage(usage, {
      ...(input === undefined ? {} : { input: Math.max(0, input) }),
      ...(tokens.cached === undefined ? {} : { cached: tokens.cached }),
      ...(tokens.candidates === undefined ? {} : { output: tokens.candidates }),
      ...(tokens.thoughts === undefined ? {} : { reasoning: tokens.thoughts }),
    });
  }
  return usage;
}

export function createGeminiStreamJsonParser(): StreamParser {
  const reply = new BoundedText();
  const stderrEvents = createGeminiStderrReader();
  const tools = new ToolTracker();
  let jsonResponse: string | undefined;

  function onJsonOutput(value: unknown): TurnEvent[] | null {
    const output = readAs(JsonOutput, value);
    const recognized =
      output !== null &&
      [output.session_id, output.response, output.stats, output.error].some((f) => f !== undefined);
    if (output === null || !recognized) return null;
    const events: TurnEvent[] = [];
    if (output.session_id !== undefined) events.push({ type: "session", sessionId: output.session_id });
    const usage = jsonOutputUsage(output);
    if (usage !== undefined) events.push({ type: "usage", usage });
    if (output.response !== undefined) {
      jsonResponse = output.response;
      events.push({ type: "text", text: output.response });
    }
    if (output.error !== undefined) return [...events, ...failureEvents(output.error)];
    return [...events, { type: "turn-end", ok: true }];
  }

  function onTyped(type: string, value: unknown): TurnEvent[] | null {
    switch (type) {
      case "init": {
        const init = readAs(Init, value);
        if (init === null) return null;
        return init.session_id === undefined ? [] : [{ type: "session", sessionId: init.session_id }];
      }
      case "message": {
        const message = readAs(Message, value);
        if (message === null) return null;
        if (message.role !== "assistant") return [];
        reply.append(message.content);
        return [{ type: "text", text: message.content, delta: true }];
      }
      case "tool_use": {
        const tool = readAs(ToolUse, value);
        if (tool === null) return null;
        // JSON mode clears `response` at each tool request; the stream's reply does the same.
        reply.clear();
        return [
          tools.start(tool.tool_id, tool.tool_name, () => summarizeTool(tool.tool_name, tool.parameters)),
        ];
      }
      case "tool_result": {
        const result = readAs(ToolResult, value);
        if (result === null) return null;
        return [tools.end(result.tool_id, result.status === "success")];
      }
      case "error": {
        const notice = readAs(ErrorNotice, value);
        if (notice === null) return null;
        return [
          {
            type: "error",
            message: notice.message,
            kind: classifyErrorText(notice.message),
            terminal: false,
          },
        ];
      }
      case "result": {
        const result = readAs(Result, value);
        if (result === null) return null;
        const usage: TurnEvent[] =
          result.stats === undefined ? [] : [{ type: "usage", usage: streamUsage(result.stats) }];
        if (result.status === "success") return [...usage, { type: "turn-end", ok: true }];
        return [...usage, ...failureEvents(result.error)];
      }
      default:
        return [];
    }
  }

  return createJsonLinesParser({
    replyLines: linesOfTypes(["message"]),
    cumulativeUsage: false,
    multiLineObjects: true,
    exitCodeKind: geminiExitCodeKind,
    stderrEvents,
    event(value) {
      const typed = readAs(TypedEvent, value);
      return typed === null ? onJsonOutput(value) : onTyped(typed.type, value);
    },
    reply() {
      return jsonResponse ?? reply.toString();
    },
  });
}
