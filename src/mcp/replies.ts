// What a tool call returns, as text and as structured content: a finished turn (the reply, or one
// failure line in the command line's classes), a turn still running or waiting for an answer (its job,
// and what to call next), a refused call. Hosts show the model one of the two forms (shown-size.ts
// says which), so each leads with what the model needs — the reply, then `next`, the
// step to take — and each fits what a host shows (shown-size.ts): a longer reply comes in parts, each
// saying where the next starts. A task's result (the protocol's tasks) is to be made here too, so it
// says exactly what the blocking call does.

import type { CallToolResult } from "@modelcontextprotocol/server";
import { formatElapsed } from "../duration.js";
import { EXIT, type ExitCode, ScvError } from "../errors.js";
import { type PendingApproval, questionText } from "../home/approvals.js";
import { turnResultJson } from "../json-shapes.js";
import { resultForJson, type TurnResult } from "../result.js";
import { renderText, roundsText } from "../review/render-text.js";
import { reviewedResultJson, reviewReportJson } from "../review/report-json.js";
import { roundsOf } from "../review/rounds.js";
import type { JobProgress } from "./jobs.js";
import { shownBytes, shownEnd } from "./shown-size.js";

/** One tool call's answer. */
export interface ToolOutcome {
  readonly text: string;
  readonly structured: Record<string, unknown>;
  readonly isError: boolean;
  /** A job of the call waits for a permission question's answer: a host that can ask its person
   * (elicitation) is given the question instead of this outcome, and the call is made again with
   * `resume` once it is answered (person-questions.ts). */
  readonly ask?: {
    readonly job: string;
    readonly approval: PendingApproval;
    readonly resume: unknown;
  };
}

