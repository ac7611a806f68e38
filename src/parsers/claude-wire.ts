// Wire types of Claude Code's `stream-json` (SDKMessage in `@anthropic-ai/claude-agent-sdk`
// sdk.d.ts) and of the CLIs that copy it: Qwen Code, Amp, Cursor. Only the fields scv reads are
// checked, and only they are kept (see wire.ts). Field names are the producers' own.

import type { StringPlace } from "./elision.js";
import type { Usage } from "./event-types.js";
import * as s from "./shape.js";
import { isSummaryArgument } from "./tool-summary.js";
import { maybe, maybeBoolean, maybeNumber, maybeString } from "./wire.js";

/** Token counts in any of the spellings these CLIs use (Anthropic snake_case, Claude `modelUsage`
 * and Cursor camelCase). */
export const TokenCounts = s.object({
  input_tokens: maybeNumber,
  output_tokens: maybeNumber,
  cache_read_input_tokens: maybeNumber,
  cache_creation_input_tokens: maybeNumber,
  inputTokens: maybeNumber,
  outputTokens: maybeNumber,
  cacheReadInputTokens: maybeNumber,
  cacheCreationInputTokens: maybeNumber,
  /** Cursor's spelling of cache reads and writes. */
  cacheReadTokens: maybeNumber,
  cacheWriteTokens: maybeNumber,
  /** Claude `modelUsage` only. */
  thinkingTokens: maybeNumber,
  costUSD: maybeNumber,
});
export type TokenCounts = s.Infer<typeof TokenCounts>;

export const ContentBlock = s.object({
  /** `text`, `thinking`, `tool_use`, `tool_result`, … */
  type: s.string(),
  text: maybeString,
  /** tool_use */
  id: maybeString,
  name: maybeString,
  input: s.optional(s.unknown()),
  /** tool_result */
  tool_use_id: maybeString,
  is_error: maybeBoolean,
});
export type ContentBlock = s.Infer<typeof ContentBlock>;

/** A message's content: user messages may carry a plain string instead of blocks. */
const Content = maybe(s.union([s.array(ContentBlock), s.string()]));

export const SystemEvent = s.object({
  type: s.literal("system"),
  /** `init`, `status`, `api_retry`, `hook_started`, `hook_response`, Qwen `retry`, … */
  subtype: maybeString,
  session_id: maybeString,
  /** Claude and Cursor. */
  permissionMode: maybeString,
  /** Qwen. */
  permission_mode: maybeString,
  /** api_retry */
  attempt: maybeNumber,
  max_retries: maybeNumber,
  retry_delay_ms: maybeNumber,
  error_status: maybe(s.nullable(s.number())),
  error: maybeString,
  /** Qwen retry */
  data: maybe(s.object({ attempt: maybeNumber, maxRetries: maybeNumber, delayMs: maybeNumber })),
});

export const AssistantEvent = s.object({
  type: s.literal("assistant"),
  message: s.object({
    /** Shared by the one-line-per-content-block lines of one API message. */
    id: maybeString,
    content: Content,
    /** `TokenCounts`, read (with `readAs`) only by the flavours that sum it: the others take usage
     * from the result, and checking its twelve spellings on every line was a third of the cost. */
    usage: s.optional(s.unknown()),
  }),
  /** Set on a subagent's messages. */
  parent_tool_use_id: maybe(s.nullable(s.string())),
  session_id: maybeString,
  /** On a synthetic error message: `authentication_failed`, `rate_limit`, `billing_error`, … */
  error: maybeString,
  api_error_status: maybe(s.nullable(s.number())),
  /** Cursor with partial output: a repeat of text already sent. */
  model_call_id: maybeString,
});
export type AssistantEvent = s.Infer<typeof AssistantEvent>;

export const UserEvent = s.object({
  type: s.literal("user"),
  message: s.object({ content: Content }),
  session_id: maybeString,
});

export const RateLimitEvent = s.object({
  type: s.literal("rate_limit_event"),
  rate_limit_info: s.object({
    /** `allowed`, `allowed_warning`, `rejected`. */
    status: maybeString,
    /** Epoch seconds. */
    resetsAt: maybeNumber,
    /** Which window: `five_hour`, `seven_day`, … */
    rateLimitType: maybeString,
    /** 0 to 1. */
    utilization: maybeNumber,
  }),
  session_id: maybeString,
});

