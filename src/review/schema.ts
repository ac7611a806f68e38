// What a reviewer is asked to reply: a verdict, a summary and findings, as one JSON object. Two
// forms of the one shape: `findingsJsonSchema()` is what the reviewer is given (the prompt shows it;
// a CLI with a structured-output option is held to it: its row's `review.schema`) and what docs/review-findings.schema.json publishes; `reviewReplySchema()` (zod)
// is what a reply is checked with.
//
// The JSON Schema follows the strict subset OpenAI's structured outputs accept (a CLI sends it as a
// strict schema): every object closed, every property required, an optional value written `null`.
// The zod schema takes a reply in either spelling (a missing optional, or null) and gives the
// normalised `ReviewReply`, optional values absent rather than null.
//
// API: `SEVERITIES`, `VERDICTS`, `findingsJsonSchema()`, `reviewReplySchema()`, the types
// `Severity`, `Verdict`, `Finding`, `ReviewReply`.

import * as z from "zod/mini";
import { lazy } from "../lazy.js";

/** Most severe first. */
export const SEVERITIES = ["blocker", "major", "minor", "nit"] as const;
export type Severity = (typeof SEVERITIES)[number];

export const VERDICTS = ["approve", "request-changes", "comment"] as const;
export type Verdict = (typeof VERDICTS)[number];

/** What each severity means, for the reviewer (the schema's descriptions, the prompt). */
export const SEVERITY_MEANING: Readonly<Record<Severity, string>> = {
  blocker: "must be fixed before this change is merged: a bug, data loss, a security hole, a broken build",
  major: "should be fixed: wrong behaviour in some cases, a missing check, a misleading API",
  minor: "worth fixing: clarity, a small inefficiency, a missing test",
  nit: "a matter of taste: naming, wording, formatting",
};

/** 0 for the most severe. */
export function severityRank(severity: Severity): number {
  return SEVERITIES.indexOf(severity);
}

export interface Finding {
  readonly severity: Severity;
  /** The file's path as the diff names it (after the change). */
  readonly file: string;
  /** Lines in the file after the change, from 1; absent for the file as a whole. */
  readonly line?: number;
  readonly endLine?: number;
  /** One line. */
  readonly title: string;
  readonly body: string;
  /** Replacement code or a concrete change. */
  readonly suggestion?: string;
}

export interface ReviewReply {
  readonly verdict: Verdict;
  readonly summary: string;
  readonly findings: readonly Finding[];
}

const nonEmpty = () => z.string().check(z.trim(), z.minLength(1));
const lineNumber = () => z.optional(z.nullable(z.int().check(z.positive())));

const findingSchema = () =>
  z
    .object({
      severity: z.enum(SEVERITIES),
      file: nonEmpty(),
      line: lineNumber(),
      endLine: lineNumber(),
      title: nonEmpty(),
      body: z.string(),
      suggestion: z.optional(z.nullable(z.string())),
    })
    .check(
      z.refine(
        (finding) => finding.endLine == null || finding.line == null || finding.endLine >= finding.line,
        {
          error: "endLine is before line",
          path: ["endLine"],
        },
      ),
    );

/** A reply as a reviewer may write it, made into a `ReviewReply` (nulls dropped, text trimmed).
 * Keys the schema does not name are ignored. */
export const reviewReplySchema = lazy(() =>
  z.pipe(
    z.object({
      verdict: z.enum(VERDICTS),
      summary: z.string(),
      findings: z.array(findingSchema()),
    }),
    z.transform(
      (reply): ReviewReply => ({
        verdict: reply.verdict,
        summary: reply.summary.trim(),
        findings: reply.findings.map((finding) => ({
          severity: finding.severity,
          file: finding.file,
          ...(finding.line == null ? {} : { line: finding.line }),
          ...(finding.endLine == null || finding.line == null ? {} : { endLine: finding.endLine }),
          title: finding.title,
          body: finding.body.trim(),
          ...(finding.suggestion == null || finding.suggestion.trim() === ""
            ? {}
            : { suggestion: finding.suggestion }),
        })),
      }),
    ),
  ),
);

/** The JSON Schema a reviewer is given (a plain JSON value: written to a file, put on a command
 * line, shown in the prompt). Pure: a new object each call. */
export function findingsJsonSchema(): Record<string, unknown> {
  const severities = SEVERITIES.map((severity) => `${severity}: ${SEVERITY_MEANING[severity]}`).join("; ");
  const nullable = (type: string, description: string) => ({ type: [type, "null"], description });
  return {
    type: "object",
    additionalProperties: false,
    required: ["verdict", "summary", "findings"],
    properties: {
      verdict: {
        type: "string",
        enum: [...VERDICTS],
        description:
          "approve: nothing needs to change; request-changes: something must change before merging (any blocker); comment: findings worth reading, none that must block",
      },
      summary: {
        type: "string",
        description: "What the change does and how it holds up, in a few sentences",
      },
      findings: {
        type: "array",
        description: "Each problem found, most severe first; empty when there is none",
        items: {
          type: "object",
          additionalProperties: false,
          required: ["severity", "file", "line", "endLine", "title", "body", "suggestion"],
          properties: {
            severity: { type: "string", enum: [...SEVERITIES], description: severities },
            file: { type: "string", description: "The file's path as the diff names it" },
            line: nullable(
              "integer",
              "First line concerned, in the file after the change; null for the whole file",
            ),
            endLine: nullable("integer", "Last line concerned; null for one line"),
            title: { type: "string", description: "The problem in one line" },
            body: { type: "string", description: "Why it is a problem and when it happens" },
            suggestion: nullable("string", "Replacement code or a concrete fix; null when none"),
          },
        },
      },
    },
  };
}
