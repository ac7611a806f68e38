// The status of a turn from how its process ended and what terminal event the parser saw.

import type { ProcessEnd, TurnStatus } from "./event-types.js";

/** What the CLI's own terminal event said, if it sent one. */
export type TerminalOutcome = "ok" | "failed" | "declined";

/**
 * A turn completes only with a valid terminal event: exit 0 alone proves nothing (Codex and pi
 * exit 0 on failures). A success event counts when the process then exits 0, or when scv itself
 * ended a process that lingered after it. Without a terminal event, or with one that only came
 * after scv began ending the process, scv's own reason for ending it names the status.
 */
export function turnStatus(end: ProcessEnd, terminal: TerminalOutcome | undefined): TurnStatus {
  if (end.termination !== undefined && (terminal === undefined || end.verdictAfterStop === true))
    return terminationStatus(end.termination);
  if (terminal === "failed") return "failed";
  if (terminal === "declined") return "declined";
  if (terminal === "ok" && (end.exitCode === 0 || end.termination !== undefined)) return "completed";
  return "failed";
}

function terminationStatus(termination: NonNullable<ProcessEnd["termination"]>): TurnStatus {
  return termination === "cancelled" ? "cancelled" : "timeout";
}