export const ResultEvent = s.object({
  type: s.literal("result"),
  subtype: maybeString,
  /** The verdict: `subtype` stays `success` on auth and rate-limit failures. */
  is_error: maybeBoolean,
  /** The final text on success; the error text on Claude's API failures. */
  result: maybeString,
  /** Claude with `--json-schema`: the object its StructuredOutput tool was given, validated against
   * the schema; `result` then holds it as JSON only when the model wrote no text after the call. */
  structured_output: s.optional(s.unknown()),
  session_id: maybeString,
  stop_reason: maybe(s.nullable(s.string())),
  /** Claude: cumulative across resumes. */
  total_cost_usd: maybeNumber,
  usage: maybe(TokenCounts),
  /** Claude: per model, cumulative across resumes. */
  modelUsage: maybe(s.record(TokenCounts)),
  api_error_status: maybe(s.nullable(s.number())),
  /** Claude's error subtypes. */
  errors: maybe(s.array(s.string())),
  /** Amp: a string; Qwen: `{message}`. */
  error: maybe(s.union([s.string(), s.object({ message: maybeString })])),
});
export type ResultEvent = s.Infer<typeof ResultEvent>;

/** Cursor's `tool_call`: `{ <kind>ToolCall: { args, result? } }` or `{ function: { name, arguments } }`. */
export const CursorToolCallEvent = s.object({
  type: s.literal("tool_call"),
  /** `started` or `completed`. */
  subtype: s.string(),
  call_id: s.string(),
  tool_call: s.record(s.unknown()),
  session_id: maybeString,
});
export type CursorToolCallEvent = s.Infer<typeof CursorToolCallEvent>;

/** Normalized usage from token counts in any spelling. */
export function usageOfCounts(counts: TokenCounts): Usage {
  const usage: Usage = {};
  const input = counts.input_tokens ?? counts.inputTokens;
  const cached = counts.cache_read_input_tokens ?? counts.cacheReadInputTokens ?? counts.cacheReadTokens;
  const cacheWrite =
    counts.cache_creation_input_tokens ?? counts.cacheCreationInputTokens ?? counts.cacheWriteTokens;
  const output = counts.output_tokens ?? counts.outputTokens;
  if (input !== undefined) usage.input = input;
  if (cached !== undefined) usage.cached = cached;
  if (cacheWrite !== undefined) usage.cacheWrite = cacheWrite;
  if (output !== undefined) usage.output = output;
  if (counts.thinkingTokens !== undefined) usage.reasoning = counts.thinkingTokens;
  if (counts.costUSD !== undefined) usage.costUsd = counts.costUSD;
  return usage;
}

/** The text of a failed result, wherever this CLI put it. */
export function resultErrorText(result: ResultEvent): string | undefined {
  const { error } = result;
  const fromError = typeof error === "string" ? error : error?.message;
  const candidates = [fromError, result.errors?.join("\n"), result.result];
  return candidates.find((text) => text !== undefined && text.trim() !== "")?.trim();
}

/** Content block fields scv never reads: thinking text and its signature, redacted thinking, an
 * image's source, and a tool result's content (string or blocks). */
const UNREAD_BLOCK_FIELDS: ReadonlySet<string> = new Set([
  "thinking",
  "signature",
  "data",
  "source",
  "content",
]);

/**
 * The long strings of these events scv never reads (elision.ts): `tool_use_result`, Claude Code's
 * second copy of each tool's output; a tool result's content; thinking; a message's content given
 * as one string (only blocks are read); and a tool input's fields that the one-line summary does
 * not read. Never a text block (the reply), an id, an error or usage.
 */
export function claudeElidable({ path }: StringPlace): boolean {
  const [top, field, element, blockField, argument] = path;
  if (top === "tool_use_result") return true;
  if (top !== "message" || field !== "content") return false;
  if (path.length === 2) return true;
  if (element !== "[]" || blockField === undefined) return false;
  if (blockField === "input") return argument === undefined || !isSummaryArgument(argument);
  return UNREAD_BLOCK_FIELDS.has(blockField);
}
