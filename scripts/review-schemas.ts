// The review's published JSON Schema (`npm run docs`; test/foundation/docs.test.ts holds it
// current): what a reviewer is asked to reply — the very schema reviewers' CLIs are given. The report
// `scv review --json` prints is a `--json` document like any other: docs/json/review.schema.json
// (src/json-documents.ts).

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

/** Each published file and what renders it. */
export const REVIEW_SCHEMA_FILES: Readonly<Record<string, () => string>> = {
  "docs/review-findings.schema.json": renderFindingsSchema,
};
