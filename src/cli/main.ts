// The entry point: runs the command line and turns every failure into one line on stderr and the
// documented exit code, in one place. A well-formed `scv delegate …` is parsed by node's own
// util.parseArgs from the option table (delegate-options.ts); everything else, help and usage
// errors included, goes through commander (program.ts), loaded only then.

import { asFileError, EXIT, ScvError } from "../errors.js";
import { runningHandles } from "../home/turn-files.js";
import { parseDelegateArgs } from "./delegate-options.js";
import { type CliIo, processIo } from "./io.js";

/** Runs scv with `argv` (without node and script) and returns the exit code. */
export async function run(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  try {
    await reapLeftovers(io);
    const delegate = argv[0] === "delegate" ? parseDelegateArgs(argv.slice(1)) : undefined;
    if (delegate !== undefined) {
      const { delegateCommand } = await import("../commands/delegate.js");
      return await delegateCommand(io, delegate.positionals, delegate.options);
    }
    return await (await import("./program.js")).runProgram(argv, io);
  } catch (error) {
    return report(error, io);
  }
}

/** Turns whose scv was killed leave their records; whatever the command, scv first stops what those
 * turns left running. One readdir when there is none; the registry is loaded only when there is. */
async function reapLeftovers(io: CliIo): Promise<void> {
  if (runningHandles(io.env).length === 0) return;
  const { reapOrphans } = await import("../home/running.js");
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
