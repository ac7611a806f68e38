// OpenCode: `opencode run --format json` (packages/opencode/src/cli/cmd/run.ts: every line is
// `{type, timestamp, sessionID, ...data}`). Tools are reported only once finished; a step that
// finishes for any reason but "tool-calls" ends the run; an `error` line means exit 1. Its stderr log
// says when it cannot reach its endpoint (opencode-stderr.ts).

import { BoundedText } from "./bounded-text.js";
import { failedTurn } from "./event-builders.js";
import type { StreamParser, TurnEvent, Usage } from "./event-types.js";
import { classifyErrorText, kindFromStatus, unavailableModel } from "./failure.js";
import { createJsonLinesParser } from "./json-lines.js";
import { readOpencodeStderr } from "./opencode-stderr.js";
import { linesOfTypes } from "./reply-lines.js";
import * as s from "./shape.js";
import { summarizeTool } from "./tool-summary.js";
import { toolStartEvent } from "./tool-tracker.js";
import { addUsage } from "./usage.js";
import { maybe, maybeNumber, maybeString, readAs } from "./wire.js";

const Line = s.object({ type: s.string(), sessionID: maybeString });

const Text = s.object({ part: s.object({ text: s.string() }) });

const ToolUse = s.object({
  part: s.object({
    tool: s.string(),
    callID: s.string(),
    state: s.object({
      /** `completed` or `error`. */
      status: s.string(),
      input: s.optional(s.unknown()),
    }),
  }),
});

const StepFinish = s.object({
  part: s.object({
    /** `tool-calls` while the model keeps working; `stop`, `length`, … at the end. */
    reason: maybeString,
    cost: maybeNumber,
    tokens: maybe(
      s.object({
        input: maybeNumber,
        output: maybeNumber,
        reasoning: maybeNumber,
        cache: maybe(s.object({ read: maybeNumber, write: maybeNumber })),
      }),
    ),
  }),
});
type StepFinish = s.Infer<typeof StepFinish>;

const ErrorLine = s.object({
  error: s.object({
    name: maybeString,
    data: maybe(s.object({ message: maybeString, statusCode: maybeNumber })),
  }),
});

function stepUsage(step: StepFinish["part"]): Usage {
  const usage: Usage = {};
  const tokens = step.tokens;
  if (tokens?.input !== undefined) usage.input = tokens.input;
  if (tokens?.cache?.read !== undefined) usage.cached = tokens.cache.read;
  if (tokens?.cache?.write !== undefined) usage.cacheWrite = tokens.cache.write;
  if (tokens?.output !== undefined) usage.output = tokens.output;
  if (tokens?.reasoning !== undefined) usage.reasoning = tokens.reasoning;
  if (step.cost !== undefined) usage.costUsd = step.cost;
  return usage;
}

export function createOpencodeJsonParser(): StreamParser {
  let sessionId: string | undefined;
  const stepText = new BoundedText();
  // The text of the last step that said anything: a closing step can be empty.
  let earlierStepText = "";
  let usage: Usage | undefined;

  function onTyped(type: string, value: unknown): TurnEvent[] | null {
    switch (type) {
      case "step_start":
        if (stepText.size > 0) earlierStepText = stepText.toString();
        stepText.clear();
        return [];
      case "text": {
        const text = readAs(Text, value);
        if (text === null) return null;
        if (stepText.size > 0) stepText.append("\n");
        stepText.append(text.part.text);
        return [{ type: "text", text: text.part.text }];
      }
      case "tool_use": {
        const tool = readAs(ToolUse, value);
        if (tool === null) return null;
        const { part } = tool;
        return [
          toolStartEvent(part.callID, part.tool, () => summarizeTool(part.tool, part.state.input)),
          { type: "tool-end", id: part.callID, name: part.tool, ok: part.state.status === "completed" },
        ];
      }
      case "step_finish": {
        const step = readAs(StepFinish, value);
        if (step === null) return null;
        // Each step reports its own tokens and cost: the run's are their sum.
        usage = addUsage(usage, stepUsage(step.part));
        const events: TurnEvent[] = [{ type: "usage", usage }];
        if (step.part.reason !== "tool-calls") events.push({ type: "turn-end", ok: true });
        return events;
      }
      case "done":
        return [{ type: "turn-end", ok: true }];
      case "error": {
        const line = readAs(ErrorLine, value);
        if (line === null) return null;
        const { error } = line;
        const message = error.data?.message ?? error.name ?? "OpenCode reported an error";
        return failedTurn(
          message,
          unavailableModel(message) ?? kindFromStatus(error.data?.statusCode) ?? classifyErrorText(message),
        );
      }
      default:
        return [];
    }
  }

  return createJsonLinesParser({
    replyLines: linesOfTypes(["text"]),
    cumulativeUsage: false,
    stderrEvents: readOpencodeStderr,
    event(value) {
      const line = readAs(Line, value);
      if (line === null) return null;
      const events = onTyped(line.type, value);
      if (events === null || line.sessionID === undefined || line.sessionID === sessionId) return events;
      sessionId = line.sessionID;
      return [{ type: "session", sessionId: line.sessionID }, ...events];
    },
    reply() {
      return stepText.size > 0 ? stepText.toString() : earlierStepText;
    },
  });
}
