// The review's published JSON Schemas (`npm run docs`; test/foundation/docs.test.ts holds them
// current): what a reviewer is asked to reply — the very schema reviewers' CLIs are given — and the
// report `scv review --json` prints and the MCP `review` tool returns as structured content.

import * as z from "zod/mini";
import { reviewReportSchema } from "../src/review/report.js";
import { findingsJsonSchema } from "../src/review/schema.js";

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** The findings' schema as reviewers get it, with a title and the draft it is written in. */
export function renderFindingsSchema(): string {
  return json({
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "scv review: a reviewer's reply",
    ...findingsJsonSchema(),
  });
}

/** The report's schema, from its zod schema. */
export function renderReportSchema(): string {
  const { $schema, ...schema } = z.toJSONSchema(reviewReportSchema());
  return json({ $schema, title: "scv review --json: the review's report", ...schema });
}

/** Each published file and what renders it. */
export const REVIEW_SCHEMA_FILES: Readonly<Record<string, () => string>> = {
  "docs/review-findings.schema.json": renderFindingsSchema,
  "docs/review-report.schema.json": renderReportSchema,
};
