// `scv delegate`'s options as data: commander builds its help and parsing from them
// (program.ts), and the common case — a well-formed `scv delegate …` — is parsed from them by
// node's own util.parseArgs without loading commander (parseDelegateArgs). Loading and building
// commander's program cost every turn ~15 ms of start-up; a command line the quick parse is not
// sure about goes to commander, so help, errors and every edge case behave exactly as before.

import { parseArgs } from "node:util";
import type { DelegateOptions } from "../commands/delegate.js";

export interface DelegateOptionSpec {
  /** `--long`, also the key of DelegateOptions in camelCase. */
  readonly long: string;
  readonly short?: string;
  /** The value's placeholder (`<id>`); a flag when absent. */
  readonly value?: string;
  readonly description: string;
  readonly choices?: readonly string[];
  /** Given again, it adds a value rather than replacing one. */
  readonly repeatable?: boolean;
}

export const DELEGATE_OPTIONS: readonly DelegateOptionSpec[] = [
  { long: "model", short: "m", value: "<id>", description: "model for agents that name none" },
  { long: "effort", short: "e", value: "<level>", description: "effort for agents that name none" },
  {
    long: "continue",
    short: "c",
    value: "<conversation>",
    description: "continue an scv conversation (its agent is used)",
  },
  {
    long: "cwd",
    short: "C",
    value: "<dir>",
    description: "the project the agent works in (default: the current directory)",
  },
  { long: "policy", value: "<mode>", description: "permission policy", choices: ["auto", "default"] },
  { long: "timeout", value: "<duration>", description: "whole-turn limit, e.g. 90s, 20m" },
  { long: "idle-timeout", value: "<duration>", description: "end the turn after no output for that long" },
  { long: "parallel", value: "<n>", description: "how many agents run at once" },
  { long: "json", description: "print one JSON object (an array for several agents)" },
  { long: "events", description: "print normalized events as NDJSON while the turn runs" },
  { long: "quiet", short: "q", description: "no progress on stderr" },
  { long: "background", description: "start the turn detached and print its handle" },
  {
    long: "env",
    value: "<NAME=value>",
    description: "extra variable for the agent (repeatable)",
    repeatable: true,
  },
];

/** `idle-timeout` → `idleTimeout`, as commander names an option's value. */
export function optionKey(long: string): string {
  return long.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** commander's flags string: `-m, --model <id>`. */
export function commanderFlags(spec: DelegateOptionSpec): string {
  return `${spec.short === undefined ? "" : `-${spec.short}, `}--${spec.long}${spec.value === undefined ? "" : ` ${spec.value}`}`;
}

/** Every spelling the quick parse takes as an option: `--long`, `--long=value`, `-s`. Anything else
 * that begins with `-` before a `--` (`-mgpt`, `-qe`, `--help`, a typo) is left to commander. */
function isPlainOption(arg: string): boolean {
  if (arg === "--") return true;
  const long = /^--([a-z-]+)(=.*)?$/s.exec(arg);
  if (long !== null) {
    const spec = DELEGATE_OPTIONS.find((option) => option.long === long[1]);
    return spec !== undefined && (long[2] === undefined || spec.value !== undefined);
  }
  return /^-[a-zA-Z]$/.test(arg) && DELEGATE_OPTIONS.some((option) => option.short === arg.slice(1));
}

/** `scv delegate`'s arguments (after the word `delegate`) as commander would parse them, or
 * undefined when commander must look at them: help, an unknown or doubtful option, a value that
 * looks like an option, a choice not allowed, no positional. */
export function parseDelegateArgs(
  args: readonly string[],
): { positionals: string[]; options: DelegateOptions } | undefined {
  // No option at all (`scv delegate codex "…"`, the usual call): every argument is a positional, as
  // parseArgs would say, without setting parseArgs up (~1 ms of a turn, its first use in a process).
  if (args.every((arg) => arg === "-" || !arg.startsWith("-")))
    return args.length === 0 ? undefined : { positionals: [...args], options: {} };
  const terminator = args.indexOf("--");
  const before = terminator === -1 ? args : args.slice(0, terminator);
  for (let i = 0; i < before.length; i += 1) {
    const arg = before[i] ?? "";
    if (arg.startsWith("-") && arg !== "-" && !isPlainOption(arg)) return undefined;
    // A value that itself looks like an option: commander and parseArgs may differ on it.
    const spec = DELEGATE_OPTIONS.find((option) => arg === `--${option.long}` || arg === `-${option.short}`);
    if (spec?.value !== undefined) {
      const next = before[i + 1];
      if (next === undefined || next.startsWith("-")) return undefined;
      i += 1;
    }
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: Object.fromEntries(
        DELEGATE_OPTIONS.map((spec) => [
          spec.long,
          {
            type: spec.value === undefined ? ("boolean" as const) : ("string" as const),
            ...(spec.short === undefined ? {} : { short: spec.short }),
            ...(spec.repeatable ? { multiple: true } : {}),
          },
        ]),
      ),
    });
  } catch {
    return undefined;
  }
  if (parsed.positionals.length === 0) return undefined;
  const options: Record<string, unknown> = {};
  for (const spec of DELEGATE_OPTIONS) {
    const value = parsed.values[spec.long];
    if (value === undefined) continue;
    if (spec.choices !== undefined && !spec.choices.includes(String(value))) return undefined;
    options[optionKey(spec.long)] = value;
  }
  return { positionals: parsed.positionals, options: options as DelegateOptions };
}
