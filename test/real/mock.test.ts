// The mock model servers themselves: routes, SSE framing, modes and request recording (no CLI needed).
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { type MockServer, type MockShape, startMock } from "./mock/server.mjs";

const GENERATE: Record<MockShape, string> = {
  anthropic: "/v1/messages?beta=true",
  "openai-responses": "/v1/responses",
  "openai-chat": "/v1/chat/completions",
  gemini: "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
};

const REQUEST = {
  model: "mock-model",
  stream: true,
  stream_options: { include_usage: true },
  messages: [{ role: "user", content: "-x say hi" }],
};

/** The `data:` payloads of an SSE body, JSON-decoded where possible. */
function sseData(text: string): unknown[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => line.slice("data: ".length))
    .map((data) => (data === "[DONE]" ? data : JSON.parse(data)));
}

/** The reply text carried by a stream of one shape (its deltas concatenated). */
function streamedText(shape: MockShape, data: unknown[]): string {
  // biome-ignore lint/suspicious/noExplicitAny: test-only digging into wire JSON
  const parts = (data.filter((d) => typeof d === "object") as any[]).map((d) => {
    switch (shape) {
      case "anthropic":
        return d.type === "content_block_delta" ? d.delta.text : "";
      case "openai-responses":
        return d.type === "response.output_text.delta" ? d.delta : "";
      case "openai-chat":
        return d.choices?.[0]?.delta?.content ?? "";
      default:
        return d.candidates?.[0]?.content?.parts?.[0]?.text ?? "";
    }
  });
  return parts.join("");
}

let mock: MockServer | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function post(server: MockServer, path: string, body: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer sk-test" },
    body: JSON.stringify(body),
  });
}

