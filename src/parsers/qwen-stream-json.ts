// Qwen Code: `qwen -p … --output-format stream-json`. Claude's shapes, with `permission_mode` in
// snake_case, a `system/retry` notice, failures as `error_during_execution` with `error.message`.

import { createClaudeShapedParser } from "./claude-shaped.js";
import { usageOfCounts } from "./claude-wire.js";
import type { StreamParser } from "./event-types.js";

export function createQwenStreamJsonParser(): StreamParser {
  return createClaudeShapedParser({
    // The captures show `result.usage` carrying on across `--resume` (30 585 input tokens after
    // turn 1, 61 226 after turn 2, whose own calls used about 30 600).
    cumulativeUsage: true,
    usage: (result) => (result.usage === undefined ? undefined : usageOfCounts(result.usage)),
  });
}
