// The entry point: runs the command line (program.ts) and turns every failure into one line on
// stderr and the documented exit code, in one place.

import { asFileError, EXIT, ScvError } from "../errors.js";
import { runningHandles } from "../home/turn-files.js";
import { type CliIo, processIo } from "./io.js";
import { runProgram } from "./program.js";

/** Runs scv with `argv` (without node and script) and returns the exit code. */
export async function run(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  try {
    await reapLeftovers(io);
    return await runProgram(argv, io);
  } catch (error) {
    return report(error, io);
  }
}

/** Turns whose scv was killed leave their records; whatever the command, scv first stops what those
 * turns left running. One readdir when there is none; the registry is loaded only when there is. */
async function reapLeftovers(io: CliIo): Promise<void> {
  if (runningHandles(io.env).length === 0) return;
  const { reapOrphans } = await import("../turn/reap.js");
  await reapOrphans(io.env);
}

function report(thrown: unknown, io: CliIo): number {
  const error = asFileError(thrown);
  if (error instanceof ScvError) {
    io.stderr.write(`scv: ${error.message}\n`);
    return error.exitCode;
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  io.stderr.write(`scv: internal error — please report it\n${detail}\n`);
  return EXIT.agentFailed;
}
