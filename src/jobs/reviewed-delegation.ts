// A reviewed delegation (`scv delegate --review-by <targets|auto> [--rounds N] <author> "…"`): the
// author's turn, then a review of what it changed, and while the reviewers do not approve and rounds
// are left, the findings sent back to the author's conversation (`-c`, src/review/prompt.ts's
// `revisionPrompt`) and its changes reviewed again. What it changed is its worktree branch against
// its base where its conversation has a worktree, else the working tree against the tree scv took
// just before the author's first turn (so the user's own uncommitted changes are not its). The
// result is the author's last turn's, carrying every round's report (src/review/rounds.ts); its exit
// code is the author's failure, else the last review's (0 approved or commented, 1 changes requested).
//
// API: `runReviewedDelegation(delegation)` → `TurnResult`.

import { resolve } from "node:path";
import { EXIT, ScvError } from "../errors.js";
import { agentSettings } from "../home/config.js";
import { readConversation } from "../home/conversations.js";
import { jobHandle } from "../home/turn-files.js";
import type { TurnResult } from "../result.js";
import { computeDiff, type ReviewScope, snapshotTree } from "../review/diff.js";
import { revisionPrompt } from "../review/prompt.js";
import type { ReviewReport } from "../review/report.js";
import { type ReviewRound, withRounds } from "../review/rounds.js";
import { runTurn } from "../turn/run-turn.js";
import type { TurnContext, TurnRequest } from "../turn/turn-types.js";
import { worktreeOf } from "./job-changes.js";
import { type ReviewTurnEvent, type ReviewTurnOptions, reviewWithTurns } from "./review-with-turns.js";
import { pickReviewers } from "./reviewers.js";

/** The most rounds a delegation may ask for. */
const MAX_ROUNDS = 10;

export interface ReviewedDelegation {
  /** The author's first turn (or a conversation to continue). */
  readonly request: TurnRequest;
  /** `--review-by`: the targets, or `auto` alone; empty: the config's `review_by`, else auto. */
  readonly reviewBy: readonly string[];
  /** How many reviews at most (default 1: review once, no revision). */
  readonly rounds?: number;
  readonly focus?: string;
  /** The author's turns' context; its `background` is the author's (the delegation's job). */
  readonly context: TurnContext;
  readonly configPath?: string;
  readonly onTurn?: (event: ReviewTurnEvent) => void;
  /** Told as each author turn starts and ends (round from 1), and as each review ends. */
  readonly onAuthor?: (round: number) => void;
  readonly onAuthorDone?: (round: number, result: TurnResult) => void;
  readonly onReview?: (round: number, report: ReviewReport) => void;
}

/** `--rounds`: a whole number from 1 to MAX_ROUNDS. */
export function checkRounds(rounds: number | undefined): number {
  const n = rounds ?? 1;
  if (!Number.isInteger(n) || n < 1 || n > MAX_ROUNDS) {
    throw new ScvError(
      "USAGE",
      `--rounds '${String(rounds)}' is not a count — give a whole number from 1 to ${MAX_ROUNDS}`,
    );
  }
  return n;
}

/** Runs the delegation: the author's turns and the reviews between them. Throws one line (exit 2)
 * before anything runs for what cannot be reviewed: not a git repository, no reviewer. */
