// The verdicts: one reviewer's, from its parts' replies, and the review's, from every reviewer and
// the merged findings; and the exit code a review ends with, so `scv review` can gate a CI job.
//
// - A reviewer (or the review) requests changes when any of its verdicts does, or any finding is a
//   blocker, whatever the verdicts say.
// - Otherwise it approves only when every verdict approves and nothing failed: a part a reviewer
//   never read, or a reviewer that gave no valid reply, is not an approval.
// - Otherwise it comments; with no verdict at all (every reviewer failed) there is none (null).
//
// Exit codes: 1 when changes are requested; else a failure's own code (the first reviewer's that
// failed: 3 not installed, 4 signed out, 5 rate limited, 124 timed out, 1 for a reply never valid),
// so a review that did not happen never passes a gate; else 0.
//
// API: `combineVerdicts(verdicts, findings, complete)`, `reviewExitCode(verdict, failures)`. Pure.

import { EXIT } from "../errors.js";
import type { Severity, Verdict } from "./schema.js";

/** The verdict of several verdicts and their findings; `complete` is false when a part or a
 * reviewer gave none. Null when there is no verdict to combine. Pure. */
export function combineVerdicts(
  verdicts: readonly Verdict[],
  findings: readonly { readonly severity: Severity }[],
  complete: boolean,
): Verdict | null {
  if (verdicts.includes("request-changes") || findings.some((finding) => finding.severity === "blocker")) {
    return "request-changes";
  }
  if (verdicts.length === 0) return null;
  return complete && verdicts.every((verdict) => verdict === "approve") ? "approve" : "comment";
}

/** The exit code of a review whose verdict is `verdict`, given the exit codes of what failed, in
 * order. Pure. */
export function reviewExitCode(verdict: Verdict | null, failures: readonly number[]): number {
  if (verdict === "request-changes") return EXIT.agentFailed;
  const failed = failures[0];
  if (failed !== undefined) return failed === EXIT.ok ? EXIT.agentFailed : failed;
  return verdict === null ? EXIT.agentFailed : EXIT.ok;
}
