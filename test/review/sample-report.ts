// A review report for the renderers' tests, made the way scv makes one (runReview over scripted
// reviewer turns): two reviewers agreeing on a blocker, a finding outside the diff, one in a file the
// diff does not change, a whole-file finding, a suggestion holding backticks, a reviewer that failed
// its second part, and files left out.

import type { TurnResult } from "../../src/result.js";
import type { DiffFile, ReviewDiff } from "../../src/review/diff.js";
import type { ReviewReport } from "../../src/review/report.js";
import { type ReviewTurnRequest, runReview } from "../../src/review/run.js";

function changed(path: string, extra: Partial<DiffFile> = {}): DiffFile {
  const patch = `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n@@ -10,3 +10,4 @@\n${"+x\n".repeat(200)}`;
  return {
    path,
    status: "modified",
    added: 1,
    removed: 0,
    binary: false,
    lines: [{ start: 10, end: 13 }],
    patch,
    ...extra,
  };
}

export const SAMPLE_DIFF: ReviewDiff = {
  description: "the changes since the merge base with main (0123456789)",
  scope: "base",
  root: "/work/project",
  from: "0123456789abcdef0123456789abcdef01234567",
  to: "89abcdef0123456789abcdef0123456789abcdef",
  files: [
    changed("src/cache.ts"),
    changed("src/my file.ts", { status: "renamed", from: "src/old file.ts" }),
    changed("assets/logo.png", { binary: true, added: 0 }),
    changed("package-lock.json", { generated: "lockfile" }),
  ],
};

function turn(reply: object | string, extra: Partial<TurnResult> = {}): TurnResult {
  return {
    reply: typeof reply === "string" ? reply : JSON.stringify(reply),
    status: "completed",
    agent: "codex",
    conversation: "codex-aaaaaa",
    session: null,
    usage: { input: 1200, output: 300 },
    cost: 0.0125,
    duration: 4000,
    exitCode: 0,
    error: null,
    hint: null,
    fallbacks: [],
    notes: [],
    mode: null,
    badLines: 0,
    ...extra,
  };
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
