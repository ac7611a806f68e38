// How a turn stopped from outside ends: the abort reason its signal carries decides its exit code,
// its error code and the words for what became of the agent.

import { type ErrorCode, EXIT, type ExitCode, OUTPUT_CLOSED, ScvError } from "../errors.js";

/** The abort reason of a turn stopped by `scv kill`; it ends like a turn whose scv got SIGTERM. */
export const KILL_REASON = "scv kill";

interface Stop {
  readonly exitCode: ExitCode;
  readonly code: ErrorCode;
  /** What became of the agent, after its name. */
  readonly ended: string;
}

/** How a turn stopped from outside ends, by the abort reason: SIGTERM to scv and `scv kill` alike
 * (exit 143), a closed terminal as a shell's jobs end (129), a closed stdout as a pipe writer on
 * SIGPIPE (141), anything else as an interruption (130). */
const INTERRUPTED: Stop = { exitCode: EXIT.interrupted, code: "INTERRUPTED", ended: "was interrupted" };
export const STOPS: Readonly<Record<string, Stop>> = {
  SIGINT: INTERRUPTED,
  SIGTERM: { exitCode: EXIT.terminated, code: "TERMINATED", ended: "was stopped (scv got SIGTERM)" },
  [KILL_REASON]: { exitCode: EXIT.terminated, code: "TERMINATED", ended: "was stopped by scv kill" },
  SIGHUP: { exitCode: EXIT.hangup, code: "HANGUP", ended: "was stopped: scv's terminal closed (SIGHUP)" },
  [OUTPUT_CLOSED]: {
    exitCode: EXIT.outputClosed,
    code: "OUTPUT_CLOSED",
    ended: "was stopped: scv's output was closed",
  },
};

export function stopOf(reason: unknown): Stop {
  return (typeof reason === "string" ? STOPS[reason] : undefined) ?? INTERRUPTED;
}

export function stopExitCode(signal: AbortSignal | undefined): ExitCode {
  return stopOf(signal?.reason).exitCode;
}

export function interrupted(signal: AbortSignal | undefined, message: string): ScvError {
  return new ScvError(stopOf(signal?.reason).code, message);
}
