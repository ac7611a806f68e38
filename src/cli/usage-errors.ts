// Commander's usage errors as scv says them: one line naming what is wrong and where the command's
// options are listed, a prompt taken for an option answered with the command line that passes it,
// an unknown command with the known ones. Never a secret typed in the wrong place.

import type { Command } from "commander";
import { ScvError } from "../errors.js";
import { REDACTED, redact } from "../parsers/redact.js";

/** An unknown command (or subcommand) of `parent`, with the ones it has. */
export function unknownCommand(what: string, name: string | undefined, parent: Command): ScvError {
  // As help lists them: hidden ones (the detached runner's background-turn) are not offered.
  const known = parent
    .createHelp()
    .visibleCommands(parent)
    .map((command) => command.name())
    .filter((name) => name !== "help")
    .join(", ");
  return new ScvError("USAGE", `unknown ${what} '${name ?? ""}' — known: ${known}`);
}

/** The commands whose last operand is a prompt, which a user may begin with a dash. */
export const TAKES_A_PROMPT = new WeakSet<Command>();

/** Prompts longer than this are not echoed back whole: the line stays one readable line. */
const ECHOED_PROMPT_CHARS = 60;

/** For an "option" with a space in it — prompt text commander took for an option — the line that
 * says so and the command line that passes it as the prompt: after `--`, behind the agents given. */
function promptTakenForOption(command: Command, path: string, text: string): string | undefined {
  if (!TAKES_A_PROMPT.has(command)) return undefined;
  const option = /^error: unknown option '(.*)'\s*$/s.exec(text)?.[1];
  if (option === undefined || !/\s/.test(option)) return undefined;
  const index = command.args.indexOf(option);
  const conversation: unknown = command.opts().continue;
  const agents =
    index > 0
      ? command.args.slice(0, index).join(" ")
      : typeof conversation === "string"
        ? `-c ${conversation}`
        : "<agent>";
  // A long or multi-line prompt, or one that may carry a value (`--key=…`), shows its first word.
  const echoed = option.length <= ECHOED_PROMPT_CHARS && !/[\n\r=]/.test(option) && redact(option) === option;
  const shown = echoed ? option : `${redact(option.split(/[\s=]/)[0] ?? "")} …`;
  const prompt = echoed ? `'${option.replaceAll("'", "'\\''")}'` : "'<prompt>'";
  return `scv: unknown option '${shown}' — put the prompt after --: ${path} ${agents} -- ${prompt}\n`;
}

/** Commander's usage errors as scv's one line: what is wrong (with its suggestion, which commander
 * puts on a line of its own), then where the command's options are listed. Each command gets its
 * own, so that the line names that command's help. */
export function oneLineErrors(command: Command, path = "scv"): void {
  command.configureOutput({
    ...command.configureOutput(),
    outputError: (text, write) => {
      // Commander quotes what it did not understand, and a key typed as `--with-api-key=<key>` or
      // in the wrong place would land on stderr, in terminals and CI logs.
      const what = redact(
        text
          .replace(/^error: /, "")
          .trim()
          .replace(/\s*\n\s*/g, " ")
          .replace(/'(--?[^'=\s]+)=[^']*'/g, `'$1=${REDACTED}'`)
          // Its sentences end in a full stop, which the hint after the dash follows.
          .replace(/\.$/, ""),
      );
      write(promptTakenForOption(command, path, text) ?? `scv: ${what} — see: ${path} --help\n`);
    },
  });
  for (const sub of command.commands) oneLineErrors(sub, `${path} ${sub.name()}`);
}
