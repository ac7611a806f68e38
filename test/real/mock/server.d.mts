// Types for server.mjs (plain JavaScript so that `node test/real/mock/server.mjs` runs without a build).
import type { IncomingHttpHeaders } from "node:http";

/** The vendor API a mock speaks. */
export type MockShape = "anthropic" | "openai-responses" | "openai-chat" | "gemini";

/**
 * How generation requests are answered: `ok` replies; `401`/`429`/`500` send the vendor's error body
 * (429 with `retry-after: 1`); `529` (Anthropic overloaded_error) and `429-unified` (429 plus
 * `anthropic-ratelimit-unified-*` headers) are Anthropic extras; `hang` never answers; `tool` answers
 * a request offering a shell tool with a call of it (`touch scv-tool-probe.txt`), and the one carrying its
 * result (or offering no shell tool) as `ok` does.
 */
export type MockMode =
  | "ok"
  | "tool"
  | "401"
  | "403-model"
  | "404-model"
  | "429"
  | "500"
  | "529"
  | "429-unified"
  | "hang";

/** What a request was for: the model call, a side route, or an unknown route (answered 404). */
export type MockRequestKind = "generate" | "count_tokens" | "models" | "unknown";

export interface MockRequest {
  /** 1-based order of arrival. */
  seq: number;
  /** ISO time of arrival (after the body was read). */
  ts: string;
  method: string;
  /** Path plus query, as sent (`/v1/messages?beta=true`). */
  url: string;
  /** Path without the query. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The JSON body, or null when empty / not JSON / compressed with an encoding Node cannot decode. */
  body: unknown;
  /** The body as text (base64 when it could not be decoded). */
  rawBody: string;
  kind: MockRequestKind;
  /** The mode that answered it (`ok` for side routes). */
  mode: MockMode;
  /** HTTP status sent (0 while a `hang` request is open). */
  status: number;
  /** The reply text sent, for successful generation requests. */
  reply: string | null;
  /** The tool a scripted tool call (`toolCall`) called in answer (`mcp__scv__delegate`; a Codex
   * namespace's tool as `<namespace>__<name>`); null otherwise. */
  toolCall: string | null;
}

export interface StartMockOptions {
  shape: MockShape;
  /** One mode, or a list used one per generation request (the last one sticks). Default `ok`. */
  mode?: MockMode | MockMode[];
  /** Reply prefix; replies are `<text>-<n>`. Default `MOCK-REPLY`. */
  text?: string;
  /** Default 0 (any free port). Always bound to 127.0.0.1. */
  port?: number;
  /** Append every request as one JSON line to this file. */
  log?: string;
  /**
   * Script an MCP host's model (anthropic, openai-responses): a request offering a tool whose name ends
   * with `suffix` (Codex's namespaced tools as `<namespace>__<name>`), and no result of it yet, is
   * answered with a call of that tool with `input`; a request carrying the result, with the reply
   * `<text>-<n> saw: <result text>`.
   */
  toolCall?: { suffix: string; input: unknown };
  /**
   * Decides each generation request (in modes `ok` and `tool`) before anything else: `{text}` is the
   * exact reply; `{tool: {suffix, input}}` a call of the offered tool whose name ends with `suffix`
   * (Claude Code's `StructuredOutput`); `{shell}` a call of the CLI's shell tool running that command;
   * with `text` and `after`, text blocks before and after the call in the same message (Anthropic
   * only); undefined leaves the request to the other options. `n` numbers the generation requests;
   * `toolResult` is the text of the tool results the request carries, if any.
   */
  script?: (request: { body: unknown; n: number; toolResult: string | undefined }) => MockAnswer | undefined;
  /** A slow model: each generation request is answered only after this many milliseconds. Default 0. */
  delayMs?: number;
}

/** A scripted answer (`StartMockOptions.script`). */
export type MockAnswer = { text: string } | { tool: { suffix: string; input: unknown } } | { shell: string };

export interface MockServer extends AsyncDisposable {
  readonly shape: MockShape;
  readonly port: number;
  /** `http://127.0.0.1:<port>`, no trailing slash and no `/v1`. */
  readonly url: string;
  /** Every request received, in order (live array). */
  readonly requests: MockRequest[];
  /** The current (next) mode. */
  readonly mode: MockMode;
  /** How many generation requests were answered `ok` so far (the last reply is `MOCK-REPLY-<generations>`). */
  readonly generations: number;
  setMode(mode: MockMode | MockMode[]): void;
  /** The reply prefix of the following generation requests. */
  setText(text: string): void;
  /** How long each following generation request waits before it is answered. */
  setDelay(ms: number): void;
  generationRequests(): MockRequest[];
  /** Whether any recorded request body contains `needle`. */
  sawText(needle: string): boolean;
  /** Stops listening and drops open connections (hanging ones included). Idempotent. */
  close(): Promise<void>;
}

export const SHAPES: Record<MockShape, unknown>;
export const MODES: readonly MockMode[];
export function startMock(options: StartMockOptions): Promise<MockServer>;
/** The text of the tool results a request of `shape` carries (what the host's model is given of them):
 * Anthropic's `tool_result` blocks, the Responses API's `function_call_output` items; undefined when it
 * carries none. */
export function toolResultText(shape: MockShape, body: unknown): string | undefined;
