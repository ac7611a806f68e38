// What a running turn shows: its normalized events as NDJSON on stdout (`--events`) and its
// progress on stderr (unless `--quiet`), both fed from the turn's event callback. The reply or the
// `--json` object is printed by the command once the turn is over; with `--events` the result is
// the stream's last line instead.

import { type EventOrigin, eventLine, resultLine } from "../events.js";
import type { CliIo } from "../io.js";
import type { TurnEvent } from "../parsers/event-types.js";
import type { TurnResult } from "../result.js";
import type { TurnPlan } from "../turn/turn-types.js";
import { createProgress, type Progress } from "./progress.js";
import { jsonLine } from "./terminal-text.js";

export interface TurnOutputOptions {
  readonly events?: boolean;
  readonly quiet?: boolean;
}

export interface TurnOutput {
  /** The turn context's `onEvent`. */
  readonly onEvent: (event: TurnEvent, turn: TurnPlan) => void;
  /** Ends the progress display and, with `--events`, prints the result line. Call it before
   * anything else is printed about the turn. */
  finish(result: TurnResult): void;
  /** The progress line gives the terminal's last line up until the returned function is called
   * (`Progress.hold`). */
  hold(): () => void;
}

/** `label` names the turn until its first event names the agent (the agent written on the command
 * line, or the conversation handle being continued). */
export function turnOutput(io: CliIo, options: TurnOutputOptions, label: string, now = Date.now): TurnOutput {
  const started = now();
  const progress: Progress | undefined = options.quiet
    ? undefined
    : createProgress({ stream: io.stderr, label, now });
  const origin = (agent: string, conversation: string | undefined): EventOrigin => ({
    agent,
    conversation,
    t: now() - started,
  });
  // The event lines of one stretch of work (a chunk of the agent's output holds dozens) go out as
  // one write once it is done: a write per line was most of what --events cost on a busy turn. No
  // later than a line each would have: the flush runs before anything else does.
  let lines: string[] = [];
  const flush = () => {
    if (lines.length === 0) return;
    const text = lines.join("");
    lines = [];
    io.stdout.write(text);
  };
  return {
    onEvent(event, turn) {
      if (options.events) {
        if (lines.length === 0) queueMicrotask(flush);
        lines.push(`${jsonLine(eventLine(event, origin(turn.entry.name, turn.handle)))}\n`);
      }
      progress?.event(event, turn.entry.name);
    },
    hold() {
      return progress?.hold() ?? (() => {});
    },
    finish(result) {
      progress?.done(result);
      if (options.events) {
        flush();
        // As --json prints it (resultLine: U+FFFD for bytes that are not UTF-8, every field there).
        const line = resultLine(result, origin(result.agent, result.conversation ?? undefined));
        io.stdout.write(`${jsonLine(line)}\n`);
      }
    },
  };
}
