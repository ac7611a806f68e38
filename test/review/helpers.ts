// What the review tests build their inputs from: a changed file of a given patch size, and a
// reviewer turn's result as `delegate --json` gives it.

import type { TurnResult } from "../../src/result.js";
import type { DiffFile } from "../../src/review/diff.js";

/** A modified file whose patch is `length` characters, its hunk showing lines 10 to 13. */
export function changedFile(path: string, length = 200, extra: Partial<DiffFile> = {}): DiffFile {
  const head = `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n@@ -10,3 +10,4 @@\n`;
  return {
    path,
    status: "modified",
    added: 1,
    removed: 0,
    binary: false,
    lines: [{ start: 10, end: 13 }],
    patch: head + "+".repeat(Math.max(1, length - head.length)),
    ...extra,
  };
}

/** A completed turn that replied `reply`. */
export function turnResult(reply: string, extra: Partial<TurnResult> = {}): TurnResult {
  return {
    reply,
    status: "completed",
    agent: "codex",
    conversation: "codex-abc123",
    session: null,
    usage: { input: 100, output: 20 },
    cost: 0.01,
    duration: 1000,
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
