// Amp: `amp -x "prompt" --stream-json`. Claude's shapes (`@sourcegraph/amp-sdk` types.d.ts); the
// error text of a failed result is in `error`; usage is on the assistant messages, optional on `result`.

import { createClaudeShapedParser } from "./claude-shaped.js";
import { usageOfCounts } from "./claude-wire.js";
import type { StreamParser } from "./types.js";

export function createAmpStreamJsonParser(): StreamParser {
  return createClaudeShapedParser({
    cumulativeUsage: false,
    sumsAssistantUsage: true,
    usage: (result, assistantUsage) =>
      result.usage === undefined ? assistantUsage : usageOfCounts(result.usage),
  });
}
