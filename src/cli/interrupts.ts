// What stops a running command from outside: SIGINT, SIGTERM, and stdout's reader going away
// (`scv delegate … --events | head -1`). All three abort one signal that every running turn
// listens on; its reason says which, and so which exit code the turn ends with.

import { setMaxListeners } from "node:events";
import { EXIT, OUTPUT_CLOSED } from "../errors.js";
import { handlingSignals } from "../transport/groups.js";
import type { CliIo } from "./io.js";

/** Runs `body` with an abort signal that scv's SIGINT/SIGTERM and a closed stdout fire; a second
 * signal exits at once (the process runner's exit hook SIGKILLs every agent group still alive). */
export async function withInterrupts<T>(
  io: CliIo,
  body: (signal: AbortSignal) => Promise<T>,
  agents = "the agents",
): Promise<T> {
  const controller = new AbortController();
  // Every running turn listens on this one signal; Node's leak warning past 10 listeners would
  // otherwise reach stderr with --parallel above 10 (0: no limit).
  setMaxListeners(0, controller.signal);
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      io.stderr.write(`scv: ${signal} again — killing ${agents} now\n`);
      process.exit(signal === "SIGTERM" ? EXIT.terminated : EXIT.interrupted);
    }
    controller.abort(signal);
  };
  const onOutputClosed = () => controller.abort(OUTPUT_CLOSED);
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const handled = handlingSignals();
  if (io.outputClosed?.aborted) onOutputClosed();
  io.outputClosed?.addEventListener("abort", onOutputClosed, { once: true });
  try {
    return await body(controller.signal);
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    handled();
    io.outputClosed?.removeEventListener("abort", onOutputClosed);
  }
}
