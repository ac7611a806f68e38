// Concluding a turn once its CLI has exited: the session it confirmed, its usage, the conversation
// record saved (a record that cannot be saved is a note, never a lost reply), and the result with
// its exit code and one-line failure.

import { existsSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_ACCOUNT } from "../accounts.js";
import { isAcpSessionId } from "../acp/turn/plan-acp-server.js";
import { EXIT, ScvError } from "../errors.js";
import {
  type ConversationRecord,
  preview,
  readConversation,
  writeConversation,
} from "../home/conversations.js";
import type { Env } from "../home/paths.js";
import { keepQuota } from "../home/quota.js";
import type { ParsedTurn, TurnEvent, Usage } from "../parsers/event-types.js";
import { addUsage, cumulativeWentDown, turnShare } from "../parsers/usage.js";
import type { ProcessExit } from "../process/run.js";
import type { TurnResult } from "../result.js";
import { isoTimestamp } from "../timestamp.js";
import { isValidSessionId } from "../transport/argv.js";
import type { ModeMismatch } from "../transport/mode.js";
import { describeFailure, exitCodeOf, isLostSession } from "./outcome.js";
import type { TurnContext, TurnPlan } from "./turn-types.js";
import { recordUsage } from "./usage-record.js";

/** A turn whose agent has ended, as `conclude` reads it. */
export interface EndedTurn {
  /** What its output said, with the early verdict or a mode mismatch applied. */
  readonly parsed: ParsedTurn;
  readonly end: ProcessExit;
  /** When the turn started (ms since the epoch). */
  readonly started: number;
  /** The text of the CLI's last-message file, where its row has one. */
  readonly lastMessage?: string | undefined;
  /** The mode it reported, and a report that contradicted the policy. */
  readonly mode?: { reported?: string | undefined; mismatch?: ModeMismatch | undefined };
  /** The CLI's last event, when it was a retry: what a timed-out turn was waiting for. */
  readonly retrying?: Extract<TurnEvent, { type: "retry" }> | undefined;
}

export function conclude(plan: TurnPlan, ended: EndedTurn, context: TurnContext): TurnResult {
  const { parsed: reported, end, lastMessage, started, mode = {}, retrying } = ended;
  const { entry } = plan;
  const notes: string[] = [];
  // A continued turn whose CLI says the session is gone (the row's resume.lost).
  const failure = reported.failure;
  const parsed: ParsedTurn =
    failure?.kind === "other" && isLostSession(plan, failure.message)
      ? { ...reported, failure: { ...failure, kind: "lost-session" } }
      : reported;
  let confirmed: string | undefined;
  // A per-turn CLI that cannot resume (its resume needs its vendor's service) may still name its
  // session: there is nothing to record it for, and nothing to note.
  const keepsSession = plan.transport === "acp" || plan.entry.resume.kind === "supported";
  if (parsed.sessionId !== undefined && keepsSession) {
    if (sessionAccepted(plan, parsed.sessionId)) confirmed = parsed.sessionId;
    else
      notes.push(
        `${entry.product} reported a session id scv does not accept (not its documented shape); it was not recorded`,
      );
  }
  if (
    parsed.badLines > 0 &&
    lastMessage !== undefined &&
    lastMessage !== "" &&
    parsed.reply === lastMessage
  ) {
    notes.push(
      `the reply was read from ${entry.product}'s last-message file: its stream had unreadable lines`,
    );
  }
  confirmed ??= startedSession(plan);
  const sessionId = confirmed ?? plan.session?.id;

  // Read once: the turn's usage share and the updated record both start from it.
  const previous = latestRecord(plan, context.env);
  const turnUsage = usageOfTurn(parsed, previous?.cumulative);
  const cumulative = cumulativeBase(parsed, previous?.cumulative);
  // A first turn is recorded when it completed, or when its session exists on the CLI's side (so a
  // failed or stopped turn can still be continued); a continued turn always updates its record.
  // A turn in a worktree always is: the worktree and its branch belong to the conversation.
  let record: ConversationRecord | undefined;
  const recordable =
    plan.record !== undefined ||
    parsed.status === "completed" ||
    confirmed !== undefined ||
    plan.worktree !== undefined;
  const exitCode = exitCodeOf(parsed, context.signal);
  const duration = Math.max(0, Date.now() - started);
  if (plan.recordConversation && recordable) {
    try {
      record = saveRecord(
        plan,
        { parsed, exitCode, duration, sessionId, usage: { turn: turnUsage, cumulative } },
        previous,
        context,
      );
    } catch (error) {
      // The reply is here already; losing the record must not lose it.
      if (!(error instanceof ScvError)) throw error;
      notes.push(`this turn is not recorded: ${error.message}`);
    }
  }

  if (parsed.quota !== undefined) keepQuota(entry.name, plan.account, parsed.quota, context.env);
  const conversation = record?.handle ?? null;
  const unrecorded = recordUsage(
    plan,
    { parsed, usage: turnUsage, conversation, exitCode, started, durationMs: duration },
    context,
  );
  if (unrecorded !== undefined) notes.push(unrecorded);
  const [error, hint] =
    mode.mismatch === undefined
      ? describeFailure(plan, parsed, end, context.signal?.reason, retrying)
      : [mode.mismatch.error, mode.mismatch.hint];
  return {
    reply: parsed.reply,
    status: parsed.status,
    agent: entry.name,
    conversation,
    // A session the CLI no longer has is none to continue (its record keeps the id, for rm and gc).
    session: parsed.failure?.kind === "lost-session" ? null : (sessionId ?? null),
    usage: turnUsage ?? null,
    cost: turnUsage?.costUsd ?? null,
    duration,
    exitCode,
    error,
    hint,
    fallbacks: [],
    notes,
    mode: mode.reported ?? null,
    badLines: parsed.badLines,
    ...(exitCode === EXIT.rateLimited && parsed.failure?.resetsAt !== undefined
      ? { resetsAt: parsed.failure.resetsAt }
      : {}),
  };
}

