// A review from its diff to its report. The diff is split into parts; each reviewer gets one turn per
// part (reviewers at once, a reviewer's parts one after another), through `ask`, which the caller
// makes from scv's own turns: a reviewer's turn is a normal scv turn (its records, usage, cost,
// accounts, time limit), run read-only with the findings' schema as its row says
// (`reviewTurnArgs`, src/review/agent-args.ts). A reply that is not valid findings gets one repair
// turn in the same conversation (a new one for a CLI that cannot continue one: `continues`); a
// second invalid reply, or a turn that failed, is that part's failure, reported with the turn's own
// exit code and never guessed from. The findings are then placed against the diff, merged across
// reviewers, and given the verdict and exit code.
//
// API: `runReview({ diff, reviewers, ask, focus?, maxPartBytes?, continues? })` → `ReviewReport`;
// `assembleReport(...)` (pure) for a caller that runs the turns itself.

import { EXIT, ScvError } from "../errors.js";
import type { TurnResult } from "../result.js";
import type { ReviewDiff } from "./diff.js";
import { changedFiles, placeFinding } from "./locate.js";
import { mergeFindings, type ReviewerFinding } from "./merge.js";
import { reviewPrompt } from "./prompt.js";
import { freshRepairPrompt, readReply, repairPrompt } from "./reply.js";
import type { PartFailure, ReviewerOutcome, ReviewReport } from "./report.js";
import { sumCost, sumUsage } from "./report.js";
import type { Finding, ReviewReply } from "./schema.js";
import { DEFAULT_PART_BYTES, type ReviewPlan, splitDiff } from "./split.js";
import { combineVerdicts, reviewExitCode } from "./verdict.js";

/** One turn a review asks for. */
export interface ReviewTurnRequest {
  /** The reviewer's target as given (`<agent>`, `<agent>:<model>/high`, `<agent>@work`). */
  readonly reviewer: string;
  readonly prompt: string;
  /** The conversation to continue (a repair turn, where the reviewer's CLI continues one); absent: a
   * new conversation. */
  readonly conversation?: string;
  /** Which part (from 1) of how many. */
  readonly part: number;
  readonly parts: number;
  /** Whether this is the repair turn after an invalid reply. */
  readonly repair: boolean;
}

/** Runs one reviewer turn and returns its result as `delegate --json` would; a failed turn is a
 * result with its exit code, not a throw (an `ScvError` thrown is taken as that failure). */
export type AskReviewer = (turn: ReviewTurnRequest) => Promise<TurnResult>;

export interface ReviewRequest {
  readonly diff: ReviewDiff;
  /** Reviewer targets, each asked once per part. */
  readonly reviewers: readonly string[];
  readonly ask: AskReviewer;
  /** What the user asked reviewers to look at (`--focus`). */
  readonly focus?: string;
  /** A part's patch limit in bytes; default `DEFAULT_PART_BYTES`. */
  readonly maxPartBytes?: number;
  /** Whether a reviewer's conversation can be continued (its row's `resume`); where it cannot, the
   * repair is a new conversation asked the part again. Default: every one can. */
  readonly continues?: (reviewer: string) => boolean;
}

/** What one reviewer's turns gave, before merging. */
interface ReviewerTurns {
  readonly reviewer: string;
  /** The valid replies, one per part that gave one. */
  readonly replies: readonly ReviewReply[];
  readonly failures: readonly PartFailure[];
  readonly parts: number;
  readonly repaired: number;
  /** Every turn's result, repairs included. */
  readonly results: readonly TurnResult[];
}

type PartOutcome =
  | { readonly ok: true; readonly reply: ReviewReply; readonly repaired: boolean }
  | { readonly ok: false; readonly failure: PartFailure };

function turnFailure(part: number, result: TurnResult): PartFailure {
  return {
    part,
    exitCode: result.exitCode === EXIT.ok ? EXIT.agentFailed : result.exitCode,
    error: result.error ?? `the reviewer's turn ended with status ${result.status}`,
    hint: result.hint,
  };
}

/** `ask`, with a thrown `ScvError` (an unknown agent, a busy conversation) as a failed result. */
async function asked(ask: AskReviewer, turn: ReviewTurnRequest): Promise<TurnResult | PartFailure> {
  try {
    return await ask(turn);
  } catch (error) {
    if (!(error instanceof ScvError)) throw error;
    return { part: turn.part, exitCode: error.exitCode, error: error.message, hint: null };
  }
}

function isFailure(value: TurnResult | PartFailure): value is PartFailure {
  return "part" in value;
}

async function reviewPart(
  request: Pick<ReviewRequest, "ask" | "continues">,
  turn: ReviewTurnRequest,
  results: TurnResult[],
): Promise<PartOutcome> {
  const { ask } = request;
  const first = await asked(ask, turn);
  if (isFailure(first)) return { ok: false, failure: first };
  results.push(first);
  if (first.exitCode !== EXIT.ok) return { ok: false, failure: turnFailure(turn.part, first) };
  const reading = readReply(first.reply);
  if (reading.ok) return { ok: true, reply: reading.reply, repaired: false };
  const invalid = (why: string): PartOutcome => ({
    ok: false,
    failure: {
      part: turn.part,
      exitCode: EXIT.agentFailed,
      error: `${turn.reviewer}'s review of part ${turn.part} is not valid findings: ${why}`,
      hint: "run the review again, or give another reviewer",
    },
  });
  const conversation = request.continues?.(turn.reviewer) === false ? null : first.conversation;
  const repair = await asked(
    ask,
    conversation === null
      ? { ...turn, prompt: freshRepairPrompt(turn.prompt, reading), repair: true }
      : { ...turn, prompt: repairPrompt(reading), conversation, repair: true },
  );
  if (isFailure(repair)) return { ok: false, failure: repair };
  results.push(repair);
  if (repair.exitCode !== EXIT.ok) return { ok: false, failure: turnFailure(turn.part, repair) };
  const again = readReply(repair.reply);
  if (again.ok) return { ok: true, reply: again.reply, repaired: true };
  return invalid(`${again.problem}, also after a repair`);
}

