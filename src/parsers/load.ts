// The parser a turn needs, imported when the turn starts: a turn reads one format, and loading all
// ten parsers with their schemas cost every turn start-up time for nine it never uses. index.ts
// keeps the eager map for callers that are synchronous (tests, the parser benchmark).

import type { OutputFormatKind } from "../adapters.js";
import type { StreamParser } from "./types.js";
import { withCleanUsage } from "./usage.js";

type ParserFactory = () => StreamParser;

const LOADERS: Readonly<Record<OutputFormatKind, () => Promise<ParserFactory>>> = {
  text: async () => (await import("./text.js")).createTextParser,
  "claude-stream-json": async () => (await import("./claude-stream-json.js")).createClaudeStreamJsonParser,
  "codex-jsonl": async () => (await import("./codex-jsonl.js")).createCodexJsonlParser,
  "pi-json": async () => (await import("./pi-json.js")).createPiJsonParser,
  "gemini-stream-json": async () => (await import("./gemini-stream-json.js")).createGeminiStreamJsonParser,
  "qwen-stream-json": async () => (await import("./qwen-stream-json.js")).createQwenStreamJsonParser,
  "opencode-json": async () => (await import("./opencode-json.js")).createOpencodeJsonParser,
  "copilot-json": async () => (await import("./copilot-json.js")).createCopilotJsonParser,
  "cursor-stream-json": async () => (await import("./cursor-stream-json.js")).createCursorStreamJsonParser,
  "amp-stream-json": async () => (await import("./amp-stream-json.js")).createAmpStreamJsonParser,
};

/** The factory of `format`'s parser, importing its module on first use; what it reports of usage
 * is cleaned (usage.ts). */
export async function loadParser(format: OutputFormatKind): Promise<ParserFactory> {
  const create = await LOADERS[format]();
  return () => withCleanUsage(create());
}
