// Gemini API shape (gemini-cli with an API key): POST /<ver>/models/<m>:streamGenerateContent?alt=sse,
// :generateContent, :countTokens, GET /<ver>/models. A request that asks for JSON output
// (generationConfig.responseMimeType application/json) gets JSON built from its schema, so the CLI's
// side calls (routing, next-speaker checks) parse. Error bodies are google.rpc.Status as the API sends them.
import { sendJson, sendSse, splitReply } from "./http.mjs";

export const name = "gemini";

const MODEL_PATH = /\/models\/([^/:]+):(streamGenerateContent|generateContent|countTokens)$/;

export function route(method, path) {
  const match = MODEL_PATH.exec(path);
  if (method === "POST" && match) return match[2] === "countTokens" ? "count_tokens" : "generate";
  if (method === "GET" && /\/models$/.test(path)) return "models";
  return undefined;
}

const ERRORS = {
  401: {
    code: 401,
    message: "API key not valid. Please pass a valid API key. (mock)",
    status: "UNAUTHENTICATED",
    details: [
      {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        reason: "API_KEY_INVALID",
        domain: "googleapis.com",
      },
    ],
  },
  429: {
    code: 429,
    message: "You exceeded your current quota, please check your plan and billing details. (mock)",
    status: "RESOURCE_EXHAUSTED",
    details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "1s" }],
  },
  403: {
    code: 403,
    message: "Permission denied: this project is not allowed to use model gemini-mock-denied. (mock)",
    status: "PERMISSION_DENIED",
  },
  404: {
    code: 404,
    message:
      "models/gemini-mock-missing is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.",
    status: "NOT_FOUND",
  },
  500: { code: 500, message: "An internal error has occurred. (mock)", status: "INTERNAL" },
};

export function errorResponse(mode) {
  const parsed = Number.parseInt(mode, 10);
  const status = parsed in ERRORS ? parsed : 500;
  return [status, {}, { error: ERRORS[status] }];
}

/** A value matching a (Gemini `Schema` or JSON Schema) schema: first enum value, empty arrays, all properties. */
export function fromSchema(schema, depth = 0) {
  if (!schema || typeof schema !== "object" || depth > 8) return null;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (Array.isArray(schema.anyOf) && schema.anyOf.length > 0) return fromSchema(schema.anyOf[0], depth + 1);
  const type = String(Array.isArray(schema.type) ? schema.type[0] : (schema.type ?? "object")).toLowerCase();
  switch (type) {
    case "object": {
      const out = {};
      for (const [key, value] of Object.entries(schema.properties ?? {}))
        out[key] = fromSchema(value, depth + 1);
      return out;
    }
    case "array":
      return [];
    case "string":
      return "mock";
    case "number":
    case "integer":
      return 0;
    case "boolean":
      return false;
    default:
      return null;
  }
}

function replyText(ctx) {
  const config = ctx.body?.generationConfig ?? {};
  if (config.responseMimeType !== "application/json") return ctx.text;
  const schema = config.responseJsonSchema ?? config.responseSchema ?? config._responseJsonSchema;
  return JSON.stringify(fromSchema(schema) ?? {});
}

export function reply(res, ctx) {
  const model = MODEL_PATH.exec(ctx.path)?.[1] ?? "gemini-mock";
  const text = replyText(ctx);
  const usageMetadata = {
    promptTokenCount: ctx.inputTokens,
    candidatesTokenCount: ctx.outputTokens,
    totalTokenCount: ctx.inputTokens + ctx.outputTokens,
  };
  const responseId = `mock-${String(ctx.n).padStart(4, "0")}`;
  const candidate = (part, finishReason) => ({
    candidates: [
      {
        content: { parts: [{ text: part }], role: "model" },
        index: 0,
        ...(finishReason ? { finishReason } : {}),
      },
    ],
    usageMetadata,
    modelVersion: model,
    responseId,
  });
  if (!ctx.path.endsWith(":streamGenerateContent")) {
    sendJson(res, 200, {}, candidate(text, "STOP"));
    return;
  }
  const parts = text === ctx.text ? splitReply(text) : [text];
  sendSse(
    res,
    {},
    parts.map((part, i) => [null, candidate(part, i === parts.length - 1 ? "STOP" : undefined)]),
  );
}

export function side(res, kind, ctx) {
  if (kind === "count_tokens") {
    sendJson(res, 200, {}, { totalTokens: ctx.inputTokens });
    return;
  }
  const models = ["gemini-2.5-flash", "gemini-2.5-pro", "gemini-2.5-flash-lite"].map((id) => ({
    name: `models/${id}`,
    displayName: id,
    supportedGenerationMethods: ["generateContent", "streamGenerateContent", "countTokens"],
  }));
  sendJson(res, 200, {}, { models });
}

/** The function declarations a request offers, as `{name, schema}`. */
export function offeredTools(body) {
  const tools = Array.isArray(body.tools) ? body.tools : [];
  return tools
    .flatMap((tool) => (Array.isArray(tool?.functionDeclarations) ? tool.functionDeclarations : []))
    .filter((declaration) => typeof declaration?.name === "string")
    .map((declaration) => ({
      name: declaration.name,
      schema: declaration.parametersJsonSchema ?? declaration.parameters,
    }));
}

/** Whether the conversation ends with a function's response. */
export function carriesToolResult(body) {
  const contents = Array.isArray(body.contents) ? body.contents : [];
  const parts = contents.at(-1)?.parts;
  return Array.isArray(parts) && parts.some((part) => part?.functionResponse !== undefined);
}

/** Answers with one `functionCall` part. */
export function replyToolCall(res, ctx) {
  const model = MODEL_PATH.exec(ctx.path)?.[1] ?? "gemini-mock";
  const chunk = {
    candidates: [
      {
        content: { parts: [{ functionCall: { name: ctx.call.name, args: ctx.call.args } }], role: "model" },
        index: 0,
        finishReason: "STOP",
      },
    ],
    usageMetadata: {
      promptTokenCount: ctx.inputTokens,
      candidatesTokenCount: ctx.outputTokens,
      totalTokenCount: ctx.inputTokens + ctx.outputTokens,
    },
    modelVersion: model,
    responseId: `mock-${String(ctx.n).padStart(4, "0")}`,
  };
  if (!ctx.path.endsWith(":streamGenerateContent")) sendJson(res, 200, {}, chunk);
  else sendSse(res, {}, [[null, chunk]]);
}
