// What stops a running command from outside: SIGINT, SIGTERM, SIGHUP (its terminal closed), and
// stdout's reader going away (`scv delegate … --events | head -1`). Each aborts one signal that every
// running turn listens on; its reason says which, and so which exit code the turn ends with.

import { setMaxListeners } from "node:events";
import { EXIT, HANGUP, OUTPUT_CLOSED } from "../errors.js";
import type { CliIo } from "../io.js";
import { handleSignals } from "../process/lifecycle.js";

/** The signals that stop a running turn; SIGHUP is the terminal closing. */
const SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
const EXIT_ON_SECOND: Partial<Record<NodeJS.Signals, number>> = {
  SIGTERM: EXIT.terminated,
  SIGHUP: EXIT.hangup,
};

/** Runs `body` with an abort signal that scv's SIGINT/SIGTERM/SIGHUP and a closed stdout fire; a
 * second signal exits at once (the process runner's exit hook SIGKILLs every agent group still alive).
 * `agents` names what that kills, in the line saying so; null for a command that runs none (`scv
 * logs`, `scv ps --watch`). */
export async function withInterrupts<T>(
  io: CliIo,
  body: (signal: AbortSignal) => Promise<T>,
  agents: string | null = "the agents",
): Promise<T> {
  const controller = new AbortController();
  // Every turn of a fan-out listens on this one signal: no leak warning past ten of them.
  setMaxListeners(0, controller.signal);
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      if (agents !== null) io.stderr.write(`scv: ${signal} again — killing ${agents} now\n`);
      process.exit(EXIT_ON_SECOND[signal] ?? EXIT.interrupted);
    }
    controller.abort(signal);
  };
  const onOutputClosed = () => controller.abort(io.outputClosed?.reason === HANGUP ? HANGUP : OUTPUT_CLOSED);
  const handled = handleSignals(SIGNALS, onSignal);
  if (io.outputClosed?.aborted) onOutputClosed();
  io.outputClosed?.addEventListener("abort", onOutputClosed, { once: true });
  try {
    return await body(controller.signal);
  } finally {
    handled();
    io.outputClosed?.removeEventListener("abort", onOutputClosed);
  }
}
