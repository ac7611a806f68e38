// Text: stdout is the reply. The turn succeeds with exit 0 and nothing else; a failure is read
// from stderr, never from stdout (which is the model's prose).

import { BoundedText } from "./bounded-text.js";
import type { ParsedTurn, ProcessEnd, StreamParser, TurnEvent } from "./event-types.js";
import { everyLine } from "./reply-lines.js";
import { conclude, TurnRecord } from "./turn-record.js";

export function createTextParser(): StreamParser {
  const reply = new BoundedText();
  const record = new TurnRecord();
  return {
    replyLines: everyLine,
    push(line: string): TurnEvent[] {
      reply.append(`${line}\n`);
      return [{ type: "text", text: `${line}\n`, delta: true }];
    },
    skipped() {
      record.badLines += 1;
    },
    finish(end: ProcessEnd): ParsedTurn {
      if (end.exitCode === 0) record.observe([{ type: "turn-end", ok: true }]);
      return conclude(record, end, {
        reply: reply.toString().trim(),
        cumulativeUsage: false,
        hasTerminalEvent: false,
      });
    },
  };
}
