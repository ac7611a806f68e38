// The parser of each output format, imported when a turn first needs it: a turn reads one format,
// and loading all ten parsers with their schemas would cost every turn start-up time for nine it
// never uses. This is the one map from format to parser; callers that need parsers synchronously
// (tests, the parser benchmark) load theirs first.

import type { OutputFormatKind } from "../adapters.js";
import type { StreamParser } from "./event-types.js";
import { withCleanUsage } from "./usage.js";

export type ParserFactory = () => StreamParser;

const PARSERS: Readonly<Record<OutputFormatKind, () => Promise<ParserFactory>>> = {
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
  "cline-json": async () => (await import("./cline-json.js")).createClineJsonParser,
  "droid-stream-json": async () => (await import("./droid-stream-json.js")).createDroidStreamJsonParser,
};

/** Every output format scv has a parser for. */
export const OUTPUT_FORMAT_KINDS = Object.keys(PARSERS) as OutputFormatKind[];

/** The factory of `format`'s parser, importing its module on first use; what it reports of usage
 * is cleaned (usage.ts). */
export async function loadParser(format: OutputFormatKind): Promise<ParserFactory> {
  const create = await PARSERS[format]();
  return () => withCleanUsage(create());
}