/** The answer as the protocol carries it. */
export function toolResult(outcome: ToolOutcome): CallToolResult {
  return {
    content: [{ type: "text", text: outcome.text }],
    structuredContent: outcome.structured,
    ...(outcome.isError ? { isError: true } : {}),
  };
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

/** The least of a reply one part carries, whatever else the result holds: reading goes on. */
const MIN_PART_BYTES = 500;

/** The outcome `build` makes with the largest reply budget (in shown bytes, shared by `shares` replies)
 * whose every form fits `limit`; what else a result holds (notes, a failure line, a fan-out's other
 * results) is measured, not guessed. */
export function fitted<T extends { readonly outcome: ToolOutcome }>(
  limit: number,
  shares: number,
  build: (replyBudget: number) => T,
): T {
  let budget = Math.max(MIN_PART_BYTES, Math.floor(limit / shares));
  let made = build(budget);
  let previous = Number.POSITIVE_INFINITY;
  let cut = 0;
  for (let tries = 0; tries < 16; tries += 1) {
    const over = shownBytes(made.outcome.text, made.outcome.structured) - limit;
    if (over <= 0 || budget === MIN_PART_BYTES) return made;
    // A part ends at a line break near its budget, so a small cut may change nothing: a cut that
    // did not help is doubled.
    cut = over < previous ? Math.ceil(over / shares) : cut * 2;
    previous = over;
    budget = Math.max(MIN_PART_BYTES, budget - cut);
    made = build(budget);
  }
  return made;
}

/** A part of a reply: `text` from `offset`, and where the next part starts (undefined: none). */
export interface ReplyPart {
  readonly text: string;
  readonly offset: number;
  readonly next: number | undefined;
  readonly total: number;
}

/** The part of `reply` from `offset` that costs at most `budget` bytes as a host shows it, ended at a
 * line break near the limit when there is one, never inside a surrogate pair. */
export function replyPart(reply: string, offset: number, budget: number): ReplyPart {
  if (offset > reply.length) {
    throw new ScvError(
      "USAGE",
      `offset ${offset} is past the end of the reply (${reply.length} characters) — wait without offset reads it from the start`,
    );
  }
  let end = shownEnd(reply, offset, budget);
  if (end >= reply.length) return { text: reply.slice(offset), offset, next: undefined, total: reply.length };
  const lineEnd = reply.lastIndexOf("\n", end - 1);
  if (lineEnd > offset && lineEnd >= end - Math.min(2_000, (end - offset) / 10)) end = lineEnd + 1;
  return { text: reply.slice(offset, end), offset, next: end, total: reply.length };
}

/** What a part of a reply is, and how to read the rest; undefined for a reply given whole. */
function partNote(job: string, part: ReplyPart): string | undefined {
  if (part.next === undefined && part.offset === 0) return undefined;
  const shown = `characters ${part.offset}–${part.offset + part.text.length} of ${part.total}`;
  if (part.next === undefined) return `This is the reply's last part: ${shown}.`;
  return `The reply is cut to fit one tool result: ${shown}. For the rest, call wait with job ${job} and offset ${part.next} (in a shell, \`scv wait ${job}\` prints all of it).`;
}

/** How to go on with a finished turn's conversation. */
function continueLine(result: TurnResult): string | undefined {
  if (result.conversation === null || result.session === null) return undefined;
  return `To continue this conversation, call delegate with conversation ${result.conversation}.`;
}

/** A turn in a worktree: where its changes are, what its check said, and how the user takes them. */
function worktreeText(result: TurnResult): string | undefined {
  if (result.branch === undefined) return undefined;
  const stat = result.diffstat;
  const changed =
    stat === undefined
      ? ""
      : stat.files === 0
        ? " It changed no file."
        : ` It changed ${stat.files} ${stat.files === 1 ? "file" : "files"} (+${stat.added}/-${stat.removed}): ${stat.paths
            .slice(0, 10)
            .map((file) => file.path)
            .join(", ")}${stat.files > 10 ? ", …" : ""}.`;
  const check =
    result.check === undefined
      ? ""
      : ` The check \`${result.check.command}\` ${result.check.status === "pass" ? "passed" : result.check.status === "timeout" ? "timed out" : `failed (exit ${result.check.exitCode ?? "none"})`}.`;
  const handle = result.conversation ?? "<handle>";
  return `The agent worked in its own git worktree ${result.worktree}, on branch ${result.branch}.${changed}${check} The user sees it with \`scv diff ${handle}\` and takes it with \`scv apply ${handle}\`.`;
}

/** `first`'s members, in its order, then the rest of `rest`'s. */
function leading(first: Record<string, unknown>, rest: object): Record<string, unknown> {
  return { ...first, ...rest, ...first };
}

/** A finished turn: its reply (or its part from `offset`, at most `budget` bytes as shown), and
 * whether the reply is now read whole. `preface` says first what the call did (a cancel). */
export function finishedOutcome(
  turn: TurnResult,
  job: string,
  options: { offset?: number; budget: number; preface?: string },
): ToolOutcome & { readonly complete: boolean } {
  const rounds = roundsOf(turn);
  if (rounds === undefined) return turnOutcome(turn, job, options);
  const last = rounds.rounds.at(-1)?.report;
  const preface = options.preface === undefined ? "" : `${options.preface}\n\n`;
  if (rounds.kind === "review" && last !== undefined) {
    // The review's report, the verdict first; changes requested is the review's answer, no failure.
    const failed = last.exitCode !== EXIT.ok && last.verdict !== "request-changes";
    return {
      text: `${preface}${renderText(last).replace(/\n$/, "")}`,
      structured: reviewReportJson(last),
      isError: failed,
      complete: true,
    };
  }
  // A reviewed delegation: the author's reply, then each round's review.
  const outcome = turnOutcome(turn, job, options);
  return {
    ...outcome,
    text: `${outcome.text}\n\n${roundsText(rounds).replace(/\n$/, "")}`,
    structured: leading(
      { verdict: last?.verdict ?? null },
      { ...outcome.structured, review: reviewedResultJson(turn, rounds.rounds).review },
    ),
  };
}

function turnOutcome(
  turn: TurnResult,
  job: string,
  options: { offset?: number; budget: number; preface?: string },
): ToolOutcome & { readonly complete: boolean } {
  // A tool result is JSON: bytes that are not UTF-8 are U+FFFD in it, counted and noted.
  const result = resultForJson(turn);
  const part = replyPart(result.reply, options.offset ?? 0, options.budget);
  const note = partNote(job, part);
  const onward = continueLine(result);
  const failed = result.exitCode !== EXIT.ok;
  const lines: string[] = [];
  if (options.preface !== undefined) lines.push(options.preface, "");
  if (note !== undefined) lines.push(`[${note}]`, "");
  if (failed) lines.push(failureText(result));
  if (part.text !== "") {
    if (failed) lines.push("", "What the agent had said:");
    lines.push(part.text.replace(/\n$/, ""));
  } else if (!failed) lines.push("(the agent gave no reply)");
  const changes = worktreeText(result);
  if (changes !== undefined) lines.push("", `[${changes}]`);
  if (onward !== undefined) lines.push("", `[${onward}]`);
  const next = [options.preface, note, onward].filter((line) => line !== undefined).join(" ");
  const first = {
    ...(failed ? { error: result.error, hint: result.hint, fallbacks: result.fallbacks } : {}),
    reply: part.text,
    ...(next === "" ? {} : { next }),
  };
  return {
    text: lines.join("\n"),
    // The object --json prints (json-shapes.ts: every field there, null where there is no value).
    structured: leading(first, turnResultJson(result)),
    isError: failed,
    complete: part.next === undefined,
  };
}

const ENDED: Record<TurnResult["status"], string> = {
  completed: "failed",
  failed: "failed",
  declined: "declined",
  timeout: "timed out",
  cancelled: "was stopped",
};

/** `<agent> failed (exit 4, not signed in): … — run: scv agents login <agent>`, then what to try instead. */
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
  const next = `${job.agent} is still working on job ${job.job}${doing}. Call wait with job ${job.job} for its reply, or cancel to stop it.`;
  return {
    text: next,
    structured: { status: "running", next, job: job.job, conversation: job.conversation },
    isError: false,
  };
}

/** A job whose agent waits for the caller's answer to a permission question. */
function approvalOutcome(job: { job: string; conversation: string }, approval: PendingApproval): ToolOutcome {
  const answers =
    approval.answers.length === 1
      ? approval.answers.join("")
      : `${approval.answers.slice(0, -1).join(", ")} or ${approval.answers.at(-1)}`;
  const next = `${questionText(approval)}. Job ${job.job} waits for your answer: call approve with job ${job.job}, approval ${approval.id} and the answer ${answers} (or cancel the job).`;
  return {
    text: next,
    structured: {
      status: "needs-approval",
      next,
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

/** One progress line: `<agent> 35s — $ npm test`; several jobs joined with `; `. */
export function progressMessage(running: readonly JobProgress[]): string {
  return running
    .map((job) => `${job.agent} ${formatElapsed(job.elapsedMs)}${job.tool === null ? "" : ` — ${job.tool}`}`)
    .join("; ");
}
