// The `review` tool: a review run as a job (src/jobs/review-job.ts: the diff computed by the detached
// scv, each reviewer a normal turn, read-only), waited for as delegate's turns are; a review longer
// than the wait returns its job, for wait. Its answer is the report: the verdict first
// (replies.ts `finishedOutcome` reads a review's result).

import { loadConfig } from "../home/config.js";
import { planReview, reviewJob } from "../jobs/review-plan.js";
import { type CallContext, startedAndWaited } from "./job-tools.js";
import { type JobStart, startJobs } from "./jobs.js";
import type { ToolOutcome } from "./replies.js";
import type { ReviewInput } from "./tools.js";

export async function reviewTool(input: ReviewInput, context: CallContext): Promise<ToolOutcome> {
  return startedAndWaited(input.wait_seconds, context, () => startReview(input, context));
}

/** Starts the review's job (refused as one line, before anything runs, for what cannot be one). */
export async function startReview(input: ReviewInput, context: CallContext): Promise<JobStart[]> {
  const loaded = loadConfig(context.env);
  const reviewers = input.reviewers === undefined ? [] : [input.reviewers].flat();
  const asked = {
    ...input,
    reviewers,
    ...(input.staged === undefined ? {} : { staged: input.staged }),
  };
  const plan = await planReview(asked, {
    env: context.env,
    cwd: context.cwd,
    config: loaded.config,
    configPath: loaded.path,
    flag: (name) => name,
  });
  const { request, review } = reviewJob(plan, asked);
  return startJobs([request], {
    env: context.env,
    cwd: context.cwd,
    config: loaded.config,
    spare: context.spare,
    review,
  });
}
