// The tool calls of one ACP prompt, as the turn's events: each started once, when its input says what
// it does, when it runs or when it ends (not while `pending` with an input that says nothing yet),
// and ended once.

import type { TurnEvent } from "../../parsers/event-types.js";
import { oneRedactedLine, summarizeTool } from "../../parsers/tool-summary.js";
import { ToolTracker } from "../../parsers/tool-tracker.js";
import { asRecord } from "../../parsers/wire.js";
import type { ToolCallFields } from "./acp-wire.js";

/** ACP's tool kinds as the tool names summarizeTool knows (its argument fields then apply). */
const NAME_BY_KIND: Readonly<Record<string, string>> = {
  execute: "shell",
  edit: "edit",
  delete: "delete",
  move: "move",
  read: "read",
  search: "search",
  fetch: "fetch",
};

interface ToolState {
  name: string;
  /** From its input: what the other parsers show. */
  summary: string | undefined;
  /** Its title, for a call whose input never said more. */
  title: string | undefined;
  started: boolean;
}

export class AcpToolCalls {
  private readonly tracker = new ToolTracker();
  private readonly tools = new Map<string, ToolState>();
  // Ended calls, so that an update after the end (Qwen's `failed` after a refusal) starts nothing.
  private readonly ended = new Set<string>();

  /** A `tool_call`, `tool_call_update` or a permission request's call; `onStart` runs before a
   * call's start event. */
  update(fields: ToolCallFields, fromPermission: boolean, onStart: () => void): TurnEvent[] {
    if (this.ended.has(fields.toolCallId)) return [];
    const state = this.tools.get(fields.toolCallId) ?? {
      name: "tool",
      summary: undefined,
      title: undefined,
      started: false,
    };
    this.tools.set(fields.toolCallId, state);
    const name = fields._meta?.toolName ?? fields.name;
    if (name !== undefined) state.name = name;
    else if (state.name === "tool" && fields.kind !== undefined) state.name = fields.kind;
    const fromInput = inputSummary(fields, state.name);
    if (fromInput !== undefined) state.summary = fromInput;
    // The latest title is the best (OpenCode: "bash", then the command line).
    state.title = titleOf(fields) ?? state.title;
    const events: TurnEvent[] = [];
    const ending = fields.status === "completed" || fields.status === "failed";
    // Qwen announces calls, titled "Shell", with `{}`; OpenCode, titled "bash", with only the `cwd`.
    if (
      !state.started &&
      (fromInput !== undefined || fromPermission || ending || fields.status === "in_progress")
    ) {
      state.started = true;
      onStart();
      events.push(
        this.tracker.start(fields.toolCallId, state.name, state.summary ?? state.title ?? state.name),
      );
    }
    if (ending) events.push(...this.end(fields.toolCallId, fields.status === "completed"));
    return events;
  }

  /** The calls known and not ended. */
  get tracked(): number {
    return this.tools.size;
  }

  end(id: string, ok: boolean): TurnEvent[] {
    const state = this.tools.get(id);
    this.tools.delete(id);
    this.ended.add(id);
    return this.tracker.isOpen(id) ? [this.tracker.end(id, ok, state?.name)] : [];
  }
}

/** One line from a tool call's input, or undefined when its input says nothing summarizeTool reads. */
function inputSummary(fields: ToolCallFields, name: string): string | undefined {
  const input = asRecord(fields.rawInput);
  if (Object.keys(input).length === 0) return undefined;
  const kindName = (fields.kind === undefined ? undefined : NAME_BY_KIND[fields.kind]) ?? name;
  const summary = summarizeTool(kindName, input);
  return summary === oneRedactedLine(kindName) ? undefined : summary;
}

function titleOf(fields: ToolCallFields): string | undefined {
  return fields.title === undefined || fields.title.trim() === "" ? undefined : oneRedactedLine(fields.title);
}
