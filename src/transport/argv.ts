// The command line of one headless turn, as a pure function of the descriptor and the request.
// Every value (model, effort, session id, prompt) becomes exactly one argv element; nothing goes
// through a shell. Values are checked here because this is the last place before they reach a CLI.
// A CLI that would misread a prompt passed as an argument gets it on stdin instead (its row says so),
// and so does one too large for an argument, where the CLI reads it there.

import { type AdapterDescriptor, unreachable } from "../adapters.js";
import { nearestEffort } from "../effort.js";
import { ScvError } from "../errors.js";
import type { Policy } from "./env.js";

/** Which session the turn runs in. */
export type SessionArg =
  /** A new session under an id scv chose (the descriptor's `resume.start`). */
  | { readonly kind: "start"; readonly id: string }
  /** An earlier session, continued with the descriptor's resume grammar. */
  | { readonly kind: "continue"; readonly id: string };

export interface ArgvRequest {
  readonly entry: AdapterDescriptor;
  readonly prompt: string;
  readonly policy: Policy;
  readonly model?: string;
  readonly effort?: string;
  /** Absent for a first turn where the CLI picks its own id (or has no sessions). */
  readonly session?: SessionArg;
  /** Fills `{file}` of the format's `lastMessageArgs` (`-o {file}`); without it they are left out. */
  readonly lastMessageFile?: string;
}

/** A model id as CLIs spell them (`sonnet`, `gpt-5.5`, `openai/gpt-5.5`, `sonnet:high`,
 * `vendor-model-4@20250514`, `model[1m]`). A leading `-` is refused too: some parsers (yargs) read
 * `-m --yolo` as a flag after an empty value. */
const MODEL_ID = /^(?!-)[A-Za-z0-9._:/@[\]-]{1,128}$/;

/** One turn's command line, and what the CLI reads on stdin. */
export interface AgentCommand {
  /** The arguments after the executable. */
  readonly args: string[];
  /** Written to the CLI's stdin, which is then closed; undefined leaves stdin closed (/dev/null). */
  readonly stdin: string | undefined;
  /** Where in `args` the policy's full-permission arguments go (or would): a reviewer's read-only
   * arguments take that place (src/turn/review-turn.ts). */
  readonly policyAt?: number;
}

/** The arguments after the command, in the order the CLIs' grammars need: fixed args, the resume
 * subcommand, headless args, full-permission args, output args, model/effort, the session, then the
 * prompt — or, for a CLI that takes it on stdin, the prompt as `stdin`. Throws a usage error (exit 2)
 * for a value the CLI must not receive. */
export function buildAgentCommand(request: ArgvRequest): AgentCommand {
  const { entry, policy, session } = request;
  const prompt = checkPrompt(request.prompt);
  const resume = entry.resume;
  if (session !== undefined) {
    if (resume.kind === "unsupported") {
      throw new ScvError(
        "RESUME_UNSUPPORTED",
        `${entry.product} cannot continue a conversation — start a new one`,
      );
    }
    checkSessionId(entry, session.id);
    if (session.kind === "start" && resume.start === undefined) {
      throw new Error(`internal: ${entry.name} picks its own session ids`);
    }
  }
  const continuing = session?.kind === "continue" && resume.kind === "supported";
  const sessionId = session?.id ?? "";

  const args: string[] = [...entry.args];
  if (continuing) args.push(...(resume.subcommand ?? []));
  args.push(...(entry.headlessArgs ?? []));
  const policyAt = args.length;
  if (policy === "auto") args.push(...entry.fullPermissionArgs);
  args.push(...entry.output.args);
  if (entry.output.lastMessageArgs !== undefined && request.lastMessageFile !== undefined) {
    args.push(...fill(entry.output.lastMessageArgs, "{file}", request.lastMessageFile));
  }
  if (request.model !== undefined) {
    args.push(...fill(entry.modelArgs, "{model}", checkModel(entry, request.model)));
  }
  if (request.effort !== undefined) {
    args.push(...fill(entry.effortArgs, "{effort}", checkEffort(entry, request.effort)));
  }
  if (resume.kind === "supported" && session !== undefined) {
    args.push(
      ...fill((session.kind === "start" ? resume.start : resume.options) ?? [], "{session}", sessionId),
    );
  }
  const positional = continuing ? fill(resume.positional ?? [], "{session}", sessionId) : [];
  const delivery = promptDelivery(entry, positional, prompt);
  args.push(...delivery.args);
  return { args, stdin: delivery.stdin, policyAt };
}

