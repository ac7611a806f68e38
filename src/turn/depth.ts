// The guard against runaway delegation: every turn's agent gets SCV_DEPTH one deeper than its own
// scv's, and a turn below more agents than `max_depth` allows is refused.

import { ScvError } from "../errors.js";
import type { Config } from "../home/config.js";
import type { Env } from "../home/paths.js";

/** The variable carrying how many agent turns are above the turns an agent starts through scv. */
export const DEPTH_VARIABLE = "SCV_DEPTH";
const DEFAULT_MAX_DEPTH = 2;

/** How many agent turns are above a turn started from `env`. Anything but a number scv wrote counts
 * as 0: the limit guards against runaway recursion, it is not a permission. */
export function turnDepth(env: Env): number {
  const text = env[DEPTH_VARIABLE];
  return text !== undefined && /^\d{1,4}$/.test(text) ? Number(text) : 0;
}

/** Refuses a turn below more agents than `max_depth` allows (exit 2). */
export function refuseTooDeep(env: Env, config: Config): void {
  const depth = turnDepth(env);
  const max = config.max_depth ?? DEFAULT_MAX_DEPTH;
  if (depth > max) {
    throw new ScvError(
      "USAGE",
      `delegation depth ${depth} is beyond max_depth ${max} (agents started by agents through scv) — do this work yourself instead of delegating it, or raise max_depth in scv's config`,
    );
  }
}
