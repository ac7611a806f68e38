// A concluded turn's line in the usage log (src/home/usage-log.ts): what ran, under which account,
// what it cost and how it ended. Every turn whose agent ran is kept the same way — foreground,
// background, fan-out and MCP turns all conclude here — except a probe that asked to leave nothing
// (`record: false`, which only a caller inside scv sets).

import { DEFAULT_ACCOUNT } from "../accounts.js";
import { ScvError } from "../errors.js";
import type { Env } from "../home/paths.js";
import type { RunningTurnRecord } from "../home/turn-records.js";
import { appendUsage, type UsageEntry } from "../home/usage-log.js";
import type { ParsedTurn, Usage } from "../parsers/event-types.js";
import type { TurnResult } from "../result.js";
import { isoTimestamp } from "../timestamp.js";
import type { TurnContext, TurnPlan } from "./turn-types.js";

export interface ConcludedTurn {
  readonly parsed: ParsedTurn;
  /** This turn's usage, already cleaned and as a share of a running total. */
  readonly usage: Usage | undefined;
  readonly conversation: string | null;
  readonly exitCode: number;
  /** When the turn started, in epoch milliseconds, and how long it took. */
  readonly started: number;
  readonly durationMs: number;
}

function usageEntry(plan: TurnPlan, turn: ConcludedTurn): UsageEntry {
  return {
    v: 1,
    startedAt: isoTimestamp(new Date(turn.started)),
    durationMs: turn.durationMs,
    agent: plan.entry.name,
    account: plan.account,
    ...(plan.model === undefined ? {} : { model: plan.model }),
    ...(plan.effort === undefined ? {} : { effort: plan.effort }),
    transport: plan.transport,
    conversation: turn.conversation,
    status: turn.parsed.status,
    exitCode: turn.exitCode,
    ...(turn.parsed.failure === undefined ? {} : { failure: turn.parsed.failure.kind }),
    ...(turn.usage === undefined ? {} : { usage: { ...turn.usage } }),
  };
}

/** Adds the turn to the usage log; the note to show when it cannot (the reply is kept either way). */
export function recordUsage(plan: TurnPlan, turn: ConcludedTurn, context: TurnContext): string | undefined {
  if (!plan.keepUsage) return undefined;
  try {
    appendUsage(usageEntry(plan, turn), context.env);
    return undefined;
  } catch (error) {
    if (!(error instanceof ScvError)) throw error;
    return `this turn's usage is not recorded: ${error.message}`;
  }
}

/** A turn whose scv died, as the reaper recorded it: what it used is unknown (its CLI's report, if
 * any, died with the scv), so it counts as a turn and a failure without usage. Best effort: the
 * reaper runs at every start and must not fail one. */
export function recordReapedUsage(record: RunningTurnRecord, result: TurnResult, env: Env): void {
  const startedAt = Date.parse(record.startedAt);
  if (!Number.isFinite(startedAt)) return;
  try {
    appendUsage(
      {
        v: 1,
        startedAt: isoTimestamp(new Date(startedAt)),
        durationMs: result.duration,
        agent: record.agent,
        account: record.account ?? DEFAULT_ACCOUNT,
        ...(record.model === undefined ? {} : { model: record.model }),
        conversation: result.conversation,
        status: result.status,
        exitCode: result.exitCode,
      },
      env,
    );
  } catch (error) {
    if (!(error instanceof ScvError)) throw error;
  }
}