/** Linux refuses a single argv string of 128 KiB or more (MAX_ARG_STRLEN) with E2BIG. */
const MAX_ARG_BYTES = 128 * 1024;

const fitsOneArgument = (arg: string): boolean => Buffer.byteLength(arg) < MAX_ARG_BYTES;

/** The prompt and any positional session id, kept from reading as options or file references. A
 * prompt no argument can carry goes on stdin where the CLI reads it there, and is refused otherwise. */
function promptDelivery(
  entry: AdapterDescriptor,
  positional: readonly string[],
  prompt: string,
): AgentCommand {
  const style = entry.prompt;
  if (style.kind === "stdin") return stdinDelivery(style.trims, positional, prompt);
  const onStdin = style.onStdin;
  // A CLI that reads an argument `-` as "the prompt is on stdin" gets a prompt that is just `-` there.
  if (onStdin?.args.includes("-") && prompt === "-") return onStdinDelivery(entry, positional, prompt);
  const argument = style.kind === "flag" && prompt.startsWith("-") ? `${style.joined}${prompt}` : prompt;
  if (fitsOneArgument(argument)) return argumentDelivery(entry, positional, prompt);
  if (onStdin !== undefined) return onStdinDelivery(entry, positional, prompt);
  throw new ScvError(
    "USAGE",
    `the prompt is ${kib(prompt)}, and ${entry.product} takes it only as a command-line argument, which carries less than 128 KiB — put the bulk in a file and point the prompt at it`,
  );
}

/** The prompt as the argument the row names. */
function argumentDelivery(
  entry: AdapterDescriptor,
  positional: readonly string[],
  prompt: string,
): AgentCommand {
  const looksLikeOption = prompt.startsWith("-");
  const style = entry.prompt;
  switch (style.kind) {
    case "positional":
      if (!looksLikeOption) return { args: [...positional, prompt], stdin: undefined };
      if (style.endOfOptions) return { args: ["--", ...positional, prompt], stdin: undefined };
      throw new ScvError(
        "USAGE",
        `${entry.product} would read a prompt starting with '-' as an option — reword its start (e.g. a leading space or word)`,
      );
    case "flag":
      // `--prompt=-x` is one element, so the CLI cannot take the value for a flag of its own.
      return {
        args: looksLikeOption
          ? [...positional, `${style.joined}${prompt}`]
          : [...positional, ...style.args, prompt],
        stdin: undefined,
      };
    case "stdin":
      return stdinDelivery(style.trims, positional, prompt);
    default:
      return unreachable(style);
  }
}

/** The prompt on the stdin of a CLI that otherwise takes it as an argument (the row's `onStdin`). */
function onStdinDelivery(
  entry: AdapterDescriptor,
  positional: readonly string[],
  prompt: string,
): AgentCommand {
  const style = entry.prompt;
  const onStdin = style.kind === "stdin" ? undefined : style.onStdin;
  if (onStdin === undefined) throw new Error(`internal: ${entry.name} reads no prompt on stdin`);
  if (onStdin.maxBytes !== undefined && Buffer.byteLength(prompt) > onStdin.maxBytes) {
    throw new ScvError(
      "USAGE",
      `the prompt is ${kib(prompt)}, more than ${entry.product} reads from stdin (${kib(onStdin.maxBytes)}) — put the bulk in a file and point the prompt at it`,
    );
  }
  // `-` after `--` is still "stdin" to the CLI, and a session id after it can be nothing but one.
  const endOfOptions = style.kind === "positional" && style.endOfOptions && onStdin.args.length > 0;
  return { args: [...(endOfOptions ? ["--"] : []), ...positional, ...onStdin.args], stdin: prompt };
}