/** Whether `id`, as the agent reported it, is a session id scv records for this turn's transport:
 * the row's own shape for a per-turn CLI (it goes back on its command line), printable and short
 * over ACP. */
export function sessionAccepted(plan: Pick<TurnPlan, "entry" | "transport">, id: string): boolean {
  return plan.transport === "acp" ? isAcpSessionId(id) : isValidSessionId(plan.entry, id);
}

/** What a turn's end adds to its conversation's record. */
interface RecordedTurn {
  readonly parsed: ParsedTurn;
  readonly exitCode: number;
  readonly duration: number;
  readonly sessionId: string | undefined;
  readonly usage: { turn: Usage | undefined; cumulative: Usage | undefined };
}

function saveRecord(
  plan: TurnPlan,
  { parsed, exitCode, duration, sessionId, usage }: RecordedTurn,
  previous: ConversationRecord | undefined,
  context: TurnContext,
): ConversationRecord {
  const turnUsage = usage.turn;
  const now = isoTimestamp(context.now?.());
  const record: ConversationRecord = {
    ...previous,
    handle: plan.handle,
    agent: plan.entry.name,
    ...(plan.account === DEFAULT_ACCOUNT ? {} : { account: plan.account }),
    sessionId: sessionId ?? previous?.sessionId,
    transport: plan.transport,
    cwd: plan.cwd,
    // The first turn's settings stay the conversation's: -m, -e and --policy on a later turn are
    // that turn's only (plan.ts, continuedDefaults).
    ...(previous === undefined
      ? { model: plan.model, effort: plan.effort, policy: plan.policy }
      : { model: previous.model, effort: previous.effort, policy: previous.policy }),
    createdAt: previous?.createdAt ?? now,
    updatedAt: now,
    turns: (previous?.turns ?? 0) + 1,
    lastPrompt: preview(plan.prompt),
    usage: turnUsage === undefined ? (previous?.usage ?? {}) : { ...addUsage(previous?.usage, turnUsage) },
    cumulative: usage.cumulative === undefined ? undefined : { ...usage.cumulative },
    lastStatus: parsed.status,
    lastExitCode: exitCode,
    duration: (previous?.duration ?? 0) + duration,
    ...(plan.worktree === undefined ? {} : { worktree: previous?.worktree ?? plan.worktree }),
  };
  writeConversation(record, context.env);
  return record;
}

/** A continued conversation's record as it is now, under the turn's lock: another turn of it may
 * have ended while this one waited for the lock (planned from the record before it). */
function latestRecord(plan: TurnPlan, env: Env): ConversationRecord | undefined {
  if (plan.record === undefined) return undefined;
  try {
    return readConversation(plan.handle, env);
  } catch {
    return plan.record;
  }
}

/** scv's id for a new session, when the CLI's files show it started that session although its stream
 * did not say so (a turn stopped before its last line: the row's `sessionPath`). */
function startedSession(plan: TurnPlan): string | undefined {
  const chosen = chosenSession(plan);
  return chosen !== undefined && existsSync(chosen.path) ? chosen.id : undefined;
}

/** The session scv chose for a new conversation's CLI, with the path that shows the CLI started it
 * (the row's `sessionPath`); undefined where either is missing. */
export function chosenSession(
  plan: Pick<TurnPlan, "entry" | "session" | "home">,
): { id: string; path: string } | undefined {
  const { resume } = plan.entry;
  if (plan.session?.kind !== "start" || resume.kind !== "supported" || resume.sessionPath === undefined)
    return undefined;
  return {
    id: plan.session.id,
    path: join(plan.home, resume.sessionPath.replace("{session}", plan.session.id)),
  };
}

/** This turn's usage: as reported, or its share of a running total across resumed turns (a total
 * below the previous one means the CLI's counter restarted, so all of it is this turn's); for a turn
 * stopped before its report, what its stream showed. */
function usageOfTurn(parsed: ParsedTurn, previousTotal: Usage | undefined): Usage | undefined {
  if (parsed.usage === undefined) return parsed.unreportedUsage;
  if (!parsed.cumulativeUsage || previousTotal === undefined) return parsed.usage;
  return cumulativeWentDown(parsed.usage, previousTotal)
    ? parsed.usage
    : turnShare(parsed.usage, previousTotal);
}

/** The running total the CLI's next report starts from, kept in the conversation record: the report,
 * or for a turn stopped before it (which reports nothing though the CLI counts its model calls in its
 * next total: lab, after Ctrl-C) the last total plus what the stream showed of them. Without
 * that, the next turn would count the stopped turn's tokens, and every turn's before it, as its own. */
function cumulativeBase(parsed: ParsedTurn, previousTotal: Usage | undefined): Usage | undefined {
  if (!parsed.cumulativeUsage) return undefined;
  if (parsed.usage !== undefined) return parsed.usage;
  if (parsed.unreportedUsage === undefined) return previousTotal;
  return addUsage(previousTotal, parsed.unreportedUsage);
}
