// A review report for the renderers' tests, made the way scv makes one (runReview over scripted
// reviewer turns): two reviewers agreeing on a blocker, a finding outside the diff, one in a file the
// diff does not change, a whole-file finding, a suggestion holding backticks, a reviewer that failed
// its second part, and files left out.

import type { TurnResult } from "../../src/result.js";
import type { ReviewDiff } from "../../src/review/diff.js";
import type { ReviewReport } from "../../src/review/report.js";
import { type ReviewTurnRequest, runReview } from "../../src/review/run-review.js";
import { changedFile, turnResult } from "./helpers.js";

export const SAMPLE_DIFF: ReviewDiff = {
  description: "the changes since the merge base with main (0123456789)",
  scope: "base",
  root: "/work/project",
  from: "0123456789abcdef0123456789abcdef01234567",
  to: "89abcdef0123456789abcdef0123456789abcdef",
  files: [
    changedFile("src/cache.ts", 660),
    changedFile("src/my file.ts", 660, { status: "renamed", from: "src/old file.ts" }),
    changedFile("assets/logo.png", 660, { binary: true, added: 0 }),
    changedFile("package-lock.json", 660, { generated: "lockfile" }),
  ],
};

function turn(reply: object | string, extra: Partial<TurnResult> = {}): TurnResult {
  return turnResult(typeof reply === "string" ? reply : JSON.stringify(reply), {
    conversation: "codex-aaaaaa",
    usage: { input: 1200, output: 300 },
    cost: 0.0125,
    duration: 4000,
    ...extra,
  });
}

const ANSWERS: Record<string, TurnResult> = {
  "codex#1": turn({
    verdict: "request-changes",
    summary: "The cache can return an evicted entry.",
    findings: [
      {
        severity: "blocker",
        file: "src/cache.ts",
        line: 11,
        endLine: 12,
        title: "Entry returned after eviction",
        body: "evict() frees the entry get() returns.\nA second read crashes.",
        suggestion: "return entry ? { ...entry } : undefined; // not `entry`",
      },
      {
        severity: "nit",
        file: "src/cache.ts",
        line: null,
        endLine: null,
        title: "Module lacks a header comment",
        body: "",
        suggestion: null,
      },
    ],
  }),
  "codex#2": turn({
    verdict: "comment",
    summary: "The rename is fine.",
    findings: [
      {
        severity: "minor",
        file: "./src/my file.ts",
        line: 40,
        endLine: null,
        title: "Unused <T> parameter | remove it",
        body: "",
        suggestion: null,
      },
    ],
  }),
  "gemini#1": turn(
    {
      verdict: "request-changes",
      summary: "Eviction races with reads.",
      findings: [
        {
          severity: "major",
          file: "src/cache.ts",
          line: 12,
          title: "Evicted entry is still returned",
          body: "Seen in get().",
        },
        {
          severity: "minor",
          file: "src/untouched.ts",
          line: 3,
          title: "Helper duplicates cache logic",
          body: "",
        },
      ],
    },
    { agent: "gemini", conversation: "gemini-bbbbbb", usage: { input: 800, output: 100 }, cost: null },
  ),
  "gemini#2": turn("", {
    agent: "gemini",
    conversation: "gemini-cccccc",
    status: "timeout",
    exitCode: 124,
    error: "gemini timed out after 10m",
    hint: "give it more time with --timeout",
    usage: null,
    cost: null,
  }),
};

/** The report, made by runReview with parts of one file each. */
export async function sampleReport(): Promise<ReviewReport> {
  const ask = async (request: ReviewTurnRequest) => {
    const answer = ANSWERS[`${request.reviewer}#${request.part}`];
    if (answer === undefined) throw new Error(`no answer for ${request.reviewer}#${request.part}`);
    return answer;
  };
  return runReview({ diff: SAMPLE_DIFF, reviewers: ["codex", "gemini"], ask, maxPartBytes: 800 });
}