async function reviewerTurns(
  request: ReviewRequest,
  plan: ReviewPlan,
  reviewer: string,
): Promise<ReviewerTurns> {
  const replies: ReviewReply[] = [];
  const failures: PartFailure[] = [];
  const results: TurnResult[] = [];
  let repaired = 0;
  for (const [index, files] of plan.parts.entries()) {
    const prompt = reviewPrompt({
      description: request.diff.description,
      files: request.diff.files,
      part: files,
      partNumber: index + 1,
      parts: plan.parts.length,
      skipped: plan.skipped,
      ...(request.focus === undefined ? {} : { focus: request.focus }),
    });
    const turn = { reviewer, prompt, part: index + 1, parts: plan.parts.length, repair: false };
    const outcome = await reviewPart(request, turn, results);
    if (outcome.ok) {
      replies.push(outcome.reply);
      if (outcome.repaired) repaired += 1;
    } else failures.push(outcome.failure);
  }
  return { reviewer, replies, failures, parts: plan.parts.length, repaired, results };
}

/** Runs every reviewer over every part and makes the report. */
export async function runReview(request: ReviewRequest): Promise<ReviewReport> {
  const plan = splitDiff(request.diff.files, { maxBytes: request.maxPartBytes ?? DEFAULT_PART_BYTES });
  const turns =
    plan.parts.length === 0
      ? []
      : await Promise.all(request.reviewers.map((reviewer) => reviewerTurns(request, plan, reviewer)));
  return assembleReport(request.diff, plan, turns);
}

function outcome(turns: ReviewerTurns, findings: readonly Finding[]): ReviewerOutcome {
  const verdict = combineVerdicts(
    turns.replies.map((reply) => reply.verdict),
    findings,
    turns.failures.length === 0,
  );
  const status = turns.failures.length === 0 ? "ok" : turns.replies.length === 0 ? "failed" : "partial";
  return {
    reviewer: turns.reviewer,
    status,
    verdict,
    summary: turns.replies
      .map((reply) => reply.summary)
      .filter((summary) => summary !== "")
      .join("\n\n"),
    parts: turns.parts,
    repaired: turns.repaired,
    conversations: [
      ...new Set(
        turns.results.flatMap((result) => (result.conversation === null ? [] : [result.conversation])),
      ),
    ],
    failures: [...turns.failures],
    usage: sumUsage(turns.results.map((result) => result.usage)),
    cost: sumCost(turns.results.map((result) => result.cost)),
    duration: turns.results.reduce((sum, result) => sum + result.duration, 0),
  };
}

/** The report of a review whose turns `turns` gave (one entry per reviewer, in order). With no part
 * to review (nothing changed, or every file left out), there is no verdict and the exit code is 0:
 * `skipped` says why. Pure. */
function assembleReport(diff: ReviewDiff, plan: ReviewPlan, turns: readonly ReviewerTurns[]): ReviewReport {
  const files = changedFiles(diff.files);
  const perReviewer = turns.map((each) => ({
    each,
    findings: each.replies.flatMap((reply) =>
      reply.findings.map(
        (finding): ReviewerFinding => ({
          ...placeFinding(finding, files, diff.root),
          reviewer: each.reviewer,
        }),
      ),
    ),
  }));
  const reviewers = perReviewer.map(({ each, findings }) => outcome(each, findings));
  const findings = mergeFindings(perReviewer.flatMap(({ findings }) => findings));
  const verdict = combineVerdicts(
    reviewers.flatMap((reviewer) => (reviewer.verdict === null ? [] : [reviewer.verdict])),
    findings,
    reviewers.every((reviewer) => reviewer.status === "ok"),
  );
  const failures = reviewers.flatMap((reviewer) => reviewer.failures.map((failure) => failure.exitCode));
  const reviewed = new Set(plan.parts.flatMap((part) => part.map((file) => file.path)));
  return {
    verdict,
    exitCode: plan.parts.length === 0 ? EXIT.ok : reviewExitCode(verdict, failures),
    description: diff.description,
    scope: diff.scope,
    from: diff.from,
    to: diff.to,
    files: diff.files.map((file) => ({
      path: file.path,
      ...(file.from === undefined ? {} : { from: file.from }),
      status: file.status,
      added: file.added,
      removed: file.removed,
      binary: file.binary,
      ...(file.generated === undefined ? {} : { generated: file.generated }),
      reviewed: reviewed.has(file.path),
    })),
    skipped: [...plan.skipped],
    findings: findings.map((finding) => ({
      ...finding,
      raisedBy: [...finding.raisedBy],
      reports: [...finding.reports],
    })),
    reviewers,
    usage: sumUsage(reviewers.map((reviewer) => reviewer.usage)),
    cost: sumCost(reviewers.map((reviewer) => reviewer.cost)),
  };
}
