// A running turn's events appended to its job's events file (home/job-events.ts) as they happen, for
// `scv logs` in another terminal: the lines `scv delegate --events` prints, each with the agent, the
// conversation and the milliseconds since the turn began. Cheap on a busy turn: the lines of one
// stretch of the agent's output (a chunk holds dozens of events) go out in one write once it is read;
// a text longer than MAX_TEXT is cut (the reply is whole in the result); and past KEPT_PER_SECOND
// events a second, tool calls, texts and usage reports are counted rather than written (one `dropped`
// line says how many), as the progress line counts what it leaves out — making and writing each of
// 50,000 tool calls' lines doubled what a busy turn cost. Every other event is always written, and so
// is the end of every tool whose start was. A file that cannot be written (a full disk) is given up:
// only `scv logs` reads it, and the turn goes on.

import { closeSync, writeSync } from "node:fs";
import { type DroppedLine, eventLine, resultLine } from "../events.js";
import { EVENTS_FILE_BYTES, openEventsForAppend, setEventsAside } from "../home/job-events.js";
import type { Env } from "../home/paths.js";
import type { TurnEvent } from "../parsers/event-types.js";
import { RateGate } from "../rate-gate.js";
import type { TurnResult } from "../result.js";

/** The longest text event kept whole, in characters. */
const MAX_TEXT = 16 * 1024;
/** What the file keeps of a busy stretch: this many events a second, and this many at once. */
const KEPT_PER_SECOND = 100;
const KEPT_BURST = 300;

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
  { now = Date.now, fileBytes = EVENTS_FILE_BYTES }: { now?: () => number; fileBytes?: number } = {},
): EventLog | undefined {
  let file: { fd: number; size: number } | undefined;
  try {
    file = openEventsForAppend(job, env);
  } catch {
    return undefined;
  }
  const started = now();
  const gate = new RateGate(KEPT_PER_SECOND, KEPT_BURST, now);
  /** Tools whose start was written: their end is too. */
  const shown = new Set<string>();
  /** Events counted since the last line written, and where the last of them was. */
  let dropped = 0;
  let droppedAgent = "";
  let droppedAt = 0;
  let lines: string[] = [];
  /** The count of what was left out, where it was: before the next line. */
  const putDropped = () => {
    if (dropped === 0) return;
    const line: DroppedLine = {
      type: "dropped",
      count: dropped,
      agent: droppedAgent,
      conversation: handle,
      t: droppedAt - started,
    };
    lines.push(`${JSON.stringify(line)}\n`);
    dropped = 0;
  };
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
      if (file.size >= fileBytes) {
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
    if (lines.length === 0) queueMicrotask(flush);
    putDropped();
    lines.push(`${JSON.stringify(line)}\n`);
  };
  const kept = (event: TurnEvent): boolean => {
    switch (event.type) {
      case "tool-start":
        if (!gate.take()) return false;
        shown.add(event.id);
        return true;
      case "tool-end":
        return shown.delete(event.id);
      case "text":
      case "usage":
        return gate.take();
      default:
        return true;
    }
  };
  return {
    append(event, agent) {
      if (file === undefined) return;
      if (kept(event)) push(eventLine(cut(event), origin(agent)));
      else {
        // Said before the next line written, or at the end: a burst's count costs no write of its own.
        dropped += 1;
        droppedAgent = agent;
        droppedAt = now();
      }
    },
    result(result) {
      if (file === undefined) return;
      // As `delegate --events` has it: the conversation only when one was recorded.
      const conversation = result.conversation ?? undefined;
      push(resultLine(result, { agent: result.agent, conversation, t: now() - started }));
    },
    close() {
      putDropped();
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
