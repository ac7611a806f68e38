// The outcome of one turn, as `scv delegate --json` prints it. The schema is the contract: callers
// (agents driving scv, fan-out, background turns) parse it back with `turnResultSchema`.

import * as z from "zod/mini";
import { lazy } from "./lazy.js";
import { notTextCount, wellFormed } from "./text-bytes.js";

export const usageSchema = lazy(() =>
  z.object({
    input: z.optional(z.number()),
    /** Input tokens served from cache. */
    cached: z.optional(z.number()),
    /** Input tokens written to cache. */
    cacheWrite: z.optional(z.number()),
    output: z.optional(z.number()),
    reasoning: z.optional(z.number()),
    /** Dollars, where the CLI reports a cost. */
    costUsd: z.optional(z.number()),
  }),
);

/** An account a turn with several passed over, and why. */
const skippedAccountSchema = lazy(() =>
  z.object({
    account: z.string(),
    /** `cooling`: limited earlier, not tried; `rate-limited`: tried, limited now; `signed-out`: its
     * sign-in is missing or was refused (exit 4). */
    reason: z.enum(["cooling", "rate-limited", "signed-out"]),
    /** When a limited account may be tried again (UTC ISO 8601). */
    until: z.optional(z.string()),
    /** The failure's own line. */
    error: z.optional(z.string()),
  }),
);

/** What a turn changed in its worktree, or what a branch holds against its base: files, lines added
 * and removed, per file too (`null` lines for a binary file; `from` for a rename). */
const diffstatSchema = lazy(() =>
  z.object({
    files: z.int().check(z.nonnegative()),
    added: z.int().check(z.nonnegative()),
    removed: z.int().check(z.nonnegative()),
    paths: z.array(
      z.object({
        path: z.string(),
        from: z.optional(z.string()),
        added: z.nullable(z.int().check(z.nonnegative())),
        removed: z.nullable(z.int().check(z.nonnegative())),
      }),
    ),
  }),
);

/** A `--check` command's outcome: `pass` (exit 0), `fail` (another exit, a signal, or it could not
 * start) or `timeout` (ended at `--check-timeout`); its exit code, milliseconds and last lines. */
export const checkOutcomeSchema = lazy(() =>
  z.object({
    command: z.string(),
    status: z.enum(["pass", "fail", "timeout"]),
    exitCode: z.nullable(z.int()),
    duration: z.int().check(z.nonnegative()),
    tail: z.array(z.string()),
  }),
);

export const turnStatusSchema = lazy(() =>
  z.enum(["completed", "failed", "declined", "timeout", "cancelled"]),
);

export const turnResultSchema = lazy(() =>
  z.object({
    /** The agent's final reply; empty when it gave none. */
    reply: z.string(),
    status: turnStatusSchema(),
    /** The agent's name, as its row has it. */
    agent: z.string(),
    /** scv's conversation handle (`<agent>-k3f9x2`); null when no conversation was recorded. */
    conversation: z.nullable(z.string()),
    /** The CLI's own session id, where it has one. */
    session: z.nullable(z.string()),
    /** This turn's tokens (a share, also for CLIs that report running totals). */
    usage: z.nullable(usageSchema()),
    /** This turn's cost in dollars, where the CLI reports one. */
    cost: z.nullable(z.number()),
    /** Wall-clock milliseconds of the turn. */
    duration: z.int().check(z.nonnegative()),
    /** scv's exit code for this turn (0 ok, 1 agent failed, 2 usage, 3 not installed, 4 auth,
     * 5 rate limited, 124 timeout, 130 interrupted, 141 stdout closed, 143 terminated). */
    exitCode: z.int(),
    /** What went wrong, one line; null on success. */
    error: z.nullable(z.string()),
    /** What to do about it, one line; null when there is nothing to do. */
    hint: z.nullable(z.string()),
    /** Other agents to try instead after a failure (exit 1, 3, 4, 5, 124): installed, and signed in
     * as far as scv can tell without running them — checked sign-ins first. Empty otherwise. */
    fallbacks: z.array(z.string()),
    /** Where scv used a weaker source than the usual one (a reply read from the CLI's last-message
     * file, a session id it could not accept), one line each. */
    notes: z.array(z.string()),
    /** The permission mode the agent reported for this turn and scv checked against the policy
     * (its row's `modeReport`: a permission mode, a sandbox policy); null where it reports none. */
    mode: z.nullable(z.string()),
    /** stdout lines the parser could not read (garbage, truncated, oversized). */
    badLines: z.int().check(z.nonnegative()),
    /** The account that ran the turn, when its target named accounts (`default`: the plain home). */
    account: z.optional(z.string()),
    /** With accounts: those passed over, in order, and why. */
    skipped: z.optional(z.array(skippedAccountSchema())),
    /** For a rate-limited turn (exit 5): when the limit resets, as the CLI said it, or for a turn
     * whose accounts were all limited the earliest of their resets (UTC ISO 8601). */
    resetsAt: z.optional(z.string()),
    /** A reviewed delegation's rounds, or a background review's report (src/review/rounds.ts reads it
     * with the review's own schema); absent for any other turn. */
    review: z.optional(z.record(z.string(), z.unknown())),
    /** A turn in a worktree (`--worktree`): its folder, its branch (`scv/<handle>`), the commit scv
     * made of what the turn changed there (null when it changed nothing), and what that was. */
    worktree: z.optional(z.string()),
    branch: z.optional(z.string()),
    commit: z.optional(z.nullable(z.string())),
    diffstat: z.optional(diffstatSchema()),
    /** The `--check` run in the worktree after the turn; absent when none ran. */
    check: z.optional(checkOutcomeSchema()),
    /** In JSON: how many characters of the reply were no text (bytes that are not UTF-8), each
     * U+FFFD in `reply`; absent when none. */
    replacedChars: z.optional(z.int().check(z.nonnegative())),
  }),
);

export type TurnResult = z.infer<ReturnType<typeof turnResultSchema>>;
export type SkippedAccount = z.infer<ReturnType<typeof skippedAccountSchema>>;
export type TurnUsage = z.infer<ReturnType<typeof usageSchema>>;
export type Diffstat = z.infer<ReturnType<typeof diffstatSchema>>;
export type CheckOutcome = z.infer<ReturnType<typeof checkOutcomeSchema>>;

/** The result as JSON carries it (`--json`, `--events`, an MCP tool result): JSON holds text, so a
 * reply's bytes that are not UTF-8 are U+FFFD there, counted in `replacedChars` and said in a note. */
export function resultForJson(result: TurnResult): TurnResult {
  const count = notTextCount(result.reply);
  if (count === 0) return result;
  return {
    ...result,
    reply: wellFormed(result.reply),
    replacedChars: count,
    notes: [...result.notes, replacedNote(count, "each is U+FFFD in this JSON")],
  };
}

/** `the reply has 3 bytes that are not UTF-8: <where they went>`. */
export function replacedNote(count: number, where: string): string {
  return `the reply has ${count} ${count === 1 ? "byte" : "bytes"} that ${count === 1 ? "is" : "are"} not UTF-8: ${where}; printed without --json into a pipe or a file, the reply carries them as the agent wrote them`;
}
