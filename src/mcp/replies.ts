// What a tool call returns, as text for the model and as structured content for the host: a finished
// turn (the reply, or one failure line in the command line's classes), a turn still running (its job,
// and what to call next), a refused call. Replies are bounded: a host cuts a tool result over its
// limit (Claude Code: MAX_MCP_OUTPUT_TOKENS, 25 000 tokens by default), so a longer reply comes in
// parts, each saying where the next starts.

import { formatElapsed } from "../cli/progress.js";
import { EXIT, type ExitCode, ScvError } from "../errors.js";
import { type PendingApproval, questionText } from "../home/approvals.js";
import { turnResultJson } from "../json-shapes.js";
import type { TurnResult } from "../result.js";
import type { JobProgress } from "./jobs.js";

/** One tool call's answer. */
export interface ToolOutcome {
  readonly text: string;
  readonly structured: Record<string, unknown>;
  readonly isError: boolean;
}

/** Claude Code's default tool-output limit, in tokens. */
export const HOST_OUTPUT_TOKENS = 25_000;

/** Characters of reply one result may carry: half the host's limit at its own estimate of 4 characters
 * a token, which Claude Code passes without counting or cutting; any tokenizer counts fewer tokens
 * than that for prose and code. `MAX_MCP_OUTPUT_TOKENS`, when the host passed it on, sets the limit. */
export function replyBudget(env: NodeJS.ProcessEnv): number {
  const tokens = /^\d{1,9}$/.test(env.MAX_MCP_OUTPUT_TOKENS ?? "")
    ? Number(env.MAX_MCP_OUTPUT_TOKENS)
    : HOST_OUTPUT_TOKENS;
  return Math.max(1_000, tokens * 2);
}

/** The command line's exit codes, in words. */
const EXIT_CLASS: Record<ExitCode, string> = {
  [EXIT.ok]: "done",
  [EXIT.agentFailed]: "the agent failed",
  [EXIT.usage]: "usage error",
  [EXIT.notInstalled]: "not installed",
  [EXIT.auth]: "not signed in",
  [EXIT.rateLimited]: "rate limited",
  [EXIT.timeout]: "timed out",
  [EXIT.hangup]: "hung up",
  [EXIT.interrupted]: "interrupted",
  [EXIT.outputClosed]: "output closed",
  [EXIT.terminated]: "stopped",
};

export function exitClass(code: number): string {
  return EXIT_CLASS[code as ExitCode] ?? "failed";
}

/** `exit 4, not signed in` */
function exitLabel(code: number): string {
  return `exit ${code}, ${exitClass(code)}`;
}

/** A part of a reply: `text` from `offset`, and where the next part starts (undefined: none). */
export interface ReplyPart {
  readonly text: string;
  readonly offset: number;
  readonly next: number | undefined;
  readonly total: number;
}

/** At most `budget` characters of `reply` from `offset`, ended at a line break near the limit when
 * there is one, never inside a surrogate pair. */
export function replyPart(reply: string, offset: number, budget: number): ReplyPart {
  if (offset > reply.length) {
    throw new ScvError(
      "USAGE",
      `offset ${offset} is past the end of the reply (${reply.length} characters) — wait without offset reads it from the start`,
    );
  }
  const rest = reply.length - offset;
  if (rest <= budget) return { text: reply.slice(offset), offset, next: undefined, total: reply.length };
  let end = offset + budget;
  const lineEnd = reply.lastIndexOf("\n", end - 1);
  if (lineEnd >= end - Math.min(2_000, budget / 10)) end = lineEnd + 1;
  const code = reply.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return { text: reply.slice(offset, end), offset, next: end, total: reply.length };
}

/** The note over a part of a reply, saying how to read the rest. */
function partNote(job: string, part: ReplyPart): string | undefined {
  if (part.next === undefined && part.offset === 0) return undefined;
  const shown = `characters ${part.offset}–${part.offset + part.text.length} of ${part.total}`;
  if (part.next === undefined) return `[the reply's last part: ${shown}]`;
  return `[reply cut to fit the tool result: ${shown} — the rest: call wait with {"job": "${job}", "offset": ${part.next}}, or run \`scv wait ${job}\` in a shell for all of it]`;
}

/** A finished turn: its reply (or its part from `offset`), and whether the reply is now read whole. */
export function finishedOutcome(
  result: TurnResult,
  job: string,
  options: { offset?: number; budget: number },
): ToolOutcome & { readonly complete: boolean } {
  const part = replyPart(result.reply, options.offset ?? 0, options.budget);
  const note = partNote(job, part);
  const failed = result.exitCode !== EXIT.ok;
  const lines: string[] = [];
  if (note !== undefined) lines.push(note, "");
  if (failed) lines.push(failureText(result));
  if (part.text !== "") {
    if (failed) lines.push("", "What the agent had said:");
    lines.push(part.text.replace(/\n$/, ""));
  } else if (!failed) lines.push("(the agent gave no reply)");
  if (result.conversation !== null && result.session !== null) {
    lines.push(
      "",
      `[conversation ${result.conversation} — to continue it, call delegate with "conversation": "${result.conversation}"]`,
    );
  }
  // The object --json prints (json-shapes.ts: every field there, null where there is no value).
  const structured = {
    ...turnResultJson(result),
    reply: part.text,
    notes: note === undefined ? result.notes : [...result.notes, note.slice(1, -1)],
  };
  return { text: lines.join("\n"), structured, isError: failed, complete: part.next === undefined };
}