/** The prompt on the stdin of a CLI that always reads it there (the row's `prompt.kind` "stdin"). */
function stdinDelivery(trims: boolean, positional: readonly string[], prompt: string): AgentCommand {
  if (!trims) return { args: [...positional], stdin: prompt };
  // The CLI trims what it reads. A prompt beginning with whitespace begins with neither `-` nor `@`,
  // so it goes whole as the argument the CLI appends, unless it is too large for one (then the CLI
  // drops that leading whitespace). Otherwise stdin carries it up to its trailing whitespace, and the
  // argument carries that whitespace back.
  if (prompt.trimStart() !== prompt && fitsOneArgument(prompt)) {
    return { args: [...positional, prompt], stdin: undefined };
  }
  const kept = prompt.trimEnd();
  const tail = prompt.slice(kept.length);
  return { args: tail === "" ? [...positional] : [...positional, tail], stdin: kept };
}

/** A size as a message shows it, rounded up (so that a size over a limit never reads as the limit):
 * whole KiB, or MiB with one decimal from 1 MiB. */
function kib(value: string | number): string {
  const bytes = typeof value === "number" ? value : Buffer.byteLength(value);
  if (bytes >= 1024 * 1024) return `${Math.ceil((bytes * 10) / (1024 * 1024)) / 10} MiB`;
  return `${Math.ceil(bytes / 1024)} KiB`;
}

function fill(template: readonly string[], placeholder: string, value: string): string[] {
  return template.map((part) => part.replaceAll(placeholder, value));
}

function checkPrompt(prompt: string): string {
  if (prompt.trim() === "")
    throw new ScvError("USAGE", "the prompt is empty — pass it as the last argument, or '-' to read stdin");
  if (prompt.includes("\0"))
    throw new ScvError("USAGE", "the prompt contains a NUL byte, which no command line can carry");
  return prompt;
}

/** Validates a model id for `entry`; a usage error when it takes none or the id is malformed. */
export function checkModel(entry: AdapterDescriptor, model: string): string {
  if (entry.modelArgs.length === 0) {
    throw new ScvError("USAGE", `${entry.product} takes no model — ${entry.modelHint}`);
  }
  if (!MODEL_ID.test(model)) {
    throw new ScvError(
      "USAGE",
      `'${printable(model)}' is not a model id (1–128 of A-Z a-z 0-9 . _ : / @ [ ] -) — ${entry.modelHint}`,
    );
  }
  return model;
}

/** Validates an effort level for `entry`; a usage error naming the accepted levels. */
export function checkEffort(entry: AdapterDescriptor, effort: string): string {
  if (entry.effortArgs.length === 0 || entry.effortLevels.length === 0) {
    throw new ScvError("USAGE", `${entry.product} takes no effort level — omit --effort`);
  }
  if (!entry.effortLevels.includes(effort)) {
    const near = nearestEffort(entry.effortLevels, effort);
    throw new ScvError(
      "USAGE",
      `'${printable(effort)}' is not an effort level of ${entry.product} — ${near === undefined ? "" : `did you mean ${near}? `}use one of: ${entry.effortLevels.join(", ")}`,
    );
  }
  return effort;
}

/** Whether `id` may enter argv as `entry`'s session id: the descriptor's documented shape only. */
export function isValidSessionId(entry: AdapterDescriptor, id: string): boolean {
  return entry.resume.kind === "supported" && entry.resume.idPattern.test(id);
}

function checkSessionId(entry: AdapterDescriptor, id: string): void {
  if (!isValidSessionId(entry, id)) {
    throw new ScvError(
      "UNKNOWN_CONVERSATION",
      `'${printable(id)}' is not a ${entry.product} session id — start a new conversation`,
    );
  }
}

/** A value for a message: control characters shown escaped, long values cut. */
function printable(value: string): string {
  const shown = JSON.stringify(value).slice(1, -1);
  return shown.length > 60 ? `${shown.slice(0, 59)}…` : shown;
}
