// A running turn's events appended to its job's events file (home/job-events.ts) as they happen, for
// `scv logs` in another terminal: the lines `scv delegate --events` prints, each with the agent, the
// conversation and the milliseconds since the turn began. Cheap on a busy turn: the lines of one
// stretch of the agent's output (a chunk holds dozens of events) go out in one write once it is read,
// and a text longer than MAX_TEXT is cut (the reply is whole in the result). A file that cannot be
// written (a full disk) is given up: only `scv logs` reads it, and the turn goes on.

import { closeSync, writeSync } from "node:fs";
import { eventLine, resultLine } from "../events.js";
import { EVENTS_FILE_BYTES, openEventsForAppend, setEventsAside } from "../home/job-events.js";
import type { Env } from "../home/paths.js";
import type { TurnEvent } from "../parsers/types.js";
import type { TurnResult } from "../result.js";

/** The longest text event kept whole, in characters. */
const MAX_TEXT = 16 * 1024;

export interface EventLog {
  /** One event of the turn, written with the rest of its stretch. */
  append(event: TurnEvent, agent: string): void;
  /** The turn's result as the last line. */
  result(result: TurnResult): void;
  /** Writes what is pending and closes the file. */
  close(): void;
}

/** The log of `job` (a turn of conversation `handle`), opened for appending; undefined when it cannot
 * be. */
export function openEventLog(
  job: string,
  handle: string,
  env: Env,
  now: () => number = Date.now,
): EventLog | undefined {
  let file: { fd: number; size: number } | undefined;
  try {
    file = openEventsForAppend(job, env);
  } catch {
    return undefined;
  }
  const started = now();
  let lines: string[] = [];
  const give = () => {
    if (file === undefined) return;
    try {
      closeSync(file.fd);
    } catch {
      // Closed already.
    }
    file = undefined;
  };
  const flush = () => {
    if (lines.length === 0 || file === undefined) return;
    const bytes = Buffer.from(lines.join(""));
    lines = [];
    try {
      writeSync(file.fd, bytes);
      file.size += bytes.length;
      if (file.size >= EVENTS_FILE_BYTES) {
        give();
        setEventsAside(job, env);
        file = openEventsForAppend(job, env);
      }
    } catch {
      give();
    }
  };
  const origin = (agent: string) => ({ agent, conversation: handle, t: now() - started });
  const push = (line: unknown) => {
    if (file === undefined) return;
    if (lines.length === 0) queueMicrotask(flush);
    lines.push(`${JSON.stringify(line)}\n`);
  };
  return {
    append(event, agent) {
      push(eventLine(cut(event), origin(agent)));
    },
    result(result) {
      // As `delegate --events` has it: the conversation only when one was recorded.
      const conversation = result.conversation ?? undefined;
      push(resultLine(result, { agent: result.agent, conversation, t: now() - started }));
    },
    close() {
      flush();
      give();
    },
  };
}

function cut(event: TurnEvent): TurnEvent {
  return event.type === "text" && event.text.length > MAX_TEXT
    ? { ...event, text: `${event.text.slice(0, MAX_TEXT)}…` }
    : event;
}
