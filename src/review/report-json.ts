// The review's report as scv prints it (`scv review --json`, the MCP `review` tool's structured
// content), and a reviewed delegation's result (`scv delegate --review-by … --json`): the rule of
// every `--json` document (src/json-shapes.ts) holds, so each field is always there, null where the
// report has no value. The report's own schema (report.ts) is what scv keeps, with optional fields;
// these are what it shows. docs/json/review.schema.json and delegate-reviewed.schema.json are
// generated from them (src/json-documents.ts).
//
// API: `reviewReportShape()`, `reviewReportJson(report)`; `reviewRoundsShape()`, `reviewedResultShape()`,
// `reviewedResultJson(result, rounds)`.

import * as z from "zod/mini";
import { tokenCountsShape, turnResultJson, turnResultShape, usageJson } from "../json-shapes.js";
import { lazy } from "../lazy.js";
import type { TurnResult } from "../result.js";
import type { ReviewReport } from "./report.js";
import type { ReviewRound } from "./rounds.js";
import { SEVERITIES, VERDICTS } from "./schema.js";

const described = <T extends z.ZodMiniType>(schema: T, description: string): T =>
  schema.check(z.describe(description)) as T;
const maybe = <T extends z.ZodMiniType>(schema: T) => z.nullable(schema);
const count = () => z.int().check(z.nonnegative());

const findingFields = () => ({
  severity: z.enum(SEVERITIES),
  file: described(z.string(), "the path as the diff names it"),
  line: described(
    maybe(z.int()),
    "the first line concerned, in the file after the change; null: the whole file",
  ),
  endLine: described(maybe(z.int()), "the last line concerned; null: one line"),
  title: z.string(),
  body: z.string(),
  suggestion: maybe(z.string()),
  scope: described(
    z.enum(["diff", "file", "elsewhere"]),
    "diff: on lines the diff shows; file: in a changed file, on lines it does not show; elsewhere: in a file the diff does not change",
  ),
});

export const reviewReportShape = lazy(() =>
  described(
    z.object({
      verdict: described(maybe(z.enum(VERDICTS)), "null when no reviewer gave one"),
      exitCode: described(
        z.int(),
        "0 approved or commented, 1 changes requested, else the first failed turn's own code",
      ),
      description: described(z.string(), "what was compared, in words"),
      scope: z.enum(["changes", "base", "staged", "commit", "worktree", "job"]),
      from: described(z.string(), "the commit or tree compared from"),
      to: described(z.string(), "the commit or tree compared to"),
      files: z.array(
        z.object({
          path: z.string(),
          from: described(maybe(z.string()), "a renamed or copied file's old path"),
          status: z.enum(["added", "deleted", "modified", "renamed", "copied"]),
          added: count(),
          removed: count(),
          binary: z.boolean(),
          generated: described(maybe(z.string()), "why it counts as generated; null when it does not"),
          reviewed: described(z.boolean(), "whether a reviewer was given its diff"),
        }),
      ),
      skipped: described(
        z.array(
          z.object({
            path: z.string(),
            reason: z.enum(["binary", "generated", "too-large"]),
            detail: z.string(),
          }),
        ),
        "the files no reviewer was given, and why",
      ),
      findings: described(
        z.array(
          z.object({
            ...findingFields(),
            raisedBy: described(z.array(z.string()), "the reviewers who raised it"),
            reports: described(
              z.array(z.object({ ...findingFields(), reviewer: z.string() })),
              "each reviewer's own finding",
            ),
          }),
        ),
        "most severe first; findings of several reviewers that agree are one",
      ),
      reviewers: z.array(
        z.object({
          reviewer: described(
            z.string(),
            "the target as given (<agent>, <agent>:<model>/high, <agent>@work)",
          ),
          status: described(
            z.enum(["ok", "partial", "failed"]),
            "ok: every part gave valid findings; partial: some did; failed: none did",
          ),
          verdict: maybe(z.enum(VERDICTS)),
          summary: z.string(),
          parts: described(count(), "how many parts of the diff it was given"),
          repaired: described(count(), "parts whose first reply was invalid and needed a repair turn"),
          conversations: described(z.array(z.string()), "its scv conversations, one per part"),
          failures: z.array(
            z.object({
              part: z.int(),
              exitCode: z.int(),
              error: z.string(),
              hint: maybe(z.string()),
            }),
          ),
          usage: described(
            maybe(tokenCountsShape()),
            "its turns' tokens together; null when none reported any",
          ),
          cost: described(maybe(z.number()), "dollars; null when no turn reported a cost"),
          duration: described(count(), "milliseconds of its turns together"),
        }),
      ),
      usage: described(
        maybe(tokenCountsShape()),
        "every reviewer's tokens together; null when none reported any",
      ),
      cost: described(maybe(z.number()), "dollars; null when no turn reported a cost"),
    }),
    "a review's report",
  ),
);
export type ReviewReportJson = z.infer<ReturnType<typeof reviewReportShape>>;

