// One ACP prompt turn as scv's normalized events: the agent's `session/update` notifications while a
// `session/prompt` runs, the tool calls its `session/request_permission` requests name, and the
// prompt's answer (or the JSON-RPC error it got). Pure: the ACP client (src/acp/client/) hands
// each message over as it arrives; `push` reads the same messages as raw lines of an agent's stdout
// (captures, tests).
//
// Traps it handles, seen in captures (test/fixtures/acp/):
// - A tool call can be announced `pending` with an empty `rawInput` (Qwen) and get its input only
//   with the permission request, or be announced only by the permission request (Gemini under
//   `default`): its start is reported once something says what it does, or when it ends.
// - Qwen reports each model call's usage in an empty `agent_message_chunk`'s `_meta.usage`;
//   Gemini the turn's in the answer's `_meta.quota`; OpenCode and Copilot in the answer's `usage`,
//   Copilot's a running total over the session (`cumulativeUsage`).
// - Updates of other sessions on the same connection are not this turn's.

import { BoundedText } from "../../parsers/bounded-text.js";
import { failedTurn, retryEvent } from "../../parsers/event-builders.js";
import type {
  FailureKind,
  ParsedTurn,
  ProcessEnd,
  StreamParser,
  TurnEvent,
  TurnFailure,
  Usage,
} from "../../parsers/event-types.js";
import { failureFromText, retryKind } from "../../parsers/failure.js";
import { parseJsonLine } from "../../parsers/json-lines.js";
import { oneRedactedLine } from "../../parsers/tool-summary.js";
import { conclude, TurnRecord } from "../../parsers/turn-record.js";
import { addUsage } from "../../parsers/usage.js";
import { asRecord, readAs } from "../../parsers/wire.js";
import { AcpToolCalls } from "./acp-tool-calls.js";
import {
  answerUsage,
  CodexSessionInfo,
  ConfigOptions,
  CurrentMode,
  failureOfRpcError,
  MessageChunk,
  modeOption,
  Notification,
  PermissionRequest,
  PromptAnswer,
  ToolCallFields,
  usageOf,
} from "./acp-wire.js";

export interface AcpTurnOptions {
  /** The session the prompt was sent to; updates of other sessions are ignored. */
  readonly sessionId: string;
  /** The session's mode when the prompt was sent, as the agent reported it. */
  readonly mode?: string;
  /** The answer's `usage` is a running total over the session (Copilot CLI). */
  readonly cumulativeUsage?: boolean;
  /** For `push`: the JSON-RPC id of the `session/prompt` request, whose answer ends the turn. */
  readonly promptId?: number | string;
  /** Notices an agent sends as message text rather than as errors (Copilot CLI answers a failed
   * prompt `end_turn` after a chunk `Error: …`, and says `Info: … Retrying...` between attempts):
   * a chunk starting with one is a notice, not reply text. */
  readonly textNotices?: TextNotices;
  /** A server that answers a prompt whose model call failed `end_turn` with nothing said (pi-acp
   * drops pi's error): a turn without reply text or tool call is then a failure, in these words. */
  readonly emptyTurnFails?: string;
}

export interface TextNotices {
  /** An error; the turn failed when no reply text follows it. */
  readonly error?: RegExp;
  /** Information: a retry when it says so, with the attempt, of how many and the wait in seconds
   * where the pattern's groups `attempt`, `maxAttempts` and `delaySeconds` find them. */
  readonly info: RegExp;
}

export interface AcpTurnParser extends StreamParser {
  /** The params of a `session/update` notification. */
  update(params: unknown): TurnEvent[];
  /** The params of a `session/request_permission` request (its tool call may be news). */
  permission(params: unknown): TurnEvent[];
  /** The `session/prompt` answer. */
  answer(result: unknown): TurnEvent[];
  /** The JSON-RPC error `session/prompt` was answered with. */
  rejected(error: unknown): TurnEvent[];
  /** The permission for tool call `id` was refused: it ends, not run (some agents never say so). */
  refused(id: string): TurnEvent[];
  /** The prompt got no answer: its server is gone, for the reason `message` gives (one line). */
  ended(message: string, kind: FailureKind): TurnEvent[];
}

