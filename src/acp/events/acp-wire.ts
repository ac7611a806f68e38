// The ACP (Agent Client Protocol, v1) messages scv reads from an agent, as lenient shapes: the
// fields a turn needs from `session/update` notifications, a `session/request_permission`'s tool
// call, the `session/prompt` answer, and a JSON-RPC error — with the extensions today's agents put
// in `_meta` (Gemini's quota counts, Qwen's per-call usage, Qwen's tool names, the Codex adapter's
// thread status). Shapes from captures of Gemini CLI 0.61.0, Qwen Code 0.24.4, OpenCode 1.18.33,
// Copilot CLI 1.0.102, claude-agent-acp 0.101.0 and codex-acp 2.6.0 (test/fixtures/acp/) and the
// protocol's schema (@agentclientprotocol/sdk 2.4.0).

import type { FailureKind, TurnFailure, Usage } from "../../parsers/event-types.js";
import { classifyErrorText, kindFromStatus, resetTimeIn, unavailableModel } from "../../parsers/failure.js";
import * as s from "../../parsers/shape.js";
import { maybe, maybeNumber, maybeString, readAs } from "../../parsers/wire.js";

/** ACP's `Usage` (unstable in the protocol): a prompt answer's `usage`, or Qwen's `_meta.usage`. */
const AcpUsage = s.object({
  inputTokens: maybeNumber,
  outputTokens: maybeNumber,
  thoughtTokens: maybeNumber,
  cachedReadTokens: maybeNumber,
  cachedWriteTokens: maybeNumber,
});

/** Gemini CLI's `_meta.quota.token_count` on a prompt answer. */
const GeminiQuota = s.object({
  quota: s.object({ token_count: s.object({ input_tokens: maybeNumber, output_tokens: maybeNumber }) }),
});

export const Notification = s.object({
  sessionId: s.string(),
  update: s.object({ sessionUpdate: s.string() }),
});

export const MessageChunk = s.object({
  content: maybe(s.object({ type: s.string(), text: maybeString })),
  messageId: maybeString,
  _meta: maybe(s.object({ usage: maybe(AcpUsage) })),
});

export const ToolCallFields = s.object({
  toolCallId: s.string(),
  title: maybeString,
  /** read, edit, delete, move, search, execute, think, fetch, switch_mode, other. */
  kind: maybeString,
  /** pending, in_progress, completed, failed. */
  status: maybeString,
  rawInput: s.optional(s.unknown()),
  /** The tool's own name, where the agent gives it (a newer protocol field; Qwen puts it in `_meta`). */
  name: maybeString,
  _meta: maybe(s.object({ toolName: maybeString })),
});
export type ToolCallFields = s.Infer<typeof ToolCallFields>;

export const PermissionRequest = s.object({ toolCall: ToolCallFields });

export const CurrentMode = s.object({ currentModeId: s.string() });

const ConfigOption = s.object({
  id: maybeString,
  category: maybeString,
  currentValue: s.optional(s.unknown()),
});
export const ConfigOptions = s.object({ configOptions: s.array(ConfigOption) });

/** The Codex adapter's thread status and errors, in a `session_info_update`'s `_meta.codex`. */
export const CodexSessionInfo = s.object({
  _meta: s.object({
    codex: s.object({
      /** `active`, `idle`, `systemError`, … */
      threadStatus: maybe(s.object({ type: s.string() })),
      error: maybe(
        s.object({
          message: maybeString,
          willRetry: maybe(s.boolean()),
          codexErrorInfo: maybe(
            s.object({ responseStreamDisconnected: maybe(s.object({ httpStatusCode: maybeNumber })) }),
          ),
        }),
      ),
    }),
  }),
});

export const PromptAnswer = s.object({
  /** end_turn, max_tokens, max_turn_requests, refusal, cancelled. */
  stopReason: s.string(),
  usage: maybe(AcpUsage),
  _meta: maybe(s.unknown()),
});
export type PromptAnswer = s.Infer<typeof PromptAnswer>;

const RpcError = s.object({ code: maybeNumber, message: maybeString, data: s.optional(s.unknown()) });

