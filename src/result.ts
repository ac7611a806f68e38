// The outcome of one turn, as `scv delegate --json` prints it. The schema is the contract: callers
// (agents driving scv, fan-out, background turns) parse it back with `turnResultSchema`.

import * as z from "zod";

export const usageSchema = z.object({
  input: z.number().optional(),
  /** Input tokens served from cache. */
  cached: z.number().optional(),
  /** Input tokens written to cache. */
  cacheWrite: z.number().optional(),
  output: z.number().optional(),
  reasoning: z.number().optional(),
  /** Dollars, where the CLI reports a cost. */
  costUsd: z.number().optional(),
});

export const turnStatusSchema = z.enum(["completed", "failed", "declined", "timeout", "cancelled"]);

export const turnResultSchema = z.object({
  /** The agent's final reply; empty when it gave none. */
  reply: z.string(),
  status: turnStatusSchema,
  /** The agent's name (`codex`). */
  agent: z.string(),
  /** scv's conversation handle (`codex-k3f9x2`); null when no conversation was recorded. */
  conversation: z.string().nullable(),
  /** The CLI's own session id, where it has one. */
  session: z.string().nullable(),
  /** This turn's tokens (a share, also for CLIs that report running totals). */
  usage: usageSchema.nullable(),
  /** This turn's cost in dollars, where the CLI reports one. */
  cost: z.number().nullable(),
  /** Wall-clock milliseconds of the turn. */
  duration: z.number().int().nonnegative(),
  /** scv's exit code for this turn (0 ok, 1 agent failed, 2 usage, 3 not installed, 4 auth,
   * 5 rate limited, 124 timeout, 130 interrupted, 143 terminated). */
  exitCode: z.number().int(),
  /** What went wrong, one line; null on success. */
  error: z.string().nullable(),
  /** What to do about it, one line; null when there is nothing to do. */
  hint: z.string().nullable(),
  /** Other agents to try instead after a failure (exit 1, 3, 4, 5, 124): installed, and signed in
   * as far as scv can tell without running them — checked sign-ins first. Empty otherwise. */
  fallbacks: z.array(z.string()),
  /** Where scv used a weaker source than the usual one (a reply read from the CLI's last-message
   * file, a session id it could not accept), one line each. */
  notes: z.array(z.string()),
  /** The permission mode the agent reported for this turn and scv checked against the policy
   * (Claude Code's `permissionMode`, Codex's sandbox policy); null where it reports none. */
  mode: z.string().nullable(),
  /** stdout lines the parser could not read (garbage, truncated, oversized). */
  badLines: z.number().int().nonnegative(),
});

export type TurnResult = z.infer<typeof turnResultSchema>;
export type TurnUsage = z.infer<typeof usageSchema>;
