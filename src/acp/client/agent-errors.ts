// Why an ACP agent could not be used, in one line a user can act on, with how its process ended.

import { lastErrorLine, lastStderrLine } from "../../parsers/failure.js";
import { redact } from "../../parsers/redact.js";
import type { ProcessExit } from "../../process/run.js";

export type AcpFailure =
  /** The executable could not be started. */
  | "spawn"
  /** No `initialize` answer in time. */
  | "initialize-timeout"
  /** `initialize` failed: refused, or the agent exited first. */
  | "initialize"
  /** The agent speaks another protocol version, or answered without what the protocol requires. */
  | "protocol"
  /** A request other than a prompt got no answer in time. */
  | "timeout"
  /** A request other than a prompt was refused. */
  | "request"
  /** The agent exited while a request waited. */
  | "exited"
  /** The agent does not offer what was asked (`session/load`). */
  | "unsupported"
  /** A prompt is already running in that session. */
  | "busy";

export class AcpAgentError extends Error {
  constructor(
    readonly reason: AcpFailure,
    message: string,
    /** How the agent's process ended, when scv ended it or it exited. */
    readonly exit?: ProcessExit,
    /** The JSON-RPC error a refused request got, for its class (auth, rate limit). */
    readonly rpcError?: unknown,
  ) {
    super(redact(message));
    this.name = "AcpAgentError";
  }
}

/** How a process ended, with its last error-shaped stderr line. */
export function describeExit(exit: ProcessExit): string {
  if (exit.spawnError !== undefined) return exit.spawnError.code ?? exit.spawnError.message;
  const how =
    exit.termination !== undefined
      ? `ended by scv (${exit.termination})`
      : exit.exitCode === null
        ? `ended by ${exit.signal ?? "a signal"}`
        : `exit code ${exit.exitCode}`;
  const line = lastErrorLine(exit.stderrTail) ?? lastStderrLine(exit.stderrTail);
  return line === undefined ? how : `${how} (stderr: ${line.slice(0, 200)})`;
}
