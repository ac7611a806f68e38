// The shared frame of every JSON-lines parser: parse each line, hand valid values to the format,
// count what is not valid and keep going, and conclude the turn from what was recorded.

import { stripAnsi } from "./ansi.js";
import type { ElisionPolicy } from "./elision.js";
import type {
  FailureKind,
  ParsedTurn,
  ProcessEnd,
  QuotaWindow,
  StreamParser,
  TurnEvent,
  Usage,
} from "./event-types.js";
import { PrettyObjectAssembler } from "./pretty-object.js";
import type { ReplyLinePolicy } from "./reply-lines.js";
import { type ConcludeOptions, conclude, TurnRecord } from "./turn-record.js";

/** One output format's knowledge: what its events mean and what its reply is. */
export interface JsonLinesFormat {
  /** The normalized events of one JSON value, or null when it is not a valid event of the format.
   * Unknown event types are valid and yield no events. */
  event(value: unknown): TurnEvent[] | null;
  /** Events the format concludes only once the process has ended (Codex's `-o` backstop). */
  finishEvents?(end: ProcessEnd, record: TurnRecord): TurnEvent[];
  /** Events of one stderr line, for a CLI that says something only there (`StreamParser.stderr`). */
  stderrEvents?(line: string): TurnEvent[];
  /** The reply once the process has ended. */
  reply(end: ProcessEnd, record: TurnRecord): string;
  readonly cumulativeUsage: boolean;
  /** For a cumulative format: the usage of the model calls seen so far, for a turn that ends before
   * the CLI's own report. */
  unreportedUsage?(): Usage | undefined;
  /** The quota windows the stream reported, for formats that report them. */
  quota?(): readonly QuotaWindow[];
  readonly exitCodeKind?: (code: number) => FailureKind | undefined;
  /** Also accept one pretty-printed object spread over many lines (Gemini's `json` output). */
  readonly multiLineObjects?: boolean;
  /** The long strings `event` never reads (see `StreamParser.elision`). */
  readonly elision?: ElisionPolicy;
  /** The lines that may carry the reply (see `StreamParser.replyLines`). */
  readonly replyLines?: ReplyLinePolicy;
}

/** The JSON value of a line, or undefined when it holds none (ANSI escapes around it are ignored). */
export function parseJsonLine(line: string): unknown {
  let text = line.trim();
  let first = text.charCodeAt(0);
  // `{` or `[`: the cheap test that keeps junk lines away from JSON.parse and its exception.
  if (first !== 0x7b && first !== 0x5b) {
    text = stripAnsi(text).trim();
    first = text.charCodeAt(0);
    if (first !== 0x7b && first !== 0x5b) return undefined;
  }
  try {
    return JSON.parse(text);
  } catch {
    const cleaned = stripAnsi(text);
    if (cleaned === text) return undefined;
    try {
      return JSON.parse(cleaned);
    } catch {
      return undefined;
    }
  }
}

export function createJsonLinesParser(format: JsonLinesFormat): StreamParser {
  const record = new TurnRecord();
  const assembler = format.multiLineObjects ? new PrettyObjectAssembler() : undefined;

  function handle(text: string): TurnEvent[] {
    if (text.trim() === "") return [];
    const value = parseJsonLine(text);
    let events: TurnEvent[] | null = null;
    if (value !== undefined) {
      try {
        events = format.event(value);
      } catch {
        // A shape the schema let through but the format misread costs one line, never the turn.
        events = null;
      }
    }
    if (events === null) {
      record.badLines += 1;
      return [];
    }
    record.observe(events);
    return events;
  }

  return {
    ...(format.elision === undefined ? {} : { elision: format.elision }),
    ...(format.replyLines === undefined ? {} : { replyLines: format.replyLines }),
    push(line: string): TurnEvent[] {
      if (assembler === undefined) return handle(line);
      const assembled = assembler.push(line);
      switch (assembled.kind) {
        case "line":
          return handle(assembled.text);
        case "object":
          return handle(assembled.text);
        case "pending":
          return [];
        case "overflow":
          record.badLines += 1;
          return [];
      }
    },
    ...(format.stderrEvents === undefined
      ? {}
      : {
          stderr(line: string): TurnEvent[] {
            const events = format.stderrEvents?.(line) ?? [];
            record.observe(events);
            return events;
          },
        }),
    skipped(): void {
      record.badLines += 1;
    },
    finish(end: ProcessEnd): ParsedTurn {
      if (assembler?.unfinished) record.badLines += 1;
      if (format.finishEvents !== undefined) record.observe(format.finishEvents(end, record));
      const unreportedUsage = format.unreportedUsage?.();
      const options: ConcludeOptions = {
        reply: format.reply(end, record),
        cumulativeUsage: format.cumulativeUsage,
        ...(unreportedUsage === undefined ? {} : { unreportedUsage }),
        ...(format.exitCodeKind === undefined ? {} : { exitCodeKind: format.exitCodeKind }),
      };
      const quota = format.quota?.() ?? [];
      const parsed = conclude(record, end, options);
      return quota.length === 0 ? parsed : { ...parsed, quota };
    },
  };
}
