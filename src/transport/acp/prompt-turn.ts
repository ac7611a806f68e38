// One prompt on an ACP session as a scv turn: the agent's updates and permission requests go
// through parsers/acp.ts as they arrive (each event handed on at once), and how the prompt ended
// becomes the ProcessEnd the parser concludes the turn from — the same ParsedTurn a per-turn
// process gives.

import { type AcpTurnOptions, createAcpTurnParser } from "../../parsers/acp.js";
import type { ParsedTurn, ProcessEnd, TurnEvent } from "../../parsers/types.js";
import type { AcpAgent, PromptOutcome } from "./agent.js";
import { allows, type PermissionAsk, type PermissionChoice, rejectChoice } from "./permission.js";

export interface AcpPromptRequest extends Omit<AcpTurnOptions, "promptId"> {
  readonly agent: AcpAgent;
  readonly prompt: string;
  /** Each normalized event as it happens. */
  readonly onEvent?: (event: TurnEvent) => void;
  /** Answers the prompt's permission requests; rejects them by default. */
  readonly decide?: (ask: PermissionAsk) => Promise<PermissionChoice>;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  readonly idleTimeoutMs?: number;
  readonly cancelGraceMs?: number;
}

export interface AcpPromptResult {
  readonly turn: ParsedTurn;
  readonly outcome: PromptOutcome;
}

export async function runAcpPrompt(request: AcpPromptRequest): Promise<AcpPromptResult> {
  const parser = createAcpTurnParser(request);
  const emit = (events: readonly TurnEvent[]) => {
    for (const event of events) request.onEvent?.(event);
  };
  const decide = request.decide ?? (async (ask: PermissionAsk) => rejectChoice(ask));
  const outcome = await request.agent.prompt(request.sessionId, request.prompt, {
    onUpdate: (params) => emit(parser.update(params)),
    onPermission: async (ask) => {
      emit(parser.permission(ask.raw));
      const choice = await decide(ask);
      if (!allows(ask, choice) && ask.toolCallId !== undefined) emit(parser.refused(ask.toolCallId));
      return choice;
    },
    ...(request.signal === undefined ? {} : { signal: request.signal }),
    ...(request.timeoutMs === undefined ? {} : { timeoutMs: request.timeoutMs }),
    ...(request.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: request.idleTimeoutMs }),
    ...(request.cancelGraceMs === undefined ? {} : { cancelGraceMs: request.cancelGraceMs }),
  });
  if (outcome.kind === "answered") emit(parser.answer(outcome.result));
  else if (outcome.kind === "rejected") emit(parser.rejected(outcome.error));
  return { turn: parser.finish(endOf(outcome)), outcome };
}

/** How the turn ended, in the terms of a process's end: an answered prompt is a clean exit (the
 * agent itself may run on), one scv stopped carries its reason. */
export function endOf(outcome: PromptOutcome): ProcessEnd {
  if (outcome.kind === "ended") {
    const { exit } = outcome;
    return {
      exitCode: exit.exitCode,
      signal: exit.signal,
      stderrTail: exit.stderrTail,
      ...(outcome.reason === "exited" ? {} : { termination: outcome.reason }),
    };
  }
  return {
    exitCode: 0,
    signal: null,
    stderrTail: "",
    ...(outcome.stopped === undefined ? {} : { termination: outcome.stopped, verdictAfterStop: true }),
  };
}
