// Cline: `cline --json "<prompt>"` (3.0.65, lab captures). Every line is `{ts, type, …}`:
// `hook_event` (agent_start, tool_call, tool_result, agent_error, agent_end), `agent_event` wrapping
// the agent loop's own events (`iteration_start`, `content_start` — text deltas with the text so
// far in `accumulated`, or a tool call —, `content_end`, `usage` with running totals, `done`,
// `error` with an `errorClass` and whether it is `recoverable`), then one `run_result`
// (`finishReason`, the run's `usage`, `text`: the reply, or the error when it failed), and after a
// failure a bare `error` line (`message`) and, when it was stopped, `run_aborted`. The stream names
// no resumable session (its `taskId` is not one).

import { BoundedText } from "./bounded-text.js";
import { byType, failedTurn } from "./event-builders.js";
import type { StreamParser, TurnEvent, Usage } from "./event-types.js";
import { classifyErrorText } from "./failure.js";
import { createJsonLinesParser } from "./json-lines.js";
import { linesOfTypes } from "./reply-lines.js";
import * as s from "./shape.js";
import { summarizeTool } from "./tool-summary.js";
import { toolStartEvent } from "./tool-tracker.js";
import { maybe, maybeBoolean, maybeNumber, maybeString, readAs } from "./wire.js";

const AgentEvent = s.object({ event: s.object({ type: s.string() }) });

const Content = s.object({
  event: s.object({
    /** `text`, `tool`, `reasoning`. */
    contentType: s.string(),
    text: maybeString,
    toolName: maybeString,
    toolCallId: maybeString,
    input: s.optional(s.unknown()),
    /** On a tool's `content_end`: set when it failed. */
    error: s.optional(s.unknown()),
  }),
});

const LoopUsage = s.object({
  event: s.object({ totalInputTokens: maybeNumber, totalOutputTokens: maybeNumber, totalCost: maybeNumber }),
});

const Done = s.object({ event: s.object({ reason: maybeString, text: maybeString }) });

const LoopError = s.object({
  event: s.object({
    error: maybe(s.object({ message: maybeString })),
    /** `auth`, `unknown`, … */
    errorClass: maybeString,
    recoverable: maybeBoolean,
  }),
});

const RunUsage = s.object({
  inputTokens: maybeNumber,
  outputTokens: maybeNumber,
  cacheReadTokens: maybeNumber,
  cacheWriteTokens: maybeNumber,
  totalCost: maybeNumber,
});

const RunResult = s.object({
  /** `completed`, `error`, `aborted`, … */
  finishReason: maybeString,
  text: maybeString,
  usage: maybe(RunUsage),
});

const Message = s.object({ message: maybeString });

function runUsage(usage: s.Infer<typeof RunUsage>): Usage {
  const out: Usage = {};
  if (usage.inputTokens !== undefined) out.input = usage.inputTokens;
  if (usage.cacheReadTokens !== undefined) out.cached = usage.cacheReadTokens;
  if (usage.cacheWriteTokens !== undefined) out.cacheWrite = usage.cacheWriteTokens;
  if (usage.outputTokens !== undefined) out.output = usage.outputTokens;
  if (usage.totalCost !== undefined) out.costUsd = usage.totalCost;
  return out;
}

export function createClineJsonParser(): StreamParser {
  const text = new BoundedText();
  let finalText: string | undefined;
  /** The loop's error, so that the run's own failure lines do not repeat it. */
  let failed = false;

  function loopEvent(value: unknown): TurnEvent[] | null {
    const event = readAs(AgentEvent, value)?.event;
    if (event === undefined) return null;
    switch (event.type) {
      case "content_start": {
        const content = readAs(Content, value)?.event;
        if (content === undefined) return null;
        if (content.contentType === "text" && content.text !== undefined) {
          text.append(content.text);
          return [{ type: "text", text: content.text, delta: true }];
        }
        if (content.contentType === "tool" && content.toolCallId !== undefined) {
          const name = content.toolName ?? "tool";
          return [toolStartEvent(content.toolCallId, name, () => summarizeTool(name, content.input))];
        }
        return [];
      }
      case "content_end": {
        const content = readAs(Content, value)?.event;
        if (content === undefined) return null;
        if (content.contentType === "tool" && content.toolCallId !== undefined)
          return [
            {
              type: "tool-end",
              id: content.toolCallId,
              name: content.toolName ?? "tool",
              ok: content.error === undefined || content.error === null,
            },
          ];
        return [];
      }
      case "iteration_start":
        // A new model call: what the last one said was not the reply.
        text.clear();
        return [];
      case "usage": {
        const usage = readAs(LoopUsage, value)?.event;
        if (usage === undefined) return null;
        const total: Usage = {};
        if (usage.totalInputTokens !== undefined) total.input = usage.totalInputTokens;
        if (usage.totalOutputTokens !== undefined) total.output = usage.totalOutputTokens;
        if (usage.totalCost !== undefined) total.costUsd = usage.totalCost;
        return [{ type: "usage", usage: total }];
      }
      case "done": {
        const done = readAs(Done, value)?.event;
        if (done === undefined) return null;
        if (done.reason !== "completed") return [];
        if (done.text !== undefined) finalText = done.text;
        return [{ type: "turn-end", ok: true }];
      }
      case "error": {
        const error = readAs(LoopError, value)?.event;
        if (error === undefined) return null;
        const message = error.error?.message ?? "Cline reported an error";
        const kind = error.errorClass === "auth" ? "auth" : classifyErrorText(message);
        if (error.recoverable === true) return [{ type: "error", message, kind, terminal: false }];
        failed = true;
        return failedTurn(message, kind);
      }
      default:
        return [];
    }
  }

  function event(type: string, value: unknown): TurnEvent[] | null {
    switch (type) {
      case "agent_event":
        return loopEvent(value);
      case "run_result": {
        const result = readAs(RunResult, value);
        if (result === null) return null;
        const events: TurnEvent[] = [];
        if (result.usage !== undefined) events.push({ type: "usage", usage: runUsage(result.usage) });
        if (result.finishReason === "completed") {
          if (result.text !== undefined) finalText = result.text;
          events.push({ type: "turn-end", ok: true });
        } else if (!failed) {
          failed = true;
          events.push(...failedTurn(result.text ?? `Cline's run ended: ${result.finishReason ?? "unknown"}`));
        }
        return events;
      }
      case "error":
      case "run_aborted": {
        const line = readAs(Message, value);
        if (line === null) return null;
        if (failed) return [];
        failed = true;
        return failedTurn(line.message ?? "Cline's run was aborted");
      }
      default:
        return [];
    }
  }

  return createJsonLinesParser({
    replyLines: linesOfTypes(["run_result", "agent_event"]),
    cumulativeUsage: false,
    event: byType(event),
    reply: () => finalText ?? text.toString(),
  });
}