export function createAcpTurnParser(options: AcpTurnOptions): AcpTurnParser {
  const record = new TurnRecord();
  const calls = new AcpToolCalls();
  const reply = new LastMessage();
  let callUsage: Usage | undefined;
  let opened = false;
  let answered = false;
  /** The last error notice, while no reply text has followed it. */
  let noticeError: TurnFailure | undefined;
  /** The Codex adapter reported a system error: the text after it is its words, not a reply. */
  let systemError = false;

  /** The Codex adapter's thread status: a retry, or a system error whose words follow as text. */
  function sessionInfo(value: unknown): TurnEvent[] {
    const info = codexInfo(value);
    if (info.systemError) {
      systemError = true;
      reply.forget();
    }
    return info.events;
  }

  /** The events of a notice chunk, or null when the chunk is reply text. */
  function noticeOf(text: string): TurnEvent[] | null {
    const notice = options.textNotices === undefined ? null : readNotice(options.textNotices, text);
    if (notice?.error !== undefined) noticeError = notice.error;
    return notice?.events ?? null;
  }

  function observe(events: TurnEvent[]): TurnEvent[] {
    if (!opened) {
      opened = true;
      const opening: TurnEvent[] = [{ type: "session", sessionId: options.sessionId }];
      if (options.mode !== undefined) opening.push({ type: "mode", mode: options.mode });
      events.unshift(...opening);
    }
    record.observe(events);
    return events;
  }

  function tool(fields: ToolCallFields, fromPermission: boolean): TurnEvent[] {
    return calls.update(fields, fromPermission, () => reply.close());
  }

  function update(params: unknown): TurnEvent[] {
    const notification = readAs(Notification, params);
    if (notification === null) return invalid();
    if (notification.sessionId !== options.sessionId) return [];
    const value = asRecord(params).update;
    switch (notification.update.sessionUpdate) {
      case "agent_message_chunk": {
        const chunk = readAs(MessageChunk, value);
        if (chunk === null) return invalid();
        const events: TurnEvent[] = [];
        const usage = chunk._meta?.usage;
        if (usage !== undefined) {
          callUsage = addUsage(callUsage, usageOf(usage));
          events.push({ type: "usage", usage: callUsage });
        }
        const text = chunk.content?.type === "text" ? chunk.content.text : undefined;
        const notice = text === undefined ? null : noticeOf(text);
        if (notice !== null) events.push(...notice);
        else if (text !== undefined && text !== "") {
          noticeError = undefined;
          reply.append(chunk.messageId, text);
          // After a system error the text is the error's words, reported when the turn ends.
          if (!systemError) events.push({ type: "text", text, delta: true });
        }
        return observe(events);
      }
      case "tool_call":
      case "tool_call_update": {
        const fields = readAs(ToolCallFields, value);
        return fields === null ? invalid() : observe(tool(fields, false));
      }
      case "current_mode_update":
      case "config_option_update": {
        const events = modeEvents(notification.update.sessionUpdate, value);
        return events === null ? invalid() : observe(events);
      }
      case "session_info_update":
        return observe(sessionInfo(value));
      default:
        // Thoughts, plans, commands, the context window (`usage_update`): not events.
        return observe([]);
    }
  }

  function permission(params: unknown): TurnEvent[] {
    const request = readAs(PermissionRequest, params);
    return request === null ? invalid() : observe(tool(request.toolCall, true));
  }

  function answer(result: unknown): TurnEvent[] {
    const read = readAs(PromptAnswer, result);
    if (read === null) return invalid();
    answered = true;
    const events: TurnEvent[] = [];
    // Without one in the answer, the per-call sums already reported stand.
    const usage = answerUsage(read);
    if (usage !== undefined) events.push({ type: "usage", usage });
    switch (read.stopReason) {
      case "end_turn":
      case "max_tokens":
        if (noticeError !== undefined)
          events.push(...failedTurn(noticeError.message, noticeError.kind, noticeError.resetsAt));
        else if (systemError) {
          const words = oneLine(reply.take()) || "the agent reported a system error";
          events.push(...failedTurn(words));
        } else if (options.emptyTurnFails !== undefined && reply.isEmpty() && calls.tracked === 0)
          events.push(...failedTurn(options.emptyTurnFails, "other"));
        else events.push({ type: "turn-end", ok: true });
        break;
      default:
        events.push(...stoppedEvents(read.stopReason));
    }
    return observe(events);
  }

  function rejected(error: unknown): TurnEvent[] {
    const failure = failureOfRpcError(error);
    if (failure === null) return invalid();
    answered = true;
    return observe(failedTurn(failure.message, failure.kind, failure.resetsAt));
  }

  function refused(id: string): TurnEvent[] {
    return observe(calls.end(id, false));
  }

  function serverGone(message: string, kind: FailureKind): TurnEvent[] {
    answered = true;
    return observe(failedTurn(message, kind));
  }

  function invalid(): TurnEvent[] {
    record.badLines += 1;
    return [];
  }

  /** One JSON-RPC message from the agent. */
  function message(value: unknown): TurnEvent[] {
    const fields = asRecord(value);
    if (fields.jsonrpc !== "2.0") return invalid();
    if (typeof fields.method === "string") {
      if (fields.method === "session/update") return update(fields.params);
      if (fields.method === "session/request_permission") return permission(fields.params);
      return [];
    }
    if (options.promptId === undefined || fields.id !== options.promptId) return [];
    if ("error" in fields) return rejected(fields.error);
    return "result" in fields ? answer(fields.result) : invalid();
  }

  return {
    update,
    permission,
    answer,
    rejected,
    refused,
    ended: serverGone,
    push(line: string): TurnEvent[] {
      if (line.trim() === "") return [];
      const value = parseJsonLine(line);
      return value === undefined ? invalid() : message(value);
    },
    skipped(): void {
      record.badLines += 1;
    },
    finish(end: ProcessEnd): ParsedTurn {
      // A prompt never answered ends without a terminal event: the end says why (the agent died,
      // scv cancelled or timed it out).
      if (!answered) observe([]);
      return conclude(record, end, {
        reply: reply.text(),
        cumulativeUsage: options.cumulativeUsage === true,
      });
    },
  };
}

