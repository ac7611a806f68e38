// What a turn's result carries of a review (its optional `review`, src/result.ts): a reviewed
// delegation's rounds (`delegate --review-by`, each round the report on the author's changes so far),
// or a background review's one report (`scv review --background`, the MCP `review` tool). A result is
// kept on disk between the scv that ran it and the one that reads it, so it is read back with the
// report's own schema; anything else there is no review.
//
// API: `reviewRoundsSchema()`, `withRounds(result, rounds)`, `roundsOf(result)`.

import * as z from "zod/mini";
import { lazy } from "../lazy.js";
import type { TurnResult } from "../result.js";
import { reviewReportSchema } from "./report.js";

const reviewRoundsSchema = lazy(() =>
  z.object({
    /** `delegation`: the rounds of a reviewed delegation; `review`: a review alone, one round. */
    kind: z.enum(["delegation", "review"]),
    rounds: z.array(z.object({ round: z.int(), report: reviewReportSchema() })),
  }),
);
export type ReviewRounds = z.infer<ReturnType<typeof reviewRoundsSchema>>;
export type ReviewRound = ReviewRounds["rounds"][number];

/** `result` carrying `rounds`. Pure. */
export function withRounds(result: TurnResult, rounds: ReviewRounds): TurnResult {
  return { ...result, review: rounds as unknown as Record<string, unknown> };
}

/** The review `result` carries, if any. */
export function roundsOf(result: TurnResult): ReviewRounds | undefined {
  if (result.review === undefined) return undefined;
  const parsed = reviewRoundsSchema().safeParse(result.review);
  return parsed.success ? parsed.data : undefined;
}
