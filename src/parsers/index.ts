// Maps each output format to its parser, every parser loaded up front: for synchronous callers
// (tests, the parser benchmark). A turn imports only its own through load.ts.

import type { OutputFormatKind } from "../adapters.js";
import { createAmpStreamJsonParser } from "./amp-stream-json.js";
import { createClaudeStreamJsonParser } from "./claude-stream-json.js";
import { createCodexJsonlParser } from "./codex-jsonl.js";
import { createCopilotJsonParser } from "./copilot-json.js";
import { createCursorStreamJsonParser } from "./cursor-stream-json.js";
import { createGeminiStreamJsonParser } from "./gemini-stream-json.js";
import { createOpencodeJsonParser } from "./opencode-json.js";
import { createPiJsonParser } from "./pi-json.js";
import { createQwenStreamJsonParser } from "./qwen-stream-json.js";
import { createTextParser } from "./text.js";
import type { StreamParser } from "./types.js";
import { withCleanUsage } from "./usage.js";

export const PARSER_FACTORIES: Readonly<Record<OutputFormatKind, () => StreamParser>> = {
  text: createTextParser,
  "claude-stream-json": createClaudeStreamJsonParser,
  "codex-jsonl": createCodexJsonlParser,
  "pi-json": createPiJsonParser,
  "gemini-stream-json": createGeminiStreamJsonParser,
  "qwen-stream-json": createQwenStreamJsonParser,
  "opencode-json": createOpencodeJsonParser,
  "copilot-json": createCopilotJsonParser,
  "cursor-stream-json": createCursorStreamJsonParser,
  "amp-stream-json": createAmpStreamJsonParser,
};

/** `format`'s parser, its usage cleaned as a turn's is (load.ts). */
export function createParser(format: OutputFormatKind): StreamParser {
  return withCleanUsage(PARSER_FACTORIES[format]());
}
