// One prompt on an ACP session as a scv turn: the agent's updates and permission requests go
// through acp/events/acp-parser.ts as they arrive (each event handed on at once), and how the prompt ended
// becomes the ProcessEnd the parser concludes the turn from — the same ParsedTurn a per-turn
// process gives.

import type { ParsedTurn, ProcessEnd, TurnEvent } from "../../parsers/event-types.js";
import { failureFromStderr } from "../../parsers/failure.js";
import { timing } from "../../timing.js";
import { type AcpTurnOptions, createAcpTurnParser } from "../events/acp-parser.js";
import type { AcpAgent, PromptOutcome } from "./agent.js";
import { describeExit } from "./agent-errors.js";
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
  const settled = await unaskedCancel(request.agent, outcome);
  if (settled.kind === "answered") emit(parser.answer(settled.result));
  else if (settled.kind === "rejected") emit(parser.rejected(settled.error));
  else if (settled.cause !== undefined)
    emit(parser.ended(`scv ended its ACP server: ${settled.cause}`, "other"));
  else if (settled.reason === "exited" && settled.exit.termination === undefined)
    emit(
      parser.ended(
        `its ACP server exited before answering the prompt: ${describeExit(settled.exit)}`,
        failureFromStderr(settled.exit.stderrTail)?.kind ?? "other",
      ),
    );
  return { turn: parser.finish(endOf(settled)), outcome: settled };
}

/** A prompt answered `cancelled` that scv never cancelled: a server whose own worker died answers
 * so, then exits (lab: one, when its inner process is killed). Such a server's exit is what
 * the turn reports, not a cancel nobody asked for. */
async function unaskedCancel(agent: AcpAgent, outcome: PromptOutcome): Promise<PromptOutcome> {
  if (outcome.kind !== "answered" || outcome.stopped !== undefined) return outcome;
  const reason = (outcome.result as { stopReason?: unknown } | null)?.stopReason;
  if (reason !== "cancelled") return outcome;
  let timer: NodeJS.Timeout | undefined;
  const exit = await Promise.race([
    agent.exited,
    new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), timing("unaskedCancelExit")).unref();
    }),
  ]);
  clearTimeout(timer);
  const died = exit !== undefined && exit.termination === undefined && exit.exitCode !== 0;
  return died ? { kind: "ended", reason: "exited", exit } : outcome;
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
