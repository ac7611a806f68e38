// Anthropic Messages API shape: POST /v1/messages[?beta=true] (SSE when `stream: true`, else one JSON
// message), POST /v1/messages/count_tokens, GET /v1/models. Event order and error bodies follow
// https://docs.anthropic.com/en/api/messages-streaming and /en/api/errors (what Claude Code's SDK parses).
import { sendJson, sendSse, splitReply } from "./http.mjs";

export const name = "anthropic";

/** @param {string} method @param {string} path */
export function route(method, path) {
  if (method === "POST" && path.endsWith("/messages/count_tokens")) return "count_tokens";
  if (method === "POST" && path.endsWith("/messages")) return "generate";
  if (method === "GET" && path.endsWith("/models")) return "models";
  return undefined;
}

const ERRORS = {
  401: ["authentication_error", "invalid x-api-key (mock)"],
  403: ["permission_error", "Your organization does not have access to model claude-mock-denied. (mock)"],
  404: ["not_found_error", "model: claude-mock-missing"],
  429: [
    "rate_limit_error",
    "This request would exceed the rate limit for your organization of 50 requests per minute. (mock)",
  ],
  500: ["api_error", "Internal server error (mock)"],
  529: ["overloaded_error", "Overloaded (mock)"],
};

/** Error response for a failing mode: [status, headers, body]. */
export function errorResponse(mode) {
  const status = Number.parseInt(mode, 10);
  const [type, message] = ERRORS[status] ?? ERRORS[500];
  const requestId = `req_mock_${status}`;
  const headers = { "request-id": requestId };
  if (status === 429) headers["retry-after"] = "1";
  if (mode === "429-unified") {
    const reset = Math.floor(Date.now() / 1000) + 3600;
    Object.assign(headers, {
      "anthropic-ratelimit-unified-status": "rejected",
      "anthropic-ratelimit-unified-reset": String(reset),
      "anthropic-ratelimit-unified-representative-claim": "five_hour",
      "anthropic-ratelimit-unified-5h-status": "rejected",
      "anthropic-ratelimit-unified-5h-reset": String(reset),
      "anthropic-ratelimit-unified-5h-utilization": "1.0",
    });
  }
  return [status, headers, { type: "error", error: { type, message }, request_id: requestId }];
}

/** Answers a generation request with the reply text. */
export function reply(res, ctx) {
  answer(res, ctx, {
    block: { type: "text", text: ctx.text },
    deltas: splitReply(ctx.text).map((text) => ({ type: "text_delta", text })),
    stopReason: "end_turn",
  });
}

/** A text block and its deltas. */
function textPart(text) {
  return {
    block: { type: "text", text },
    deltas: splitReply(text).map((each) => ({ type: "text_delta", text: each })),
  };
}

/** One message of one content block (a tool call's between a script's `ctx.preface` and `ctx.after`
 * text blocks, where it gave them), as JSON or as its SSE events (the block's `deltas` among them). */
function answer(res, ctx, { block: main, deltas: mainDeltas, stopReason }) {
  const call = main.type !== "text";
  const parts = [
    ...(call && typeof ctx.preface === "string" ? [textPart(ctx.preface)] : []),
    { block: main, deltas: mainDeltas },
    ...(call && typeof ctx.after === "string" ? [textPart(ctx.after)] : []),
  ];
  const body = ctx.body ?? {};
  const model = typeof body.model === "string" ? body.model : "claude-mock";
  const id = `msg_mock_${String(ctx.n).padStart(4, "0")}`;
  const usage = {
    input_tokens: ctx.inputTokens,
    output_tokens: ctx.outputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
  const headers = { "request-id": `req_mock_${ctx.n}` };
  if (!body.stream) {
    sendJson(res, 200, headers, {
      id,
      type: "message",
      role: "assistant",
      model,
      content: parts.map((part) => part.block),
      stop_reason: stopReason,
      stop_sequence: null,
      usage,
    });
    return;
  }
  const events = [
    [
      "message_start",
      {
        type: "message_start",
        message: {
          id,
          type: "message",
          role: "assistant",
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...usage, output_tokens: 1 },
        },
      },
    ],
    ["ping", { type: "ping" }],
    ...parts.flatMap(({ block, deltas }, index) => [
      [
        "content_block_start",
        {
          type: "content_block_start",
          index,
          content_block: block.type === "text" ? { ...block, text: "" } : { ...block, input: {} },
        },
      ],
      ...deltas.map((delta) => ["content_block_delta", { type: "content_block_delta", index, delta }]),
      ["content_block_stop", { type: "content_block_stop", index }],
    ]),
    [
      "message_delta",
      {
        type: "message_delta",
        delta: { stop_reason: stopReason, stop_sequence: null },
        usage: { output_tokens: ctx.outputTokens },
      },
    ],
    ["message_stop", { type: "message_stop" }],
  ];
  sendSse(res, headers, events);
}

/** Answers the side endpoints. */
export function side(res, kind, ctx) {
  if (kind === "count_tokens") {
    sendJson(res, 200, {}, { input_tokens: ctx.inputTokens });
    return;
  }
  const models = ["claude-sonnet-mock", "claude-opus-mock", "claude-haiku-mock"].map((id) => ({
    type: "model",
    id,
    display_name: id,
    created_at: "2026-01-01T00:00:00Z",
  }));
  sendJson(res, 200, {}, { data: models, has_more: false, first_id: models[0].id, last_id: models[2].id });
}

/** The client tools a request offers, as `{name, schema}`. */
export function offeredTools(body) {
  const tools = Array.isArray(body.tools) ? body.tools : [];
  return tools
    .filter((tool) => typeof tool?.name === "string" && tool.input_schema !== undefined)
    .map((tool) => ({ name: tool.name, schema: tool.input_schema }));
}

/** Whether the conversation ends with a `tool_result` block. */
export function carriesToolResult(body) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const content = messages.at(-1)?.content;
  return Array.isArray(content) && content.some((block) => block?.type === "tool_result");
}

/** Answers with one `tool_use` block (its input streamed as one `input_json_delta`). */
export function replyToolCall(res, ctx) {
  const id = `toolu_mock_${String(ctx.n).padStart(4, "0")}`;
  answer(res, ctx, {
    block: { type: "tool_use", id, name: ctx.call.name, input: ctx.call.args },
    deltas: [{ type: "input_json_delta", partial_json: JSON.stringify(ctx.call.args) }],
    stopReason: "tool_use",
  });
}

/** The offered tool whose name ends with `suffix` (`mcp__scv__delegate` for `__delegate`), as `{name}`:
 * the `toolCall` option's tool. */
export function offeredTool(body, suffix) {
  const tool = offeredTools(body).find((each) => each.name.endsWith(suffix));
  return tool === undefined ? undefined : { name: tool.name };
}

/** The text of the conversation's tool results, or undefined when it has none yet. */
export function toolResultText(body) {
  const texts = [];
  for (const message of Array.isArray(body?.messages) ? body.messages : []) {
    if (!Array.isArray(message?.content)) continue;
    for (const block of message.content) {
      if (block?.type !== "tool_result") continue;
      const content = block.content;
      if (typeof content === "string") texts.push(content);
      else if (Array.isArray(content))
        for (const part of content) if (part?.type === "text") texts.push(part.text);
    }
  }
  return texts.length === 0 ? undefined : texts.join("\n");
}