export async function runReviewedDelegation(delegation: ReviewedDelegation): Promise<TurnResult> {
  const { request, context } = delegation;
  const rounds = checkRounds(delegation.rounds);
  const continued =
    request.continue === undefined
      ? undefined
      : readConversation(jobHandle(request.continue) ?? request.continue, context.env);
  const agent = continued?.agent ?? request.agent;
  if (agent === undefined)
    throw new ScvError("USAGE", "name the author — scv delegate --review-by <reviewers> <agent> <prompt>");
  const model = request.model ?? continued?.model ?? agentSettings(context.config, agent).model;
  const pick = await pickReviewers({
    given: delegation.reviewBy,
    author: { agent, ...(model === undefined ? {} : { model }) },
    config: context.config,
    env: context.env,
    ...(delegation.configPath === undefined ? {} : { configPath: delegation.configPath }),
  });
  const cwd = continued?.cwd ?? resolve(context.cwd, request.cwd ?? ".");
  // Before the author runs: what the tree held is not the author's.
  const before = worktreeOf(continued) === undefined ? await snapshotTree(cwd, context.env) : undefined;
  const turnOptions: ReviewTurnOptions = {
    ...(request.timeoutMs === undefined ? {} : { timeoutMs: request.timeoutMs }),
    ...(request.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: request.idleTimeoutMs }),
    ...(request.waitForResetMs === undefined ? {} : { waitForResetMs: request.waitForResetMs }),
  };
  const { background: _authorOnly, ...reviewContext } = context;

  delegation.onAuthor?.(1);
  let author = await runTurn(request, context);
  delegation.onAuthorDone?.(1, author);
  const done: ReviewRound[] = [];
  for (let round = 1; author.exitCode === EXIT.ok; round += 1) {
    const handle = author.conversation;
    const diff = await computeDiff(changesOf(handle, before, context), { cwd, env: context.env });
    const report = await reviewWithTurns({
      diff,
      reviewers: pick.reviewers,
      turn: turnOptions,
      context: reviewContext,
      ...(delegation.focus === undefined ? {} : { focus: delegation.focus }),
      ...(context.config.review_part_bytes === undefined
        ? {}
        : { maxPartBytes: context.config.review_part_bytes }),
      ...(delegation.onTurn === undefined ? {} : { onTurn: delegation.onTurn }),
    });
    done.push({ round, report });
    delegation.onReview?.(round, report);
    if (report.verdict === "approve" || round >= rounds || report.findings.length === 0 || handle === null)
      break;
    delegation.onAuthor?.(round + 1);
    author = await runTurn(
      {
        continue: handle,
        prompt: revisionPrompt(report.findings, pick.reviewers),
        ...(request.policy === undefined ? {} : { policy: request.policy }),
        ...(request.env === undefined ? {} : { env: request.env }),
        ...(request.mcp === undefined ? {} : { mcp: request.mcp }),
        ...turnOptions,
      },
      context,
    );
    delegation.onAuthorDone?.(round + 1, author);
  }
  return concluded(author, done);
}

/** What the author changed: its worktree branch, else the working tree since `before`. */
function changesOf(handle: string | null, before: string | undefined, context: TurnContext): ReviewScope {
  const record = handle === null ? undefined : readConversation(handle, context.env);
  const worktree = worktreeOf(record);
  if (worktree !== undefined) return { kind: "worktree", worktree };
  if (before === undefined) throw new Error("internal: no tree taken before the author's turn");
  return { kind: "job", job: handle ?? "the author", from: before };
}

/** The author's last result with the rounds, and the delegation's exit code: the author's failure,
 * else the last review's. */
function concluded(author: TurnResult, rounds: readonly ReviewRound[]): TurnResult {
  const last = rounds.at(-1)?.report;
  if (author.exitCode !== EXIT.ok || last === undefined || last.exitCode === EXIT.ok) {
    return withRounds(author, { kind: "delegation", rounds: [...rounds] });
  }
  const changes = last.verdict === "request-changes";
  const error = changes
    ? `the reviewers still request changes after ${rounds.length} round${rounds.length === 1 ? "" : "s"}`
    : `the review did not complete: ${last.reviewers.flatMap((each) => each.failures.map((failure) => `${each.reviewer}: ${failure.error}`))[0] ?? "no reviewer gave a verdict"}`;
  const hint =
    changes && author.conversation !== null
      ? `read the findings, then continue it: scv delegate -c ${author.conversation} "…" (or --rounds ${rounds.length + 1})`
      : "run the review again: scv review --job <job>, or name other reviewers";
  return withRounds(
    { ...author, exitCode: last.exitCode, error, hint },
    { kind: "delegation", rounds: [...rounds] },
  );
}
