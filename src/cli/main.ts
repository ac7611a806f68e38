// The entry point: runs the command line (program.ts) and turns every failure into one line on
// stderr and the documented exit code, in one place.

import { asFileError, EXIT, ScvError } from "../errors.js";
import { sweepDeadTemporaries } from "../home/atomic.js";
import { turnLeftovers, turnsDir } from "../home/turn-files.js";
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

/** Turns whose scv was killed leave their records, and maybe a temporary file it was writing (one
 * holds the prompt); whatever the command, scv first stops what those turns left running and removes
 * temporary files whose writer is dead. One readdir when there is none; the registry is loaded only
 * when there is. */
async function reapLeftovers(io: CliIo): Promise<void> {
  const { handles, temporaries } = turnLeftovers(io.env);
  if (temporaries.length > 0) sweepDeadTemporaries(turnsDir(io.env), temporaries);
  if (handles.length === 0) return;
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
