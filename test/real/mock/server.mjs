#!/usr/bin/env node
// Loopback mock model server for the real-CLI contract suite: one HTTP server on 127.0.0.1 speaking one
// vendor API shape (anthropic | openai-responses | openai-chat | gemini), recording every request.
//
// In-process (preferred):
//   const mock = await startMock({ shape: "anthropic" });   // mock.url = "http://127.0.0.1:<port>"
//   …run the CLI…; mock.requests[0].body; mock.setMode("429"); await mock.close();
// Standalone:
//   node test/real/mock/server.mjs --shape anthropic [--port 0] [--port-file F] [--log F.jsonl]
//        [--mode ok|tool|401|403-model|404-model|429|500|529|429-unified|hang] [--text MOCK-REPLY]
//   (POST /__mock/mode {"mode":"429"} switches the mode, GET /__mock/requests lists the requests)
//
// Each generation request answered in mode `ok` gets the text `<text>-<n>` (n counts this server's
// successful generation requests, so a CLI's side calls consume numbers too) and usage numbers
// input = ceil(request bytes / 4), output = 5 + n. Mode `tool` answers a request that offers a shell
// tool with a call of it (tools.mjs), and the request carrying its result with the text reply. The
// `toolCall` option scripts an MCP host's model instead: the tool it names is called with its input,
// and the request carrying the result gets `<text>-<n> saw: <result>`. The `script` option decides
// per request: an exact text, a call of an offered tool, or a call of the shell tool with a command
// (a model that edits a file, or that answers with a JSON verdict, in a review's turns).
// Failing modes answer every generation request with the vendor's real error body; side routes
// (models, count_tokens) always succeed; unknown routes get 404.
import { appendFileSync, realpathSync, renameSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";
import * as anthropic from "./anthropic.mjs";
import * as gemini from "./gemini.mjs";
import { sendJson } from "./http.mjs";
import * as openaiChat from "./openai-chat.mjs";
import * as openaiResponses from "./openai-responses.mjs";
import { pickShellTool, probeArguments, toolCallFor } from "./tools.mjs";

/** The API shapes, by name. */
export const SHAPES = {
  anthropic,
  "openai-responses": openaiResponses,
  "openai-chat": openaiChat,
  gemini,
};

export const MODES = [
  "ok",
  "tool",
  "401",
  "403-model",
  "404-model",
  "429",
  "500",
  "529",
  "429-unified",
  "hang",
];

const asyncDispose = Symbol.asyncDispose ?? Symbol.for("nodejs.asyncDispose");

function checkMode(mode) {
  if (!MODES.includes(mode))
    throw new Error(`unknown mock mode ${JSON.stringify(mode)}; known: ${MODES.join(", ")}`);
  return mode;
}

function decodeBody(buffer, encoding) {
  switch (encoding) {
    case "gzip":
      return zlib.gunzipSync(buffer);
    case "deflate":
      return zlib.inflateSync(buffer);
    case "br":
      return zlib.brotliDecompressSync(buffer);
    case "zstd":
      return typeof zlib.zstdDecompressSync === "function" ? zlib.zstdDecompressSync(buffer) : undefined;
    default:
      return buffer;
  }
}

/** The text of the tool results a request of `shape` carries (what the host's model is given of
 * them), or undefined when it carries none. */
export function toolResultText(shape, body) {
  return SHAPES[shape]?.toolResultText?.(body);
}

/**
 * Starts a mock on 127.0.0.1.
 * @param {{ shape: keyof typeof SHAPES, mode?: string | string[], text?: string, port?: number, log?: string,
 *   toolCall?: { suffix: string, input: unknown }, script?: (request: { body: unknown, n: number }) => unknown,
 *   delayMs?: number }} options
 */
export async function startMock({
  shape,
  mode = "ok",
  text = "MOCK-REPLY",
  port = 0,
  log,
  toolCall,
  script,
  delayMs: initialDelayMs = 0,
} = {}) {
  const api = SHAPES[shape];
  if (!api)
    throw new Error(`unknown mock shape ${JSON.stringify(shape)}; known: ${Object.keys(SHAPES).join(", ")}`);
  if (toolCall && !api.offeredTool) throw new Error(`the ${shape} mock cannot script a tool call`);
  let modes = (Array.isArray(mode) ? mode : [mode]).map(checkMode);
  let replyText = text;
  let delayMs = initialDelayMs;
  let generations = 0;
  let seq = 0;
  const requests = [];
  const hanging = new Set();

  const nextMode = () => (modes.length > 1 ? modes.shift() : modes[0]);

  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const path = url.pathname;
      const buffer = Buffer.concat(chunks);
      let decoded;
      try {
        decoded = decodeBody(buffer, req.headers["content-encoding"]);
      } catch {
        decoded = undefined;
      }
      const rawBody = decoded ? decoded.toString("utf8") : buffer.toString("base64");
      let body = null;
      if (decoded && rawBody.length > 0) {
        try {
          body = JSON.parse(rawBody);
        } catch {
          body = null;
        }
      }

      if (path.startsWith("/__mock/")) {
        if (req.method === "POST" && path === "/__mock/mode") {
          try {
            const wanted = body?.mode;
            modes = (Array.isArray(wanted) ? wanted : [wanted]).map(checkMode);
            sendJson(res, 200, {}, { mode: modes });
          } catch (error) {
            sendJson(res, 400, {}, { error: String(error) });
          }
        } else if (req.method === "GET" && path === "/__mock/requests") {
          sendJson(res, 200, {}, requests);
        } else sendJson(res, 404, {}, { error: "unknown control route" });
        return;
      }

      const kind = api.route(req.method ?? "GET", path) ?? "unknown";
      const record = {
        seq: ++seq,
        ts: new Date().toISOString(),
        method: req.method ?? "GET",
        url: req.url ?? "/",
        path,
        headers: { ...req.headers },
        body,
        rawBody,
        kind,
        mode: "ok",
        status: 0,
        reply: null,
        toolCall: null,
      };
      requests.push(record);
      const finish = () => {
        if (log) {
          const { rawBody: raw, ...rest } = record;
          appendFileSync(log, `${JSON.stringify(body === null && raw ? { ...rest, rawBody: raw } : rest)}\n`);
        }
      };

      if (kind === "unknown") {
        record.status = 404;
        finish();
        sendJson(
          res,
          404,
          {},
          { error: { message: `mock: no route for ${req.method} ${path}`, type: "not_found" } },
        );
        return;
      }
      const inputTokens = Math.ceil(rawBody.length / 4);
      if (kind !== "generate") {
        record.status = 200;
        finish();
        api.side(res, kind, { body, path, inputTokens });
        return;
      }
      const current = nextMode();
      record.mode = current;
      const answer = () => {
        if (current === "hang") {
          finish();
          hanging.add(res);
          res.on("close", () => hanging.delete(res));
          return;
        }
        if (current === "tool") {
          const call = toolCallFor(api, body, generations + 1);
          if (call !== undefined) {
            const n = ++generations;
            record.status = 200;
            record.reply = `tool:${call.name}`;
            finish();
            api.replyToolCall(res, { body, path, n, call, inputTokens, outputTokens: 5 + n });
            return;
          }
        }
        if (current !== "ok" && current !== "tool") {
          const [status, headers, errorBody] = api.errorResponse(current);
          record.status = status;
          finish();
          sendJson(res, status, headers, errorBody);
          return;
        }
        const n = ++generations;
        const ctx = { body, path, n, inputTokens, outputTokens: 5 + n };
        const scripted = script?.({ body, n, toolResult: api.toolResultText?.(body) });
        if (scripted !== undefined && scripted !== null) {
          const call = scriptedCall(api, body, n, scripted);
          record.status = 200;
          if (call !== undefined) {
            record.toolCall = call.name;
            record.reply = `tool:${call.name}`;
            finish();
            api.replyToolCall(res, { ...ctx, call, preface: scripted.text, after: scripted.after });
            return;
          }
          record.reply = scripted.text;
          finish();
          api.reply(res, { ...ctx, text: scripted.text });
          return;
        }
        // A scripted tool call: the first request offering the tool gets a call of it; one that carries
        // its result gets a reply quoting that result.
        const offered = toolCall ? api.offeredTool(body, toolCall.suffix) : undefined;
        const result = toolCall ? api.toolResultText(body) : undefined;
        if (offered !== undefined && result === undefined) {
          record.status = 200;
          record.toolCall =
            offered.namespace === undefined ? offered.name : `${offered.namespace}__${offered.name}`;
          finish();
          const call = { id: `call_mock_${String(n).padStart(4, "0")}`, ...offered, args: toolCall.input };
          api.replyToolCall(res, { ...ctx, call });
          return;
        }
        const reply = result === undefined ? `${replyText}-${n}` : `${replyText}-${n} saw: ${result}`;
        record.status = 200;
        record.reply = reply;
        finish();
        api.reply(res, { ...ctx, text: reply });
      };
      if (delayMs > 0 && current !== "hang") {
        // A slow model: nothing is sent until the delay has passed.
        hanging.add(res);
        setTimeout(() => {
          hanging.delete(res);
          if (!res.destroyed) answer();
        }, delayMs);
      } else answer();
    });
  });

  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const boundPort = typeof address === "object" && address ? address.port : port;
  let closed;

  const mock = {
    shape,
    port: boundPort,
    url: `http://127.0.0.1:${boundPort}`,
    requests,
    get mode() {
      return modes[0];
    },
    get generations() {
      return generations;
    },
    /** The reply prefix of the following generation requests. */
    setText(next) {
      replyText = next;
    },
    /** How long each following generation request waits before it is answered. */
    setDelay(ms) {
      delayMs = ms;
    },
    /** One mode for every following generation request, or a list used one per request (the last one sticks). */
    setMode(next) {
      modes = (Array.isArray(next) ? next : [next]).map(checkMode);
    },
    /** Generation requests only (side calls such as models or count_tokens left out). */
    generationRequests() {
      return requests.filter((r) => r.kind === "generate");
    },
    /** Whether any recorded request body contains `needle` (raw JSON text or after JSON decoding). */
    sawText(needle) {
      return requests.some(
        (r) =>
          r.rawBody.includes(needle) ||
          (r.body !== null && JSON.stringify(r.body).includes(JSON.stringify(needle).slice(1, -1))),
      );
    },
    close() {
      closed ??= new Promise((resolve) => {
        for (const res of hanging) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
    [asyncDispose]() {
      return mock.close();
    },
  };
  return mock;
}

/** The call a script's answer asks for (`{tool: {suffix, input}}`: an offered tool; `{shell: command}`:
 * the shell tool), or undefined for a text answer (`{text}`). A tool the request does not offer is a
 * mistake of the test's, said as such. */
function scriptedCall(api, body, n, scripted) {
  const id = `call_mock_${String(n).padStart(4, "0")}`;
  if (scripted.tool === undefined && scripted.shell === undefined) return undefined;
  if (scripted.tool !== undefined) {
    const offered = api.offeredTool?.(body, scripted.tool.suffix);
    if (offered === undefined)
      throw new Error(`mock script: no offered tool ends with ${scripted.tool.suffix}`);
    return { id, ...offered, args: scripted.tool.input };
  }
  if (typeof scripted.shell === "string") {
    const tool = pickShellTool(api.offeredTools(body));
    if (tool === undefined) throw new Error("mock script: the request offers no shell tool");
    return { id, name: tool.name, args: probeArguments(tool, scripted.shell) };
  }
  throw new Error(`mock script: answer ${JSON.stringify(scripted)} is none of text, tool, shell`);
}

function parseArgs(argv) {
  const options = {
    shape: undefined,
    port: 0,
    portFile: undefined,
    log: undefined,
    mode: "ok",
    text: "MOCK-REPLY",
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = () => (inline !== undefined ? inline : argv[++i]);
    if (flag === "--shape") options.shape = value();
    else if (flag === "--port") options.port = Number(value());
    else if (flag === "--port-file") options.portFile = value();
    else if (flag === "--log") options.log = value();
    else if (flag === "--mode") options.mode = value();
    else if (flag === "--text") options.text = value();
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (!options.shape) throw new Error(`--shape is required (${Object.keys(SHAPES).join(" | ")})`);
  return options;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const mock = await startMock(options);
  if (options.portFile) {
    writeFileSync(`${options.portFile}.tmp`, `${mock.port}\n`);
    renameSync(`${options.portFile}.tmp`, options.portFile);
  }
  process.stdout.write(`mock ${options.shape} listening on ${mock.url}\n`);
  const stop = () => mock.close().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  main().catch((error) => {
    process.stderr.write(`mock: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  });
}
