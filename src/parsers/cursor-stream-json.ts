// Cursor CLI: `cursor-agent -p --output-format stream-json` (cursor.com/docs/cli/reference/
// output-format). Claude's system/assistant/result shapes plus its own `tool_call` events; on
// failure it may print no JSON at all, only stderr and an exit code.

import { type ClaudeShapedState, createClaudeShapedParser } from "./claude-shaped.js";
import { CursorToolCallEvent, usageOfCounts } from "./claude-wire.js";
import type { StringPlace } from "./elision.js";
import type { StreamParser, TurnEvent } from "./event-types.js";
import { isSummaryArgument, summarizeTool } from "./tool-summary.js";
import { asRecord, readAs } from "./wire.js";

/** The tool's name, arguments and outcome from `{ readToolCall: { args, result } }` or `{ function: { name, arguments } }`. */
function describeToolCall(toolCall: Record<string, unknown>): {
  name: string;
  args: unknown;
  result: unknown;
} {
  const [key, body] = Object.entries(toolCall)[0] ?? ["tool", undefined];
  const call = asRecord(body);
  if (key === "function") {
    const name = typeof call.name === "string" ? call.name : "function";
    return { name, args: parseArguments(call.arguments), result: call.result };
  }
  return { name: key.replace(/ToolCall$/, ""), args: call.args, result: call.result };
}

function parseArguments(raw: unknown): unknown {
  if (typeof raw !== "string") return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return {};
  }
}

/** A tool call's result (only its keys tell the outcome) and the arguments the summary does not
 * read. `function.arguments` is a JSON string the summary parses, so it is kept whole. */
function cursorElidable({ path }: StringPlace): boolean {
  const [top, , field, argument] = path;
  if (top !== "tool_call") return false;
  if (field === "result") return true;
  return field === "args" && (argument === undefined || !isSummaryArgument(argument));
}

function onToolCall(value: unknown, state: ClaudeShapedState): TurnEvent[] | null {
  const event = readAs(CursorToolCallEvent, value);
  if (event === null) return null;
  const events: TurnEvent[] = [];
  state.session(event.session_id, events);
  const { name, args, result } = describeToolCall(event.tool_call);
  if (event.subtype === "started") {
    state.toolStarted(event.call_id, name, () => summarizeTool(name, args), events);
  } else if (event.subtype === "completed") {
    // `{success}` | `{error}` | `{rejected}` (a shell command outside the allowlist).
    state.toolEnded(event.call_id, "success" in asRecord(result), events);
  }
  return events;
}

export function createCursorStreamJsonParser(): StreamParser {
  return createClaudeShapedParser({
    cumulativeUsage: false,
    usage: (result) => (result.usage === undefined ? undefined : usageOfCounts(result.usage)),
    extraEvent: (type, value, state) => (type === "tool_call" ? onToolCall(value, state) : []),
    extraElidable: cursorElidable,
  });
}
