// Maps each output format to its parser.

import { type OutputFormatKind, unreachable } from "../adapters.js";
import { createTextParser } from "./text.js";
import type { StreamParser } from "./types.js";

export function createParser(format: OutputFormatKind): StreamParser {
  switch (format) {
    case "text":
      return createTextParser();
    case "claude-stream-json":
    case "codex-jsonl":
    case "pi-json":
    case "gemini-stream-json":
    case "qwen-stream-json":
    case "opencode-json":
    case "copilot-json":
    case "cursor-stream-json":
    case "amp-stream-json":
      // Structured parsers land with their own issue; until then the stream reads as text.
      return createTextParser();
    default:
      return unreachable(format);
  }
}
