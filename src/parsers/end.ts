// The status of a turn from how its process ended and whether the parser saw a valid terminal event.

import type { ProcessEnd, TurnStatus } from "./types.js";

/** `timeout`/`cancelled` when scv ended the process; otherwise `completed` only when `succeeded`. */
export function endStatus(end: ProcessEnd, succeeded: boolean): TurnStatus {
  if (end.termination === "timeout" || end.termination === "idle-timeout") return "timeout";
  if (end.termination === "cancelled") return "cancelled";
  return succeeded ? "completed" : "failed";
}