type FindingJson = ReviewReportJson["findings"][number]["reports"][number];

function findingJson<F extends ReviewReport["findings"][number]["reports"][number]>(finding: F): FindingJson {
  return {
    severity: finding.severity,
    file: finding.file,
    line: finding.line ?? null,
    endLine: finding.endLine ?? null,
    title: finding.title,
    body: finding.body,
    suggestion: finding.suggestion ?? null,
    scope: finding.scope,
    reviewer: finding.reviewer,
  };
}

/** The report as `--json` prints it. Pure. */
export function reviewReportJson(report: ReviewReport): ReviewReportJson {
  return {
    verdict: report.verdict,
    exitCode: report.exitCode,
    description: report.description,
    scope: report.scope,
    from: report.from,
    to: report.to,
    files: report.files.map((file) => ({
      path: file.path,
      from: file.from ?? null,
      status: file.status,
      added: file.added,
      removed: file.removed,
      binary: file.binary,
      generated: file.generated ?? null,
      reviewed: file.reviewed,
    })),
    skipped: report.skipped.map((file) => ({ ...file })),
    findings: report.findings.map((finding) => {
      const { reviewer: _first, ...merged } = findingJson({ ...finding, reviewer: "" });
      return { ...merged, raisedBy: [...finding.raisedBy], reports: finding.reports.map(findingJson) };
    }),
    reviewers: report.reviewers.map((reviewer) => ({
      reviewer: reviewer.reviewer,
      status: reviewer.status,
      verdict: reviewer.verdict,
      summary: reviewer.summary,
      parts: reviewer.parts,
      repaired: reviewer.repaired,
      conversations: [...reviewer.conversations],
      failures: reviewer.failures.map((failure) => ({ ...failure })),
      usage: reviewer.usage === null ? null : usageJson(reviewer.usage),
      cost: reviewer.cost,
      duration: reviewer.duration,
    })),
    usage: report.usage === null ? null : usageJson(report.usage),
    cost: report.cost,
  };
}

const reviewRoundsShape = lazy(() =>
  described(
    z.object({
      verdict: described(maybe(z.enum(VERDICTS)), "the last round's verdict; null when it had none"),
      exitCode: described(z.int(), "the last round's exit code, as scv review's"),
      rounds: z.array(
        z.object({
          round: described(z.int(), "from 1"),
          report: reviewReportShape(),
        }),
      ),
    }),
    "each round's review of the author's changes, in order",
  ),
);

export const reviewedResultShape = lazy(() =>
  described(
    z.object({
      ...turnResultShape().shape,
      review: reviewRoundsShape(),
    }),
    "the author's last turn, and each round's review",
  ),
);
export type ReviewedResultJson = z.infer<ReturnType<typeof reviewedResultShape>>;

/** A reviewed delegation's result as `--json` prints it. Pure. */
export function reviewedResultJson(result: TurnResult, rounds: readonly ReviewRound[]): ReviewedResultJson {
  const last = rounds.at(-1)?.report;
  return {
    ...turnResultJson(result),
    review: {
      verdict: last?.verdict ?? null,
      exitCode: last?.exitCode ?? result.exitCode,
      rounds: rounds.map((round) => ({ round: round.round, report: reviewReportJson(round.report) })),
    },
  };
}
