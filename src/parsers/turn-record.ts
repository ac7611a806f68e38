// What every parser learns the same way from its own normalized events (session, mode, usage,
// errors, the terminal event), and the one place a turn's result is concluded from it.

import type { FailureKind, ParsedTurn, ProcessEnd, TurnEvent, TurnFailure, Usage } from "./event-types.js";
import {
  classifyErrorText,
  failureFromStderr,
  failureFromText,
  lastStderrLine,
  resetTimeIn,
} from "./failure.js";
import { redact } from "./redact.js";
import { type TerminalOutcome, turnStatus } from "./turn-status.js";

export class TurnRecord {
  sessionId: string | undefined;
  mode: string | undefined;
  usage: Usage | undefined;
  terminal: TerminalOutcome | undefined;
  /** The error a terminal event carried. */
  terminalError: TurnFailure | undefined;
  /** The last non-terminal error and retry notice: clues when the stream ends without a verdict. */
  lastError: TurnFailure | undefined;
  lastRetry: TurnFailure | undefined;
  badLines = 0;

  observe(events: readonly TurnEvent[]): void {
    for (const event of events) this.observeOne(event);
  }

  private observeOne(event: TurnEvent): void {
    switch (event.type) {
      case "session":
        this.sessionId = event.sessionId;
        return;
      case "mode":
        this.mode = event.mode;
        return;
      case "usage":
        this.usage = event.usage;
        return;
      case "retry":
        // A connection that never got an answer says so itself; its words name no other kind.
        this.lastRetry =
          event.kind === "unreachable"
            ? { kind: "unreachable", message: event.message }
            : failureFromText(event.message);
        // A CLI that retries after its terminal event was not finished (pi ends the failed attempt
        // before retrying it): that verdict is withdrawn, its error only a clue if no other comes.
        if (this.terminalError !== undefined) this.lastError = this.terminalError;
        this.terminalError = undefined;
        this.terminal = undefined;
        return;
      case "error": {
        const resetsAt =
          event.resetsAt ?? (event.kind === "rate-limit" ? resetTimeIn(event.message) : undefined);
        const failure: TurnFailure = {
          kind: event.kind,
          message: event.message,
          ...(resetsAt === undefined ? {} : { resetsAt }),
        };
        if (event.terminal) this.terminalError = failure;
        else this.lastError = failure;
        return;
      }
      case "turn-end":
        // A failure anywhere in the turn outweighs a later success event (OpenCode can finish a
        // step and then report a session error).
        if (this.terminal !== "failed")
          this.terminal = event.ok ? "ok" : event.declined ? "declined" : "failed";
        return;
      case "text":
      case "tool-start":
      case "tool-end":
        return;
    }
  }
}

export interface ConcludeOptions {
  readonly reply: string;
  /** Whether the usage is a running total across resumed turns (see `usage.ts`). */
  readonly cumulativeUsage: boolean;
  /** The usage the stream showed, kept when the CLI reported none (`ParsedTurn.unreportedUsage`). */
  readonly unreportedUsage?: Usage;
  /** A failure kind an exit code names by itself (Gemini's 41: authentication). */
  readonly exitCodeKind?: (code: number) => FailureKind | undefined;
  /** False for plain text output, which has no terminal event to miss. */
  readonly hasTerminalEvent?: boolean;
}

export function conclude(record: TurnRecord, end: ProcessEnd, options: ConcludeOptions): ParsedTurn {
  const terminal = record.terminalError === undefined ? record.terminal : "failed";
  const status = turnStatus(end, terminal);
  const found = status === "failed" ? failureOf(record, end, options) : undefined;
  // Error lines can quote a request's headers or a command line; they are printed to the user.
  const failure = found === undefined ? undefined : { ...found, message: redact(found.message) };
  return {
    status,
    reply: options.reply,
    ...(record.sessionId === undefined ? {} : { sessionId: record.sessionId }),
    ...(record.mode === undefined ? {} : { mode: record.mode }),
    ...(record.usage === undefined ? {} : { usage: record.usage }),
    cumulativeUsage: options.cumulativeUsage,
    ...(record.usage === undefined && options.cumulativeUsage && options.unreportedUsage !== undefined
      ? { unreportedUsage: options.unreportedUsage }
      : {}),
    ...(failure === undefined ? {} : { failure }),
    badLines: record.badLines,
  };
}

function exitedNonZero(end: ProcessEnd): boolean {
  return end.exitCode !== null && end.exitCode !== 0;
}

function failureOf(record: TurnRecord, end: ProcessEnd, options: ConcludeOptions): TurnFailure {
  const { exitCodeKind, hasTerminalEvent = true } = options;
  if (record.terminalError !== undefined) return record.terminalError;
  // No terminal error: piece the failure together from stderr and the stream's last complaints.
  const clues = [failureFromStderr(end.stderrTail), record.lastError, record.lastRetry].filter(
    (clue): clue is TurnFailure => clue !== undefined,
  );
  const first = clues[0];
  const message = first?.message ?? describeEnd(record, end, hasTerminalEvent);
  const named = clues.find((clue) => clue.kind !== "other");
  let kind: FailureKind =
    (end.exitCode === null ? undefined : exitCodeKind?.(end.exitCode)) ??
    named?.kind ??
    classifyErrorText(message);
  // Without a terminal error event, only a failing exit code makes a rate limit the cause: a CLI
  // that retried a 429 and then stopped for another reason was not rate limited.
  if (kind === "rate-limit" && !exitedNonZero(end)) kind = "other";
  const resetsAt = kind === "rate-limit" ? named?.resetsAt : undefined;
  return resetsAt === undefined ? { kind, message } : { kind, message, resetsAt };
}

/** Words for a process that ended without saying why. */
function describeEnd(record: TurnRecord, end: ProcessEnd, hasTerminalEvent: boolean): string {
  const how =
    end.exitCode === null ? `was ended by ${end.signal ?? "a signal"}` : `exited with code ${end.exitCode}`;
  if (record.terminal === "ok") return `${how} after reporting success`;
  const last = lastStderrLine(end.stderrTail);
  const suffix = last === undefined ? "" : ` (stderr: ${last})`;
  return hasTerminalEvent ? `${how} without a final result event${suffix}` : `${how}${suffix}`;
}
