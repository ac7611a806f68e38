// A review whose turns are scv's own: each reviewer's turn is a normal turn (runTurn: its conversation
// record, usage log line, cost, accounts and fallbacks, time limits), asked as a reviewer's
// (`review: true` in the request: read-only, held to the findings' schema, src/turn/review-turn.ts) in
// the folder the diff says (the repository's top level, or a worktree's). src/review/run-review.ts decides
// which turns to ask; this module runs them. The command line, a background job and the MCP server
// all review through here.
//
// API: `reviewWithTurns(run)` → `ReviewReport`.

import { parseAgentSpec } from "../agent-spec.js";
import { requireAgent } from "../agents/lookup.js";
import type { TurnResult } from "../result.js";
import type { ReviewDiff } from "../review/diff.js";
import type { ReviewReport } from "../review/report.js";
import { type ReviewTurnRequest, runReview } from "../review/run-review.js";
import { DEFAULT_PART_BYTES } from "../review/split.js";
import { runTurn } from "../turn/run-turn.js";
import type { TurnContext, TurnRequest } from "../turn/turn-types.js";

/** What every reviewer turn of a review is given besides its prompt. */
export type ReviewTurnOptions = Pick<
  TurnRequest,
  "timeoutMs" | "idleTimeoutMs" | "env" | "waitForResetMs" | "mcp"
>;

/** A reviewer turn starting or ended, for what a caller shows while the review runs. */
export type ReviewTurnEvent =
  | { readonly kind: "start"; readonly turn: ReviewTurnRequest }
  | { readonly kind: "end"; readonly turn: ReviewTurnRequest; readonly result: TurnResult };

export interface ReviewRun {
  readonly diff: ReviewDiff;
  readonly reviewers: readonly string[];
  readonly focus?: string;
  /** The config's `review_part_bytes`, else `DEFAULT_PART_BYTES`. */
  readonly maxPartBytes?: number;
  readonly turn?: ReviewTurnOptions;
  /** Every turn's context; its `background` is used only by the turns of the conversation `job`
   * names (a background review's job is its first reviewer's first conversation). */
  readonly context: TurnContext;
  /** A background review: its job and that job's conversation, the first reviewer's first part. */
  readonly job?: { readonly job: string; readonly handle: string };
  readonly onTurn?: (event: ReviewTurnEvent) => void;
}

/** Runs the review's turns and returns its report. */
export async function reviewWithTurns(run: ReviewRun): Promise<ReviewReport> {
  const { context, job } = run;
  const first = run.reviewers[0];
  const { background: _jobOnly, ...foreground } = context;
  const ask = async (turn: ReviewTurnRequest): Promise<TurnResult> => {
    const opensJob =
      job !== undefined && turn.conversation === undefined && turn.reviewer === first && turn.part === 1;
    const inJob = opensJob || (job !== undefined && turn.conversation === job.handle);
    const request: Omit<TurnRequest, "prompt"> =
      turn.conversation === undefined
        ? { ...targetRequest(turn.reviewer), ...(opensJob ? { handle: job.handle } : {}) }
        : { continue: turn.conversation };
    run.onTurn?.({ kind: "start", turn });
    const result = await runTurn(
      { ...request, ...run.turn, prompt: turn.prompt, cwd: run.diff.root, review: true },
      inJob ? context : foreground,
    );
    run.onTurn?.({ kind: "end", turn, result });
    return result;
  };
  return runReview({
    diff: run.diff,
    reviewers: run.reviewers,
    ask,
    continues: (reviewer) => requireAgent(parseAgentSpec(reviewer).agent).resume.kind === "supported",
    maxPartBytes: run.maxPartBytes ?? DEFAULT_PART_BYTES,
    ...(run.focus === undefined ? {} : { focus: run.focus }),
  });
}

/** A first turn of `target` (`<agent>`, `<agent>:<model>/high`, `<agent>@work`). */
function targetRequest(target: string): Omit<TurnRequest, "prompt"> {
  const spec = parseAgentSpec(target);
  return {
    agent: spec.agent,
    ...(spec.model === undefined ? {} : { model: spec.model }),
    ...(spec.effort === undefined ? {} : { effort: spec.effort }),
    ...(spec.accounts === undefined ? {} : { accounts: spec.accounts }),
  };
}
