// A `session/request_permission` as scv reads it, and the answers scv can give: one of the options
// the agent offered, or `cancelled` (the prompt was cancelled while it waited).

import { asRecord } from "../../parsers/wire.js";

interface PermissionOption {
  readonly optionId: string;
  readonly name: string;
  /** allow_once, allow_always, reject_once, reject_always (or a kind newer than scv). */
  readonly kind: string;
}

export interface PermissionAsk {
  readonly sessionId: string;
  readonly options: readonly PermissionOption[];
  /** The tool call it is about, as the agent sent it (acp/events/acp-parser.ts reads it). */
  readonly toolCall: unknown;
  readonly toolCallId?: string;
  /** The request's params as the agent sent them. */
  readonly raw: unknown;
}

export type PermissionChoice = { readonly optionId: string } | "cancelled";

export function readPermissionAsk(params: unknown): PermissionAsk | undefined {
  const fields = asRecord(params);
  if (typeof fields.sessionId !== "string" || !Array.isArray(fields.options)) return undefined;
  const options: PermissionOption[] = [];
  for (const option of fields.options) {
    const { optionId, name, kind } = asRecord(option);
    if (typeof optionId !== "string") continue;
    options.push({
      optionId,
      name: typeof name === "string" ? name : optionId,
      kind: typeof kind === "string" ? kind : "",
    });
  }
  const { toolCallId } = asRecord(fields.toolCall);
  return {
    sessionId: fields.sessionId,
    options,
    toolCall: fields.toolCall,
    ...(typeof toolCallId === "string" ? { toolCallId } : {}),
    raw: params,
  };
}

/** Whether `choice` lets the tool run. */
export function allows(ask: PermissionAsk, choice: PermissionChoice): boolean {
  if (choice === "cancelled") return false;
  const kind = ask.options.find((option) => option.optionId === choice.optionId)?.kind ?? "";
  return kind.startsWith("allow");
}

/** The option of `kind` the agent offered, if any. */
export function optionOf(ask: PermissionAsk, kind: string): PermissionChoice | undefined {
  const option = ask.options.find((candidate) => candidate.kind === kind);
  return option === undefined ? undefined : { optionId: option.optionId };
}

/** What scv answers when nobody may approve: reject once, else reject always, else cancelled. */
export function rejectChoice(ask: PermissionAsk): PermissionChoice {
  return optionOf(ask, "reject_once") ?? optionOf(ask, "reject_always") ?? "cancelled";
}
