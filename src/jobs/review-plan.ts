// What a review asks for, as the command line and the MCP `review` tool both say it (what is reviewed,
// by whom, whose work it is), turned into what runs it: the diff's scope and the reviewers chosen —
// and for a review run as a job (`scv review --background`, the MCP tool), the job's first turn and
// its `review` field (src/jobs/review-job.ts runs it).
//
// API: `reviewScope(asked)`, `planReview(asked, context)` → `ReviewPlan`, `reviewJob(plan, asked)`,
// `planDelegation(request, asked, context)` (`delegate --review-by`'s job).

import { resolve } from "node:path";
import { parseAgentSpec } from "../agent-spec.js";
import { requireAgent } from "../agents/lookup.js";
import { ScvError } from "../errors.js";
import type { Config } from "../home/config.js";
import { readConversation } from "../home/conversations.js";
import type { Env } from "../home/paths.js";
import { jobHandle } from "../home/turn-files.js";
import { describeScope, type ReviewScope } from "../review/diff.js";
import type { TurnRequest } from "../turn/turn-types.js";
import { findRepository } from "../worktrees/repo.js";
import type { Job } from "./job.js";
import { type JobChanges, jobChanges } from "./job-changes.js";
import { checkRounds } from "./reviewed-delegation.js";
import { pickReviewers, type ReviewerPick } from "./reviewers.js";

/** What a review is asked to review, and by whom. */
export interface ReviewAsk {
  readonly base?: string;
  readonly staged?: boolean;
  readonly commit?: string;
  /** A job or conversation whose changes are reviewed. */
  readonly job?: string;
  readonly focus?: string;
  /** The targets named (or `auto` alone); none: the config's `review_by`, else auto. */
  readonly reviewers: readonly string[];
  /** `<agent>[:model]` whose family auto leaves out (default: the job's agent). */
  readonly author?: string;
  /** The repository, relative to the caller's folder. */
  readonly cwd?: string;
  readonly timeoutMs?: number;
  readonly idleTimeoutMs?: number;
}

/** The scope the flags ask for (at most one of them); `--job` is resolved by `planReview`. */
type AskedScope = ReviewScope | { readonly kind: "job-ref"; readonly ref: string };

/** What is reviewed, as asked: at most one of base, staged, commit and job. `flag` spells each as the
 * caller wrote it (`--base`, or the MCP tool's `base`). Pure but for the one-line refusal. */
function reviewScope(asked: ReviewAsk, flag: (name: string) => string = (name) => `--${name}`): AskedScope {
  const given = [
    asked.base === undefined ? undefined : "base",
    asked.staged === true ? "staged" : undefined,
    asked.commit === undefined ? undefined : "commit",
    asked.job === undefined ? undefined : "job",
  ].filter((name) => name !== undefined);
  if (given.length > 1) {
    throw new ScvError(
      "USAGE",
      `${given.map(flag).join(" and ")} each say what to review — give one of them`,
    );
  }
  if (asked.base !== undefined) return { kind: "base", ref: asked.base };
  if (asked.staged === true) return { kind: "staged" };
  if (asked.commit !== undefined) return { kind: "commit", ref: asked.commit };
  if (asked.job !== undefined) return { kind: "job-ref", ref: asked.job };
  return { kind: "changes" };
}

export interface ReviewPlan {
  readonly asked: AskedScope;
  readonly scope: ReviewScope;
  /** Where git runs: the job's folder, else the folder asked. */
  readonly cwd: string;
  readonly pick: ReviewerPick;
}

export interface PlanContext {
  readonly env: Env;
  readonly cwd: string;
  readonly config: Config;
  readonly configPath?: string;
  readonly flag?: (name: string) => string;
}

