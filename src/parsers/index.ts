// Maps each output format to its parser.

import { type OutputFormatKind, unreachable } from "../adapters.js";
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

export function createParser(format: OutputFormatKind): StreamParser {
  switch (format) {
    case "text":
      return createTextParser();
    case "claude-stream-json":
      return createClaudeStreamJsonParser();
    case "codex-jsonl":
      return createCodexJsonlParser();
    case "pi-json":
      return createPiJsonParser();
    case "gemini-stream-json":
      return createGeminiStreamJsonParser();
    case "qwen-stream-json":
      return createQwenStreamJsonParser();
    case "opencode-json":
      return createOpencodeJsonParser();
    case "copilot-json":
      return createCopilotJsonParser();
    case "cursor-stream-json":
      return createCursorStreamJsonParser();
    case "amp-stream-json":
      return createAmpStreamJsonParser();
    default:
      return unreachable(format);
  }
}