/** scv's usage from ACP's counters. */
export function usageOf(report: s.Infer<typeof AcpUsage>): Usage {
  return {
    ...(report.inputTokens === undefined ? {} : { input: report.inputTokens }),
    ...(report.cachedReadTokens === undefined ? {} : { cached: report.cachedReadTokens }),
    ...(report.cachedWriteTokens === undefined ? {} : { cacheWrite: report.cachedWriteTokens }),
    ...(report.outputTokens === undefined ? {} : { output: report.outputTokens }),
    ...(report.thoughtTokens === undefined ? {} : { reasoning: report.thoughtTokens }),
  };
}

/** Usage a prompt answer reports: the protocol's `usage`, else Gemini's `_meta.quota`. */
export function answerUsage(answer: PromptAnswer): Usage | undefined {
  if (answer.usage !== undefined) return usageOf(answer.usage);
  const quota = readAs(GeminiQuota, answer._meta)?.quota.token_count;
  if (quota === undefined) return undefined;
  return {
    ...(quota.input_tokens === undefined ? {} : { input: quota.input_tokens }),
    ...(quota.output_tokens === undefined ? {} : { output: quota.output_tokens }),
  };
}

/** The option whose value is the session's mode, by category (Qwen, Copilot) or id. */
export function modeOption(options: s.Infer<typeof ConfigOptions>["configOptions"]): string | undefined {
  const option = options.find((candidate) => candidate.category === "mode" || candidate.id === "mode");
  return typeof option?.currentValue === "string" ? option.currentValue : undefined;
}

// JSON-RPC's own codes: what the agent says about the request itself, not an HTTP status.
const JSON_RPC_CODES = new Set([-32700, -32600, -32601, -32602, -32603, -32800, -32000, -32002]);
/** ACP's `auth_required`: the Claude and Codex adapters answer a 401 with it. */
const AUTH_REQUIRED = -32000;
/** JSON-RPC's invalid params: naming the model, the model value was refused (the Claude adapter's
 * "Invalid value for config option model: …"). */
const INVALID_PARAMS = -32602;

/** The most specific words of an error: an HTTP body's `error.message` (Gemini sends the body as
 * the message), `data.details` (Qwen's `Internal error`), `data.message`, or the message. */
function errorWords(message: string | undefined, data: unknown): string {
  const record = typeof data === "object" && data !== null ? (data as Record<string, unknown>) : {};
  for (const candidate of [record.details, record.message, record.error]) {
    if (typeof candidate === "string" && candidate.trim() !== "") return candidate;
  }
  const text = message ?? "";
  if (text.trimStart().startsWith("{")) {
    try {
      const body = JSON.parse(text) as { error?: { message?: unknown } };
      if (typeof body.error?.message === "string") return body.error.message;
    } catch {
      // Not JSON after all: the message as it is.
    }
  }
  return text === "" ? "the agent answered with an error" : text;
}

/** A failure from a JSON-RPC error an agent answered a request with, or null when it is not one. */
/** A JSON-RPC error's code, where it has one. */
export function rpcErrorCode(value: unknown): number | undefined {
  return readAs(RpcError, value)?.code;
}

export function failureOfRpcError(value: unknown): TurnFailure | null {
  const error = readAs(RpcError, value);
  if (error === null) return null;
  const words = errorWords(error.message, error.data);
  const message = words.replace(/\s+/g, " ").trim();
  // Gemini CLI answers with the HTTP status as the code (401, 429).
  const status = error.code !== undefined && !JSON_RPC_CODES.has(error.code) ? error.code : undefined;
  const kind: FailureKind =
    unavailableModel(message) ??
    kindFromStatus(status) ??
    (error.code === AUTH_REQUIRED ? "auth" : undefined) ??
    (error.code === INVALID_PARAMS && /\bmodel\b/i.test(message) ? "model" : classifyErrorText(message));
  const resetsAt = kind === "rate-limit" ? resetTimeIn(words) : undefined;
  return resetsAt === undefined ? { kind, message } : { kind, message, resetsAt };
}
