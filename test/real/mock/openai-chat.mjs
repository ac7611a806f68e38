// OpenAI Chat Completions shape (pi, qwen, opencode, copilot BYOK): POST …/chat/completions (SSE chunks
// when `stream: true`, plus a final usage chunk when `stream_options.include_usage`, then `data: [DONE]`;
// else one chat.completion object), GET …/models.
import { sendJson, sendSse, splitReply } from "./http.mjs";
import { openAiError, openAiModels } from "./openai-errors.mjs";

export const name = "openai-chat";

export function route(method, path) {
  if (method === "POST" && path.endsWith("/chat/completions")) return "generate";
  if (method === "GET" && path.endsWith("/models")) return "models";
  return undefined;
}

export const errorResponse = openAiError;

export function reply(res, ctx) {
  answer(res, ctx, {
    message: { role: "assistant", content: ctx.text },
    deltas: [{ role: "assistant", content: "" }, ...splitReply(ctx.text).map((content) => ({ content }))],
    finishReason: "stop",
  });
}

/** One answer, as a chat.completion or as its SSE chunks (`deltas`, then the finish and usage). */
function answer(res, ctx, { message, deltas, finishReason }) {
  const body = ctx.body ?? {};
  const model = typeof body.model === "string" ? body.model : "mock-model";
  const id = `chatcmpl-mock-${String(ctx.n).padStart(4, "0")}`;
  const created = Math.floor(Date.now() / 1000);
  const usage = {
    prompt_tokens: ctx.inputTokens,
    completion_tokens: ctx.outputTokens,
    total_tokens: ctx.inputTokens + ctx.outputTokens,
    prompt_tokens_details: { cached_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0 },
  };
  const headers = { "x-request-id": `req_mock_${String(ctx.n).padStart(4, "0")}` };
  if (!body.stream) {
    sendJson(res, 200, headers, {
      id,
      object: "chat.completion",
      created,
      model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
      usage,
    });
    return;
  }
  const chunk = (choices, extra = {}) => [
    null,
    { id, object: "chat.completion.chunk", created, model, choices, ...extra },
  ];
  const events = [
    ...deltas.map((delta) => chunk([{ index: 0, delta, finish_reason: null }])),
    chunk([{ index: 0, delta: {}, finish_reason: finishReason }]),
  ];
  if (body.stream_options?.include_usage) events.push(chunk([], { usage }));
  events.push([null, "[DONE]"]);
  sendSse(res, headers, events);
}

export function side(res) {
  sendJson(res, 200, {}, openAiModels());
}

/** The function tools a request offers, as `{name, schema}`. */
export function offeredTools(body) {
  const tools = Array.isArray(body.tools) ? body.tools : [];
  return tools
    .filter((tool) => tool?.type === "function" && typeof tool.function?.name === "string")
    .map((tool) => ({ name: tool.function.name, schema: tool.function.parameters }));
}

/** Whether the conversation ends with a tool's result. */
export function carriesToolResult(body) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  return messages.at(-1)?.role === "tool";
}

/** Answers with one call of `ctx.call`, streamed as a name chunk and an arguments chunk. */
export function replyToolCall(res, ctx) {
  const { call } = ctx;
  const args = JSON.stringify(call.args);
  const named = { index: 0, id: call.id, type: "function", function: { name: call.name, arguments: "" } };
  answer(res, ctx, {
    message: {
      role: "assistant",
      content: null,
      tool_calls: [{ ...named, function: { ...named.function, arguments: args } }],
    },
    deltas: [
      { role: "assistant", content: null },
      { tool_calls: [named] },
      { tool_calls: [{ index: 0, function: { arguments: args } }] },
    ],
    finishReason: "tool_calls",
  });
}

/** The offered function whose name ends with `suffix`, as `{name}`: the `toolCall` option's tool (pi
 * declares an MCP tool of `direct` exposure as the function `mcp__<server>__<tool>`). */
export function offeredTool(body, suffix) {
  return offeredTools(body ?? {})
    .map(({ name }) => ({ name }))
    .find(({ name }) => name.endsWith(suffix));
}

/** The text of the conversation's tool results (`role: "tool"` messages, their content a string or
 * text parts), or undefined when it has none yet. */
export function toolResultText(body) {
  const texts = [];
  for (const message of Array.isArray(body?.messages) ? body.messages : []) {
    if (message?.role !== "tool") continue;
    const content = message.content;
    if (typeof content === "string") texts.push(content);
    else if (Array.isArray(content))
      for (const part of content) if (typeof part?.text === "string") texts.push(part.text);
  }
  return texts.length === 0 ? undefined : texts.join("\n");
}