/** The scope, folder and reviewers of a review. Throws one line (exit 2) for what cannot be one. */
export async function planReview(asked: ReviewAsk, context: PlanContext): Promise<ReviewPlan> {
  const scope = reviewScope(asked, context.flag);
  const job: JobChanges | undefined =
    scope.kind === "job-ref" ? await jobChanges(scope.ref, context.env) : undefined;
  const author = asked.author === undefined ? job?.author : authorOf(asked.author);
  const pick = await pickReviewers({
    given: asked.reviewers,
    ...(author === undefined ? {} : { author }),
    config: context.config,
    env: context.env,
    ...(context.configPath === undefined ? {} : { configPath: context.configPath }),
  });
  return {
    asked: scope,
    scope: job?.scope ?? (scope as ReviewScope),
    cwd: job?.cwd ?? resolve(context.cwd, asked.cwd ?? "."),
    pick,
  };
}

/** `<agent>[:model]`: whose family auto keeps out. */
function authorOf(text: string): { agent: string; model?: string } {
  const spec = parseAgentSpec(text);
  requireAgent(spec.agent);
  return { agent: spec.agent, ...(spec.model === undefined ? {} : { model: spec.model }) };
}

/** A review run as a job: its first turn (the first reviewer's first conversation; the detached scv
 * computes the diff) and the job's `review`. */
export function reviewJob(
  plan: ReviewPlan,
  asked: Pick<ReviewAsk, "focus" | "timeoutMs" | "idleTimeoutMs">,
): { request: TurnRequest; review: NonNullable<Job["review"]> } {
  const first = parseAgentSpec(plan.pick.reviewers[0] ?? "");
  return {
    request: {
      agent: first.agent,
      ...(first.model === undefined ? {} : { model: first.model }),
      ...(first.effort === undefined ? {} : { effort: first.effort }),
      ...(first.accounts === undefined ? {} : { accounts: first.accounts }),
      prompt: `scv review: ${describeScope(plan.scope)}`,
      cwd: plan.cwd,
      review: true,
      ...(asked.timeoutMs === undefined ? {} : { timeoutMs: asked.timeoutMs }),
      ...(asked.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: asked.idleTimeoutMs }),
    },
    review: {
      kind: "review",
      reviewers: [...plan.pick.reviewers],
      ...(asked.focus === undefined ? {} : { focus: asked.focus }),
      scope: jobScope(plan.asked),
    },
  };
}

/** The scope a review's job carries (the runner computes its diff, and resolves a job again). */
function jobScope(scope: AskedScope): NonNullable<NonNullable<Job["review"]>["scope"]> {
  switch (scope.kind) {
    case "base":
    case "commit":
      return { kind: scope.kind, ref: scope.ref };
    case "job-ref":
      return { kind: "job", ref: scope.ref };
    case "staged":
      return { kind: "staged" };
    default:
      return { kind: "changes" };
  }
}

/** A reviewed delegation's `review` for its job: the reviewers chosen for the author `request` names
 * (or its continued conversation's agent), and the rounds. Throws one line (exit 2) for reviewers that
 * are not, nobody to choose, a count that is not one. */
export async function planDelegation(
  request: TurnRequest,
  asked: { readonly reviewBy: readonly string[]; readonly rounds?: number; readonly focus?: string },
  context: PlanContext,
): Promise<NonNullable<Job["review"]>> {
  const rounds = checkRounds(asked.rounds);
  const continued =
    request.continue === undefined
      ? undefined
      : readConversation(jobHandle(request.continue) ?? request.continue, context.env);
  const agent = continued?.agent ?? request.agent ?? "";
  const model = request.model ?? continued?.model;
  const pick = await pickReviewers({
    given: asked.reviewBy,
    author: { agent, ...(model === undefined ? {} : { model }) },
    config: context.config,
    env: context.env,
    ...(context.configPath === undefined ? {} : { configPath: context.configPath }),
  });
  // No repository: refused before the author runs, rather than after.
  await findRepository(continued?.cwd ?? resolve(context.cwd, request.cwd ?? "."), context.env);
  return {
    kind: "delegation",
    reviewers: [...pick.reviewers],
    rounds,
    ...(asked.focus === undefined ? {} : { focus: asked.focus }),
  };
}
