// A review's result: the verdict and exit code, what was compared, every changed file (reviewed or
// left out, and why), the merged findings with who raised each, and each reviewer's outcome with its
// usage and cost. `scv review --json` prints it, the MCP `review` tool returns it as structured
// content, and every other form (text, markdown, SARIF) is rendered from it; `reviewReportSchema` is
// the contract.
//
// API: `reviewReportSchema()`, the types `ReviewReport`, `ReviewerOutcome`, `PartFailure`;
// `sumUsage(usages)` (pure).

import * as z from "zod/mini";
import { lazy } from "../lazy.js";
import { type TurnUsage, usageSchema } from "../result.js";
import { SEVERITIES, VERDICTS } from "./schema.js";

const findingFields = () => ({
  severity: z.enum(SEVERITIES),
  /** The path as the diff names it. */
  file: z.string(),
  line: z.optional(z.int()),
  endLine: z.optional(z.int()),
  title: z.string(),
  body: z.string(),
  suggestion: z.optional(z.string()),
  /** `diff`: on lines the diff shows (or the whole of a changed file); `file`: in a changed file, on
   * lines it does not show; `elsewhere`: in a file the diff does not change. */
  scope: z.enum(["diff", "file", "elsewhere"]),
});

const partFailureSchema = () =>
  z.object({
    /** The part (from 1) that got no valid reply. */
    part: z.int(),
    /** scv's exit code for it: the turn's (3, 4, 5, 124, …), or 1 for a reply never valid. */
    exitCode: z.int(),
    /** What went wrong, one line. */
    error: z.string(),
    /** What to do about it, one line; null when there is nothing to do. */
    hint: z.nullable(z.string()),
  });

const reviewerOutcomeSchema = () =>
  z.object({
    /** The target as given (`<agent>`, `<agent>:<model>/high`, `<agent>@work`). */
    reviewer: z.string(),
    /** `ok`: every part gave valid findings; `partial`: some did; `failed`: none did. */
    status: z.enum(["ok", "partial", "failed"]),
    /** Its verdict over the parts that gave one; null when none did. */
    verdict: z.nullable(z.enum(VERDICTS)),
    /** Its summaries, one per part that gave one, joined. */
    summary: z.string(),
    /** How many parts it was asked to review. */
    parts: z.int(),
    /** Parts whose first reply was invalid and whose repair turn was needed. */
    repaired: z.int(),
    /** Its scv conversations, one per part. */
    conversations: z.array(z.string()),
    failures: z.array(partFailureSchema()),
    /** Its turns' tokens and cost together (repairs included); null when no turn reported any. */
    usage: z.nullable(usageSchema()),
    cost: z.nullable(z.number()),
    /** Wall-clock milliseconds of its turns together. */
    duration: z.int(),
  });

export const reviewReportSchema = lazy(() =>
  z.object({
    /** null when no reviewer gave a verdict. */
    verdict: z.nullable(z.enum(VERDICTS)),
    /** 0 approved or commented, 1 changes requested, else the first failure's code. */
    exitCode: z.int(),
    /** What was compared, in words, and the two sides (commits or trees). */
    description: z.string(),
    scope: z.enum(["changes", "base", "staged", "commit", "worktree", "job"]),
    from: z.string(),
    to: z.string(),
    files: z.array(
      z.object({
        path: z.string(),
        from: z.optional(z.string()),
        status: z.enum(["added", "deleted", "modified", "renamed", "copied"]),
        added: z.int(),
        removed: z.int(),
        binary: z.boolean(),
        /** Why it counts as generated, where it does. */
        generated: z.optional(z.string()),
        /** Whether a reviewer was given its diff. */
        reviewed: z.boolean(),
      }),
    ),
    /** The files no reviewer was given, and why. */
    skipped: z.array(
      z.object({
        path: z.string(),
        reason: z.enum(["binary", "generated", "too-large"]),
        detail: z.string(),
      }),
    ),
    /** Most severe first; findings of several reviewers that agree are one. */
    findings: z.array(
      z.object({
        ...findingFields(),
        /** Who raised it. */
        raisedBy: z.array(z.string()),
        /** Each reviewer's own finding. */
        reports: z.array(z.object({ ...findingFields(), reviewer: z.string() })),
      }),
    ),
    reviewers: z.array(reviewerOutcomeSchema()),
    /** Every reviewer's tokens and cost together; null when none reported any. */
    usage: z.nullable(usageSchema()),
    cost: z.nullable(z.number()),
  }),
);

export type ReviewReport = z.infer<ReturnType<typeof reviewReportSchema>>;
export type ReviewerOutcome = ReviewReport["reviewers"][number];
export type PartFailure = ReviewerOutcome["failures"][number];

const USAGE_KEYS = ["input", "cached", "cacheWrite", "output", "reasoning", "costUsd"] as const;

/** Token counts added up, each where any usage has it; null when none has any. Pure. */
export function sumUsage(usages: readonly (TurnUsage | null)[]): TurnUsage | null {
  const total: Record<string, number> = {};
  for (const usage of usages) {
    if (usage === null) continue;
    for (const key of USAGE_KEYS) {
      const value = usage[key];
      if (value !== undefined) total[key] = (total[key] ?? 0) + value;
    }
  }
  return Object.keys(total).length === 0 ? null : (total as TurnUsage);
}

/** Costs added up; null when none is known. Pure. */
export function sumCost(costs: readonly (number | null)[]): number | null {
  const known = costs.filter((cost): cost is number => cost !== null);
  return known.length === 0 ? null : known.reduce((sum, cost) => sum + cost, 0);
}
