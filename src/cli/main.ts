// The entry point: runs the command line (program.ts) and turns every failure into one line on
// stderr and the documented exit code, in one place. It imports no more than that: what a command
// needs before its work (before-command.ts) and the command itself load when it runs, so
// `scv --version` and help start on the program alone.

import { asFileError, EXIT, ScvError } from "../errors.js";
import type { CliIo } from "../io.js";
import { processIo } from "./io.js";
import { runProgram } from "./program.js";

/** Runs scv with `argv` (without node and script) and returns the exit code. */
export async function run(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  try {
    return await runProgram(argv, io, async () => (await import("./before-command.js")).beforeCommand(io));
  } catch (error) {
    return report(error, io);
  }
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