describe("startMock", () => {
  it.each(Object.keys(GENERATE) as MockShape[])(
    "%s streams MOCK-REPLY-<n> and records the request",
    async (shape) => {
      mock = await startMock({ shape });
      expect(mock.url).toBe(`http://127.0.0.1:${mock.port}`);
      for (const n of [1, 2]) {
        const res = await post(mock, GENERATE[shape], REQUEST);
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toContain("text/event-stream");
        const text = await res.text();
        expect(streamedText(shape, sseData(text))).toBe(`MOCK-REPLY-${n}`);
        expect(mock.generations).toBe(n);
      }
      expect(mock.requests).toHaveLength(2);
      const [first] = mock.requests;
      expect(first).toMatchObject({
        seq: 1,
        method: "POST",
        kind: "generate",
        status: 200,
        reply: "MOCK-REPLY-1",
      });
      expect(first?.headers.authorization).toBe("Bearer sk-test");
      expect(first?.body).toEqual(REQUEST);
      expect(mock.sawText("-x say hi")).toBe(true);
    },
  );

  it("anthropic: message events in order, final usage in message_delta", async () => {
    mock = await startMock({ shape: "anthropic" });
    const text = await (await post(mock, GENERATE.anthropic, REQUEST)).text();
    const events = [...text.matchAll(/^event: (\S+)$/gm)].map((m) => m[1]);
    expect(events[0]).toBe("message_start");
    expect(events.at(-2)).toBe("message_delta");
    expect(events.at(-1)).toBe("message_stop");
    const deltas = sseData(text).filter((d) => (d as { type: string }).type === "content_block_delta");
    expect(deltas.map((d) => (d as { delta: { text: string } }).delta.text).join("")).toBe("MOCK-REPLY-1");
  });

  it("openai-chat: a usage chunk only when stream_options.include_usage, then [DONE]", async () => {
    mock = await startMock({ shape: "openai-chat" });
    const withUsage = sseData(await (await post(mock, GENERATE["openai-chat"], REQUEST)).text());
    expect(withUsage.at(-1)).toBe("[DONE]");
    expect(withUsage.at(-2)).toMatchObject({ choices: [], usage: { completion_tokens: 6 } });
    const without = sseData(
      await (await post(mock, GENERATE["openai-chat"], { ...REQUEST, stream_options: undefined })).text(),
    );
    expect(without.some((d) => typeof d === "object" && d !== null && "usage" in d)).toBe(false);
  });

  it("openai-responses: ends with response.completed carrying usage", async () => {
    mock = await startMock({ shape: "openai-responses" });
    const data = sseData(await (await post(mock, GENERATE["openai-responses"], REQUEST)).text());
    expect(data.at(-1)).toMatchObject({
      type: "response.completed",
      response: { status: "completed", usage: { output_tokens: 6 } },
    });
  });

  it("gemini: answers JSON from the schema when JSON output is asked for", async () => {
    mock = await startMock({ shape: "gemini" });
    const res = await post(mock, "/v1beta/models/gemini-2.5-flash:generateContent", {
      generationConfig: {
        responseMimeType: "application/json",
        responseJsonSchema: {
          type: "object",
          properties: {
            reasoning: { type: "string" },
            model_choice: { type: "string", enum: ["flash", "pro"] },
          },
        },
      },
    });
    const body = (await res.json()) as { candidates: { content: { parts: { text: string }[] } }[] };
    expect(JSON.parse(body.candidates[0]?.content.parts[0]?.text ?? "")).toEqual({
      reasoning: "mock",
      model_choice: "flash",
    });
  });

  it.each([
    ["anthropic", "429", 429, { type: "error", error: { type: "rate_limit_error" } }],
    ["anthropic", "401", 401, { type: "error", error: { type: "authentication_error" } }],
    ["anthropic", "529", 529, { type: "error", error: { type: "overloaded_error" } }],
    ["openai-responses", "401", 401, { error: { code: "invalid_api_key" } }],
    ["openai-chat", "429", 429, { error: { code: "rate_limit_exceeded" } }],
    ["openai-chat", "500", 500, { error: { type: "server_error" } }],
    ["gemini", "429", 429, { error: { code: 429, status: "RESOURCE_EXHAUSTED" } }],
    ["gemini", "401", 401, { error: { code: 401, status: "UNAUTHENTICATED" } }],
  ] as const)("%s mode %s answers %i with the vendor's error body", async (shape, mode, status, expected) => {
    mock = await startMock({ shape, mode });
    const res = await post(mock, GENERATE[shape], REQUEST);
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject(expected);
    if (status === 429 && shape !== "gemini") expect(res.headers.get("retry-after")).toBe("1");
    expect(mock.requests[0]).toMatchObject({ status, mode, reply: null });
    expect(mock.generations).toBe(0);
  });

  it("setMode with a list uses one mode per generation request, the last one sticks", async () => {
    mock = await startMock({ shape: "openai-chat" });
    mock.setMode(["429", "ok"]);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await post(mock, GENERATE["openai-chat"], REQUEST)).status);
    expect(statuses).toEqual([429, 200, 200]);
    expect(mock.requests.map((r) => r.reply)).toEqual([null, "MOCK-REPLY-1", "MOCK-REPLY-2"]);
  });

  const SHELL_SCHEMA = {
    type: "object",
    properties: { command: { type: "string" }, description: { type: "string" }, timeout: { type: "number" } },
    required: ["command", "description"],
  };
  /** A request of each shape offering a shell tool, then the same request carrying its result. */
  const TOOL_REQUESTS: Record<MockShape, readonly [unknown, unknown]> = {
    "openai-chat": [
      { ...REQUEST, tools: [{ type: "function", function: { name: "bash", parameters: SHELL_SCHEMA } }] },
      {
        ...REQUEST,
        messages: [...REQUEST.messages, { role: "tool", tool_call_id: "call_mock_0001", content: "" }],
      },
    ],
    "openai-responses": [
      {
        model: "gpt-mock",
        stream: true,
        input: [],
        tools: [{ type: "function", name: "shell", parameters: SHELL_SCHEMA }],
      },
      {
        model: "gpt-mock",
        stream: true,
        input: [{ type: "function_call_output", call_id: "c", output: "" }],
      },
    ],
    anthropic: [
      {
        model: "claude-mock",
        stream: true,
        messages: [],
        tools: [{ name: "Bash", input_schema: SHELL_SCHEMA }],
      },
      {
        model: "claude-mock",
        stream: true,
        messages: [{ role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: "" }] }],
      },
    ],
    gemini: [
      {
        contents: [],
        tools: [{ functionDeclarations: [{ name: "run_shell_command", parameters: SHELL_SCHEMA }] }],
      },
      {
        contents: [
          { role: "user", parts: [{ functionResponse: { name: "run_shell_command", response: {} } }] },
        ],
      },
    ],
  };

  /** The name and arguments of the one tool call a stream of `shape` carries. */
  function streamedCall(shape: MockShape, data: unknown[]): { name: string; args: unknown } | undefined {
    // biome-ignore lint/suspicious/noExplicitAny: test-only digging into wire JSON
    const events = data.filter((d) => typeof d === "object") as any[];
    switch (shape) {
      case "openai-chat": {
        const calls = events.flatMap((d) => d.choices?.[0]?.delta?.tool_calls ?? []);
        const name = calls.find((call) => call.function?.name)?.function.name;
        const args = calls.map((call) => call.function?.arguments ?? "").join("");
        return name === undefined ? undefined : { name, args: JSON.parse(args) };
      }
      case "openai-responses": {
        const item = events.find((d) => d.type === "response.output_item.done")?.item;
        return item?.type === "function_call"
          ? { name: item.name, args: JSON.parse(item.arguments) }
          : undefined;
      }
      case "anthropic": {
        const block = events.find((d) => d.type === "content_block_start")?.content_block;
        const json = events
          .filter((d) => d.delta?.type === "input_json_delta")
          .map((d) => d.delta.partial_json);
        return block?.type === "tool_use" ? { name: block.name, args: JSON.parse(json.join("")) } : undefined;
      }
      default: {
        const call = events[0]?.candidates?.[0]?.content?.parts?.[0]?.functionCall;
        return call === undefined ? undefined : { name: call.name, args: call.args };
      }
    }
  }

  it.each(Object.keys(GENERATE) as MockShape[])(
    "%s tool mode calls the offered shell tool, then answers its result with text",
    async (shape) => {
      mock = await startMock({ shape, mode: "tool" });
      const [offer, result] = TOOL_REQUESTS[shape];
      const first = sseData(await (await post(mock, GENERATE[shape], offer)).text());
      const call = streamedCall(shape, first);
      expect(call?.args).toEqual({ command: "touch scv-tool-probe.txt", description: "Print a probe line" });
      expect(mock.requests[0]?.reply).toBe(`tool:${call?.name}`);
      const second = sseData(await (await post(mock, GENERATE[shape], result)).text());
      expect(streamedCall(shape, second)).toBeUndefined();
      expect(streamedText(shape, second)).toBe("MOCK-REPLY-2");
    },
  );

  it("tool mode answers a request that offers no shell tool with text", async () => {
    mock = await startMock({ shape: "openai-chat", mode: "tool" });
    const res = await post(mock, GENERATE["openai-chat"], REQUEST);
    expect(streamedText("openai-chat", sseData(await res.text()))).toBe("MOCK-REPLY-1");
  });

  it("side routes succeed in any mode and unknown routes get 404", async () => {
    mock = await startMock({ shape: "anthropic", mode: "401" });
    expect((await fetch(`${mock.url}/v1/models`)).status).toBe(200);
    expect((await post(mock, "/v1/messages/count_tokens", REQUEST)).status).toBe(200);
    expect((await post(mock, "/v1/nothing", {})).status).toBe(404);
    expect(mock.requests.map((r) => r.kind)).toEqual(["models", "count_tokens", "unknown"]);
  });

  it("hang mode holds the request until close()", async () => {
    mock = await startMock({ shape: "gemini", mode: "hang" });
    const pending = post(mock, GENERATE.gemini, REQUEST).then(
      () => "answered",
      () => "dropped",
    );
    await expect.poll(() => mock?.requests.length).toBe(1);
    await mock.close();
    expect(await pending).toBe("dropped");
  });

  it("runs standalone with --port-file and a control route", async () => {
    const dir = await mkdtemp(join(tmpdir(), "scv-mock-"));
    const portFile = join(dir, "port");
    const script = fileURLToPath(new URL("./mock/server.mjs", import.meta.url));
    const child = spawn(process.execPath, [script, "--shape", "openai-chat", "--port-file", portFile], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      await new Promise((resolve) => child.stdout.once("data", resolve));
      const port = Number((await readFile(portFile, "utf8")).trim());
      const url = `http://127.0.0.1:${port}`;
      await fetch(`${url}/__mock/mode`, { method: "POST", body: JSON.stringify({ mode: "401" }) });
      const res = await fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        body: JSON.stringify(REQUEST),
      });
      expect(res.status).toBe(401);
      const requests = (await (await fetch(`${url}/__mock/requests`)).json()) as unknown[];
      expect(requests).toHaveLength(1);
    } finally {
      child.kill("SIGTERM");
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/** What the tool-call tests read of a streamed event. */
interface WireEvent {
  type?: string;
  item?: unknown;
  content_block?: unknown;
  delta?: { partial_json?: string; stop_reason?: string };
}

describe("a scripted tool call (toolCall)", () => {
  it("anthropic: a tool_use of the offered tool, then a reply quoting its tool_result", async () => {
    mock = await startMock({
      shape: "anthropic",
      toolCall: { suffix: "__delegate", input: { agent: "codex" } },
    });
    const tools = [
      { name: "Bash", input_schema: { type: "object" } },
      { name: "mcp__scv__delegate", input_schema: { type: "object" } },
    ];
    const first = sseData(await (await post(mock, GENERATE.anthropic, { ...REQUEST, tools })).text());
    const events = first as WireEvent[];
    expect(events.find((e) => e.type === "content_block_start")?.content_block).toMatchObject({
      type: "tool_use",
      name: "mcp__scv__delegate",
    });
    expect(events.find((e) => e.type === "content_block_delta")?.delta?.partial_json).toBe(
      '{"agent":"codex"}',
    );
    expect(events.find((e) => e.type === "message_delta")?.delta?.stop_reason).toBe("tool_use");
    const withResult = {
      ...REQUEST,
      tools,
      messages: [
        { role: "user", content: "hi" },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "t", content: [{ type: "text", text: "CODEX-SAID" }] },
          ],
        },
      ],
    };
    const second = await (await post(mock, GENERATE.anthropic, withResult)).text();
    expect(streamedText("anthropic", sseData(second))).toBe("MOCK-REPLY-2 saw: CODEX-SAID");
    expect(mock.requests.map((request) => request.toolCall)).toEqual(["mcp__scv__delegate", null]);
  });

  it("openai-responses: a function_call in Codex's namespace, then a reply quoting its output", async () => {
    mock = await startMock({
      shape: "openai-responses",
      toolCall: { suffix: "mcp__scv__delegate", input: { agent: "claude" } },
    });
    const tools = [{ type: "namespace", name: "mcp__scv", tools: [{ type: "function", name: "delegate" }] }];
    const events = sseData(
      await (await post(mock, GENERATE["openai-responses"], { ...REQUEST, tools })).text(),
    ) as WireEvent[];
    expect(events.find((e) => e.type === "response.output_item.done")?.item).toMatchObject({
      type: "function_call",
      name: "delegate",
      namespace: "mcp__scv",
      arguments: '{"agent":"claude"}',
    });
    const input = [{ type: "function_call_output", call_id: "c", output: "CLAUDE-SAID" }];
    const second = await (
      await post(mock, GENERATE["openai-responses"], { ...REQUEST, tools, input })
    ).text();
    expect(streamedText("openai-responses", sseData(second))).toBe("MOCK-REPLY-2 saw: CLAUDE-SAID");
  });

  it("openai-chat: a tool_calls delta of the offered function (pi's mcp__scv__delegate), then a reply quoting the tool message", async () => {
    mock = await startMock({
      shape: "openai-chat",
      toolCall: { suffix: "mcp__scv__delegate", input: { agent: "codex" } },
    });
    const tools = [
      { type: "function", function: { name: "read", parameters: { type: "object" } } },
      { type: "function", function: { name: "mcp__scv__delegate", parameters: { type: "object" } } },
    ];
    const first = sseData(
      await (await post(mock, GENERATE["openai-chat"], { ...REQUEST, stream: true, tools })).text(),
    ) as { choices?: { delta?: { tool_calls?: unknown[] }; finish_reason?: string | null }[] }[];
    const calls = first.flatMap(
      (chunk) => chunk.choices?.flatMap((choice) => choice.delta?.tool_calls ?? []) ?? [],
    );
    expect(calls[0]).toMatchObject({ type: "function", function: { name: "mcp__scv__delegate" } });
    expect(calls[1]).toMatchObject({ function: { arguments: '{"agent":"codex"}' } });
    expect(first.flatMap((chunk) => chunk.choices ?? []).at(-1)?.finish_reason).toBe("tool_calls");
    const messages = [
      { role: "user", content: "hi" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "c", type: "function", function: { name: "mcp__scv__delegate", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "c", content: [{ type: "text", text: "CODEX-SAID" }] },
    ];
    const second = await (
      await post(mock, GENERATE["openai-chat"], { ...REQUEST, stream: true, tools, messages })
    ).text();
    expect(streamedText("openai-chat", sseData(second))).toBe("MOCK-REPLY-2 saw: CODEX-SAID");
    expect(mock.requests.map((request) => request.toolCall)).toEqual(["mcp__scv__delegate", null]);
  });
});
