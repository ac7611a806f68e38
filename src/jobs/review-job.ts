// A job that is a review, run by its detached scv (`background-turn`): `scv review --background` and
// the MCP `review` tool (the job is its first reviewer's first conversation), or a reviewed delegation
// (`delegate --review-by … --background`, the MCP `delegate` tool with `review_by`: the job is the
// author's). Either ends in one result for `scv wait`, the MCP `wait` tool and the reaper alike: a
// turn's result carrying the review (src/review/rounds.ts).
//
// API: `runReviewJob(job, context)` → `TurnResult`; `reviewResult(report, started)` (pure).

import { EXIT } from "../errors.js";
import type { TurnResult } from "../result.js";
import { computeDiff, type ReviewScope } from "../review/diff.js";
import type { ReviewReport } from "../review/report.js";
import { withRounds } from "../review/rounds.js";
import type { TurnContext } from "../turn/turn-types.js";
import type { Job } from "./job.js";
import { jobChanges } from "./job-changes.js";
import { reviewWithTurns } from "./review-with-turns.js";
import { runReviewedDelegation } from "./reviewed-delegation.js";

type ReviewJob = Job & { readonly review: NonNullable<Job["review"]> };

/** Runs the job's review (or reviewed delegation) and returns its one result. */
export async function runReviewJob(job: ReviewJob, context: TurnContext): Promise<TurnResult> {
  const { review } = job;
  if (review.kind === "delegation") {
    return runReviewedDelegation({
      request: job.request,
      reviewBy: review.reviewers,
      ...(review.rounds === undefined ? {} : { rounds: review.rounds }),
      ...(review.focus === undefined ? {} : { focus: review.focus }),
      context,
    });
  }
  const started = Date.now();
  const cwd = job.request.cwd ?? context.cwd;
  const asked = review.scope ?? { kind: "changes" };
  const scope: ReviewScope =
    asked.kind === "job" ? (await jobChanges(asked.ref ?? "", context.env)).scope : scopeOf(asked);
  const diff = await computeDiff(scope, { cwd, env: context.env });
  // Started once the job's own turn (the first reviewer's first part) runs its agent, as any job's:
  // said before, the launcher's caller would look for a running record no turn had written yet and
  // take the job for one whose result was read already.
  const report = await reviewWithTurns({
    diff,
    reviewers: review.reviewers,
    ...(review.focus === undefined ? {} : { focus: review.focus }),
    ...(context.config.review_part_bytes === undefined
      ? {}
      : { maxPartBytes: context.config.review_part_bytes }),
    turn: {
      ...(job.request.timeoutMs === undefined ? {} : { timeoutMs: job.request.timeoutMs }),
      ...(job.request.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: job.request.idleTimeoutMs }),
    },
    context,
    job: { job: job.job, handle: job.handle },
  });
  return reviewResult(report, started);
}

function scopeOf(asked: NonNullable<Job["review"]>["scope"] & object): ReviewScope {
  switch (asked.kind) {
    case "base":
      return { kind: "base", ref: asked.ref ?? "" };
    case "commit":
      return { kind: "commit", ref: asked.ref ?? "" };
    case "staged":
      return { kind: "staged" };
    default:
      return { kind: "changes" };
  }
}

/** A review's report as a job's result: no reply of its own, the reviewers' usage and cost, the
 * review's exit code and, when it is not 0, what it means. Pure. */
export function reviewResult(report: ReviewReport, started: number): TurnResult {
  const failure = report.reviewers.flatMap((each) => each.failures.map((failure) => ({ each, failure })))[0];
  const ok = report.exitCode === EXIT.ok;
  const changes = report.verdict === "request-changes";
  const error = ok
    ? null
    : changes
      ? "the reviewers request changes"
      : `the review did not complete: ${failure === undefined ? "no reviewer gave a verdict" : `${failure.each.reviewer}: ${failure.failure.error}`}`;
  return withRounds(
    {
      reply: "",
      status: ok || changes ? "completed" : "failed",
      agent: "",
      conversation: null,
      session: null,
      usage: report.usage,
      cost: report.cost,
      duration: Math.max(0, Date.now() - started),
      exitCode: report.exitCode,
      error,
      hint: ok ? null : changes ? "read the findings in the report" : (failure?.failure.hint ?? null),
      fallbacks: [],
      notes: [],
      mode: null,
      badLines: 0,
    },
    { kind: "review", rounds: [{ round: 1, report }] },
  );
}
