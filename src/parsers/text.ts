// Text: stdout is the reply. The turn succeeds with exit 0 and nothing else.

import { endStatus } from "./end.js";
import type { ParsedTurn, ProcessEnd, StreamParser, TurnEvent } from "./types.js";

export function createTextParser(): StreamParser {
  const lines: string[] = [];
  let skipped = 0;
  return {
    push(line: string): TurnEvent[] {
      lines.push(line);
      return [{ type: "text", text: `${line}\n`, delta: true }];
    },
    skipped() {
      skipped += 1;
    },
    finish(end: ProcessEnd): ParsedTurn {
      const reply = lines.join("\n").trim();
      const status = endStatus(end, end.exitCode === 0);
      return {
        status,
        reply,
        cumulativeUsage: false,
        badLines: skipped,
        failure:
          status === "failed"
            ? {
                kind: "other",
                message: lastLine(end.stderrTail) || `exited with code ${end.exitCode ?? end.signal}`,
              }
            : undefined,
      };
    },
  };
}

function lastLine(text: string): string {
  return text.trim().split("\n").at(-1)?.trim() ?? "";
}
