// OpenAI Responses API shape (what Codex speaks): POST …/responses (SSE when `stream: true`, else one
// response object), GET …/models. Events and error bodies follow the OpenAI API reference
// (https://platform.openai.com/docs/api-reference/responses-streaming).
import { sendJson, sendSse, splitReply } from "./http.mjs";
import { openAiError, openAiModels } from "./openai-errors.mjs";

export const name = "openai-responses";

export function route(method, path) {
  if (method === "POST" && path.endsWith("/responses")) return "generate";
  if (method === "GET" && path.endsWith("/models")) return "models";
  return undefined;
}

export const errorResponse = openAiError;

export function reply(res, ctx) {
  const itemId = `msg_mock_${String(ctx.n).padStart(4, "0")}`;
  const part = { type: "output_text", text: ctx.text, annotations: [] };
  const item = { id: itemId, type: "message", status: "completed", role: "assistant", content: [part] };
  const base = { item_id: itemId, output_index: 0, content_index: 0 };
  answer(res, ctx, item, { ...item, status: "in_progress", content: [] }, [
    [
      "response.content_part.added",
      { type: "response.content_part.added", ...base, part: { ...part, text: "" } },
    ],
    ...splitReply(ctx.text).map((delta) => [
      "response.output_text.delta",
      { type: "response.output_text.delta", ...base, delta },
    ]),
    ["response.output_text.done", { type: "response.output_text.done", ...base, text: ctx.text }],
    ["response.content_part.done", { type: "response.content_part.done", ...base, part }],
  ]);
}

/** A response of one output `item`, as JSON or as its SSE events (`added`, the item's own `events`,
 * done, completed). */
function answer(res, ctx, item, added, events) {
  const body = ctx.body ?? {};
  const model = typeof body.model === "string" ? body.model : "gpt-mock";
  const num = String(ctx.n).padStart(4, "0");
  const created = Math.floor(Date.now() / 1000);
  const usage = {
    input_tokens: ctx.inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: ctx.outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: ctx.inputTokens + ctx.outputTokens,
  };
  const response = (status, output, u) => ({
    id: `resp_mock_${num}`,
    object: "response",
    created_at: created,
    status,
    model,
    output,
    usage: u,
    error: null,
    incomplete_details: null,
  });
  const headers = { "x-request-id": `req_mock_${num}` };
  if (!body.stream) {
    sendJson(res, 200, headers, response("completed", [item], usage));
    return;
  }
  const all = [
    ["response.created", { type: "response.created", response: response("in_progress", [], null) }],
    ["response.in_progress", { type: "response.in_progress", response: response("in_progress", [], null) }],
    ["response.output_item.added", { type: "response.output_item.added", output_index: 0, item: added }],
    ...events,
    ["response.output_item.done", { type: "response.output_item.done", output_index: 0, item }],
    ["response.completed", { type: "response.completed", response: response("completed", [item], usage) }],
  ].map(([event, data], i) => [event, { ...data, sequence_number: i }]);
  sendSse(res, headers, all);
}

export function side(res) {
  sendJson(res, 200, {}, openAiModels());
}

/** The function tools a request offers, as `{name, schema}`. */
export function offeredTools(body) {
  const tools = Array.isArray(body.tools) ? body.tools : [];
  return tools
    .filter((tool) => tool?.type === "function" && typeof tool.name === "string")
    .map((tool) => ({ name: tool.name, schema: tool.parameters }));
}

/** Whether the input ends with a tool's output. */
export function carriesToolResult(body) {
  const input = Array.isArray(body.input) ? body.input : [];
  const type = input.at(-1)?.type;
  return typeof type === "string" && type.endsWith("_output");
}

/** Answers with one `function_call` output item (in `ctx.call.namespace`, when the call names one). */
export function replyToolCall(res, ctx) {
  const args = JSON.stringify(ctx.call.args);
  const item = {
    id: `fc_mock_${String(ctx.n).padStart(4, "0")}`,
    type: "function_call",
    status: "completed",
    call_id: ctx.call.id,
    name: ctx.call.name,
    ...(ctx.call.namespace === undefined ? {} : { namespace: ctx.call.namespace }),
    arguments: args,
  };
  const position = { item_id: item.id, output_index: 0 };
  answer(res, ctx, item, { ...item, status: "in_progress", arguments: "" }, [
    [
      "response.function_call_arguments.delta",
      { type: "response.function_call_arguments.delta", ...position, delta: args },
    ],
    [
      "response.function_call_arguments.done",
      { type: "response.function_call_arguments.done", ...position, arguments: args },
    ],
  ]);
}

/** The offered function whose `<namespace>__<name>` (or name) ends with `suffix`, as `{name, namespace}`:
 * the `toolCall` option's tool. Codex offers an MCP server's tools as one namespace tool, `mcp__<server>`. */
export function offeredTool(body, suffix) {
  for (const tool of Array.isArray(body?.tools) ? body.tools : []) {
    if (tool?.type === "namespace" && Array.isArray(tool.tools)) {
      const inner = tool.tools.find(
        (each) => typeof each?.name === "string" && `${tool.name}__${each.name}`.endsWith(suffix),
      );
      if (inner !== undefined) return { name: inner.name, namespace: tool.name };
    } else if (typeof tool?.name === "string" && tool.name.endsWith(suffix)) return { name: tool.name };
  }
  return undefined;
}

/** The text of the input's function call outputs, or undefined when it has none yet. */
export function toolResultText(body) {
  const texts = [];
  for (const item of Array.isArray(body?.input) ? body.input : []) {
    if (item?.type !== "function_call_output") continue;
    const output = item.output;
    if (typeof output === "string") texts.push(output);
    else if (Array.isArray(output))
      for (const part of output) if (typeof part?.text === "string") texts.push(part.text);
  }
  return texts.length === 0 ? undefined : texts.join("\n");
}