/** The reply: the last message, the text since the last tool call or message change. */
class LastMessage {
  private current = new BoundedText();
  private last: BoundedText | undefined;
  private messageId: string | undefined;

  append(messageId: string | undefined, text: string): void {
    if (messageId !== undefined && messageId !== this.messageId) {
      if (this.messageId !== undefined) this.close();
      this.messageId = messageId;
    }
    this.current.append(text);
  }

  /** A tool call or a new message begins: what came so far is the last message, if anything. */
  close(): void {
    if (this.current.size > 0) {
      this.last = this.current;
      this.current = new BoundedText();
    }
  }

  isEmpty(): boolean {
    return this.current.size === 0 && this.last === undefined;
  }

  /** Everything so far is not the reply (a system error's words follow). */
  forget(): void {
    this.close();
    this.last = undefined;
  }

  /** The text since the last close, taken (a system error's words). */
  take(): string {
    const text = this.current.toString();
    this.current.clear();
    return text;
  }

  text(): string {
    this.close();
    return (this.last ?? this.current).toString();
  }
}

/** A mode report: `current_mode_update`, or the mode among `config_option_update`'s options; null
 * when the update is not of its shape. */
function modeEvents(
  kind: "current_mode_update" | "config_option_update",
  value: unknown,
): TurnEvent[] | null {
  if (kind === "current_mode_update") {
    const mode = readAs(CurrentMode, value);
    return mode === null ? null : [{ type: "mode", mode: mode.currentModeId }];
  }
  const config = readAs(ConfigOptions, value);
  if (config === null) return null;
  const mode = modeOption(config.configOptions);
  return mode === undefined ? [] : [{ type: "mode", mode }];
}

/** A notice chunk's events, and the failure an error notice says; null when the chunk is reply text. */
function readNotice(notices: TextNotices, text: string): { events: TurnEvent[]; error?: TurnFailure } | null {
  if (notices.error?.test(text)) {
    const error = failureFromText(oneLine(text.replace(notices.error, "")));
    return { events: [{ type: "error", message: error.message, kind: error.kind, terminal: false }], error };
  }
  const info = notices.info.exec(text);
  if (info === null) return null;
  // Not every notice is a retry: Copilot's "Info: Operation cancelled by user", pi-acp's "Retry
  // finished, resuming." after one.
  if (!/\b(?:retrying|will retry)\b/i.test(text)) return { events: [] };
  // A prefix (Copilot's "Info: ") is left out; a notice the pattern matches whole is its own message.
  const message = oneLine(text.replace(notices.info, "")) || oneLine(text);
  const number = (group: string) => {
    const value = info.groups?.[group];
    return value === undefined ? undefined : Number(value);
  };
  const delaySeconds = number("delaySeconds");
  return {
    events: [
      retryEvent(message, {
        attempt: number("attempt"),
        maxAttempts: number("maxAttempts"),
        delayMs: delaySeconds === undefined ? undefined : delaySeconds * 1000,
      }),
    ],
  };
}

/** The end of a prompt the agent stopped short of its turn's end. */
function stoppedEvents(stopReason: string): TurnEvent[] {
  switch (stopReason) {
    case "refusal":
      return [{ type: "turn-end", ok: false, declined: true }];
    case "cancelled":
      // Ends as cancelled when scv cancelled it (the client's end says so); otherwise a failure.
      return failedTurn("the agent cancelled the turn, though scv did not ask it to", "other");
    case "max_turn_requests":
      return failedTurn("the agent stopped: it reached its limit of model requests for one turn", "other");
    default:
      return failedTurn(`the agent stopped: ${oneRedactedLine(stopReason)}`, "other");
  }
}

/** The Codex adapter's thread status: whether it reported a system error (whose words follow as
 * text), and a retry. */
function codexInfo(value: unknown): { systemError: boolean; events: TurnEvent[] } {
  const codex = readAs(CodexSessionInfo, value)?._meta.codex;
  if (codex === undefined) return { systemError: false, events: [] };
  const systemError = codex.threadStatus?.type === "systemError";
  const error = codex.error;
  if (error?.willRetry !== true || error.message === undefined) return { systemError, events: [] };
  const status = error.codexErrorInfo?.responseStreamDisconnected?.httpStatusCode;
  const kind = retryKind(status);
  const retry: TurnEvent = {
    type: "retry",
    message: error.message,
    ...(status === undefined ? {} : { status }),
    ...(kind === undefined ? {} : { kind }),
  };
  return { systemError, events: [retry] };
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
