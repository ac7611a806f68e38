// How a command line reaches a command: each command's module is imported only when it runs, and
// its exit code comes back to `run` (cli/main.ts).

import type { Command } from "commander";
import type { CliIo } from "../io.js";
import { unknownCommand } from "./usage-errors.js";

/** Wraps a lazily imported command so its exit code reaches `run`. */
export function lazy<A extends unknown[]>(
  io: CliIo,
  load: () => Promise<(io: CliIo, ...args: A) => Promise<number>>,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    const action = await load();
    io.exitCode = await action(io, ...args);
  };
}

/** A bare `scv agents` (or `conversations`) lists — a `--json` given to it is the list's — and
 * anything else that is not a subcommand is a usage error. */
export function defaultToList(
  parent: Command,
  name: string,
  io: CliIo,
  load: () => Promise<(io: CliIo, options: { json?: boolean }) => Promise<number>>,
): void {
  parent
    .usage("[command] [options]")
    .argument("[command]")
    .allowExcessArguments(true)
    .option("--json", "print JSON (the list, when no command is given)")
    .action(async (operand: string | undefined, options: { json?: boolean }) => {
      if (operand !== undefined) throw unknownCommand(`${name} command`, operand, parent);
      io.exitCode = await (await load())(io, options);
    });
}
