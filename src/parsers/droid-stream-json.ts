// Factory Droid: `droid exec -o stream-json` (0.225.2, lab captures). Every line has a `type` and
// the `session_id`: `system`/`init` first (`model`, `reasoning_effort`, `tools`), `message` (a whole
// `text` per `role`, the user's prompt too), `tool_call` (`id`, `toolName`, `parameters`),
// `tool_result` (`id`, `isError`, `value`), then `completion` (`finalText`, the run's `usage` in
// Anthropic's field names) on success, or `error` lines (`source`: `agent_loop` with the API's
// message, then `cli` with "Exec failed") and exit 1. Its `-o json` is one Claude-shaped `result`
// line at the end; this stream names the session at once and shows the tools as they run.

import { BoundedText } from "./bounded-text.js";
import { byType, failedTurn } from "./event-builders.js";
import type { StreamParser, TurnEvent, Usage } from "./event-types.js";
import { createJsonLinesParser } from "./json-lines.js";
import { linesOfTypes } from "./reply-lines.js";
import * as s from "./shape.js";
import { summarizeTool } from "./tool-summary.js";
import { toolStartEvent } from "./tool-tracker.js";
import { maybe, maybeBoolean, maybeNumber, maybeString, readAs } from "./wire.js";

const Line = s.object({ session_id: maybeString });

const Message = s.object({ role: s.string(), text: s.string() });

const ToolCall = s.object({
  id: s.string(),
  toolName: maybeString,
  toolId: maybeString,
  parameters: s.optional(s.unknown()),
});

const ToolResult = s.object({
  id: s.string(),
  toolName: maybeString,
  toolId: maybeString,
  isError: maybeBoolean,
});

const Completion = s.object({
  finalText: maybeString,
  usage: maybe(
    s.object({
      input_tokens: maybeNumber,
      output_tokens: maybeNumber,
      cache_read_input_tokens: maybeNumber,
      cache_creation_input_tokens: maybeNumber,
    }),
  ),
});

const ErrorLine = s.object({ message: maybeString, source: maybeString });

export function createDroidStreamJsonParser(): StreamParser {
  let sessionId: string | undefined;
  const text = new BoundedText();
  let finalText: string | undefined;
  let failed = false;
  /** Tool names by call id: a result may name only the tool's id. */
  const tools = new Map<string, string>();

  function event(type: string, value: unknown): TurnEvent[] | null {
    switch (type) {
      case "message": {
        const message = readAs(Message, value);
        if (message === null) return null;
        if (message.role !== "assistant") return [];
        // Each assistant message is a whole block; the last one before the end is the reply.
        text.clear();
        text.append(message.text);
        return [{ type: "text", text: message.text }];
      }
      case "tool_call": {
        const call = readAs(ToolCall, value);
        if (call === null) return null;
        const name = call.toolName ?? call.toolId ?? "tool";
        tools.set(call.id, name);
        return [toolStartEvent(call.id, name, () => summarizeTool(name, call.parameters))];
      }
      case "tool_result": {
        const result = readAs(ToolResult, value);
        if (result === null) return null;
        const name = tools.get(result.id) ?? result.toolName ?? result.toolId ?? "tool";
        tools.delete(result.id);
        return [{ type: "tool-end", id: result.id, name, ok: result.isError !== true }];
      }
      case "completion": {
        const completion = readAs(Completion, value);
        if (completion === null) return null;
        if (completion.finalText !== undefined) finalText = completion.finalText;
        const events: TurnEvent[] = [];
        const reported = completion.usage;
        if (reported !== undefined) {
          const usage: Usage = {};
          if (reported.input_tokens !== undefined) usage.input = reported.input_tokens;
          if (reported.cache_read_input_tokens !== undefined) usage.cached = reported.cache_read_input_tokens;
          if (reported.cache_creation_input_tokens !== undefined)
            usage.cacheWrite = reported.cache_creation_input_tokens;
          if (reported.output_tokens !== undefined) usage.output = reported.output_tokens;
          events.push({ type: "usage", usage });
        }
        events.push({ type: "turn-end", ok: true });
        return events;
      }
      case "error": {
        const error = readAs(ErrorLine, value);
        if (error === null) return null;
        // The first error is the cause; the CLI's own "Exec failed" after it says only that it ended.
        if (failed) return [];
        failed = true;
        return failedTurn(error.message ?? "Droid reported an error");
      }
      default:
        return [];
    }
  }

  return createJsonLinesParser({
    replyLines: linesOfTypes(["message", "completion"]),
    cumulativeUsage: false,
    event(value) {
      const events = byType(event)(value);
      const line = readAs(Line, value);
      if (events === null || line?.session_id === undefined || line.session_id === sessionId) return events;
      sessionId = line.session_id;
      return [{ type: "session", sessionId }, ...events];
    },
    reply: () => finalText ?? text.toString(),
  });
}