const ENDED: Record<TurnResult["status"], string> = {
  completed: "failed",
  failed: "failed",
  declined: "declined",
  timeout: "timed out",
  cancelled: "was stopped",
};

/** `codex failed (exit 4, not signed in): … — run: scv agents login codex`, then what to try instead. */
function failureText(result: TurnResult): string {
  const who = result.agent === "" ? "the turn" : result.agent;
  const what = result.error ?? `ended with status ${result.status}`;
  const line = `${who} ${ENDED[result.status]} (${exitLabel(result.exitCode)}): ${what}${result.hint === null ? "" : ` — ${result.hint}`}`;
  return result.fallbacks.length === 0 ? line : `${line}\ntry instead: ${result.fallbacks.join(", ")}`;
}

/** A turn that did not start: refused like a call (a conversation busy, whether the launcher saw it
 * or the detached scv did after its lock wait), in the same one line as a refused call; any other
 * failure (not installed, signed out) as its result. */
export function notStartedOutcome(result: TurnResult, budget: number): ToolOutcome {
  if (result.exitCode !== EXIT.usage || result.error === null) return finishedOutcome(result, "", { budget });
  const line = result.hint === null ? result.error : `${result.error} — ${result.hint}`;
  return errorOutcome(new ScvError("USAGE", line));
}

/** A job still running when the wait ended, or waiting for its caller to answer a permission
 * question. */
export function runningOutcome(
  job: { job: string; conversation: string; agent: string },
  progress?: JobProgress,
): ToolOutcome {
  if (progress?.approval != null) return approvalOutcome(job, progress.approval);
  const doing =
    progress === undefined
      ? ""
      : ` (${formatElapsed(progress.elapsedMs)} so far${progress.tool === null ? "" : `, now: ${progress.tool}`})`;
  return {
    text: `${job.agent} is still working on job ${job.job}${doing} — call wait with {"job": "${job.job}"} for its reply, or cancel to stop it.`,
    structured: { status: "running", job: job.job, conversation: job.conversation },
    isError: false,
  };
}

/** A job whose agent waits for the caller's answer to a permission question. */
function approvalOutcome(job: { job: string; conversation: string }, approval: PendingApproval): ToolOutcome {
  const answers = approval.answers.map((answer) => `"${answer}"`);
  const choice =
    answers.length === 1 ? answers.join("") : `${answers.slice(0, -1).join(", ")} or ${answers.at(-1)}`;
  return {
    text: `${questionText(approval)} — job ${job.job} waits for your answer: call approve with {"job": "${job.job}", "approval": "${approval.id}", "answer": …}, the answer ${choice} (or cancel the job).`,
    structured: {
      status: "needs-approval",
      job: job.job,
      conversation: job.conversation,
      approval: {
        id: approval.id,
        agent: approval.agent,
        tool: approval.tool,
        summary: approval.summary,
        answers: approval.answers,
        askedAt: approval.askedAt,
      },
    },
    isError: false,
  };
}

/** A refused call (bad job, unknown agent, a config to fix) as one line with the command line's exit
 * code; anything else is scv's own fault, said as such. */
export function errorOutcome(error: unknown): ToolOutcome {
  if (error instanceof ScvError) {
    return {
      text: `${error.message} (${exitLabel(error.exitCode)})`,
      structured: { error: error.message, exitCode: error.exitCode },
      isError: true,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    text: `internal error in scv mcp — please report it (the server's stderr has the details): ${message}`,
    structured: { error: message, exitCode: EXIT.agentFailed },
    isError: true,
  };
}

/** Several turns' outcomes in the order asked, each under `=== agent (handle) ===`; an error when any
 * failed, as the command line exits with the first failure's code. */
export function combinedOutcome(
  parts: readonly { readonly agent: string; readonly handle: string | null; readonly outcome: ToolOutcome }[],
): ToolOutcome {
  const text = parts
    .map(({ agent, handle, outcome }) => `=== ${agent} (${handle ?? "did not start"}) ===\n${outcome.text}`)
    .join("\n\n");
  return {
    text,
    structured: { results: parts.map((part) => part.outcome.structured) },
    isError: parts.some((part) => part.outcome.isError),
  };
}

/** One progress line: `codex 35s — $ npm test`; several jobs joined with `; `. */
export function progressMessage(running: readonly JobProgress[]): string {
  return running
    .map((job) => `${job.agent} ${formatElapsed(job.elapsedMs)}${job.tool === null ? "" : ` — ${job.tool}`}`)
    .join("; ");
}
