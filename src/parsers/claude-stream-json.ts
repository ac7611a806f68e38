// Claude Code: `claude -p --output-format stream-json --verbose`. Success is a `result` with
// `is_error:false`; auth and rate-limit failures come as `subtype:"success"` with `is_error:true`.

import { createClaudeShapedParser } from "./claude-shaped.js";
import { type ResultEvent, usageOfCounts } from "./claude-wire.js";
import type { StreamParser, Usage } from "./event-types.js";
import { addUsage } from "./usage.js";

/**
 * `modelUsage` is "the correct field for token/cost accounting" (sdk.d.ts); it and
 * `total_cost_usd` carry on from the transcript's total when a session is resumed, so they are
 * cumulative. `usage` is the main loop only and serves when `modelUsage` is absent (older builds).
 */
export function claudeResultUsage(result: ResultEvent): Usage | undefined {
  const models = Object.values(result.modelUsage ?? {});
  let usage: Usage | undefined;
  for (const model of models) usage = addUsage(usage, usageOfCounts(model));
  if (usage === undefined && result.usage !== undefined) usage = usageOfCounts(result.usage);
  if (result.total_cost_usd !== undefined) usage = { ...usage, costUsd: result.total_cost_usd };
  return usage;
}

/** A turn stopped before its result (Ctrl-C) reports nothing, but its model calls are in the session's
 * transcript, and the next turn's total counts them: the assistant messages' usage (input tokens as
 * billed; output as first counted, before the message ended) is what the stopped turn spent. */
export function createClaudeStreamJsonParser(): StreamParser {
  return createClaudeShapedParser({
    cumulativeUsage: true,
    usage: claudeResultUsage,
    sumsAssistantUsage: true,
  });
}
