// Test helpers: feed bytes through the real framer into a parser, and replay captured fixtures.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { OutputFormatKind } from "../../src/adapters.js";
import type { ElisionLimits } from "../../src/parsers/elision.js";
import type { ParsedTurn, ProcessEnd, StreamParser, TurnEvent } from "../../src/parsers/event-types.js";
import { loadParser, OUTPUT_FORMAT_KINDS, type ParserFactory } from "../../src/parsers/index.js";
import { createLineFramer } from "../../src/transport/framing.js";

export interface Run {
  readonly turn: ParsedTurn;
  readonly events: TurnEvent[];
  /** The characters of the lines the parser was handed (after any elision). */
  readonly parsedChars: number;
}

/** Every format's parser, loaded once, so that the helpers below run synchronously. */
const FACTORIES = new Map<OutputFormatKind, ParserFactory>(
  await Promise.all(OUTPUT_FORMAT_KINDS.map(async (kind) => [kind, await loadParser(kind)] as const)),
);

/** A fresh parser of `format`. */
export function createParser(format: OutputFormatKind): StreamParser {
  const factory = FACTORIES.get(format);
  if (factory === undefined) throw new Error(`no parser for ${format}`);
  return factory();
}

export const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));

export function endWith(overrides: Partial<ProcessEnd> = {}): ProcessEnd {
  return { exitCode: 0, signal: null, stderrTail: "", ...overrides };
}

export interface FeedOptions {
  readonly maxLineBytes?: number;
  /** `false`: the framer cuts nothing, whatever the parser would allow. */
  readonly elision?: false | { readonly limits?: Partial<ElisionLimits> };
}

/** Runs `chunks` through the line framer into `parser`, as a turn wires them, and finishes it with
 * `end`. */
export function feed(
  parser: StreamParser,
  chunks: readonly (string | Buffer)[],
  end: ProcessEnd,
  options: FeedOptions = {},
): Run {
  const events: TurnEvent[] = [];
  let parsedChars = 0;
  const framer = createLineFramer({
    maxLineBytes: options.maxLineBytes,
    replyLines: parser.replyLines,
    elision: options.elision === false ? undefined : parser.elision,
    elisionLimits: options.elision === false ? undefined : options.elision?.limits,
    onLine: (line) => {
      parsedChars += line.length;
      events.push(...parser.push(line));
    },
    onOversized: () => parser.skipped(),
  });
  for (const chunk of chunks) framer.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk);
  framer.end();
  return { turn: parser.finish(end), events, parsedChars };
}

export function parse(format: OutputFormatKind, stdout: string | Buffer, end: Partial<ProcessEnd> = {}): Run {
  return feed(createParser(format), [stdout], endWith(end));
}

/** The lines of a JSON-lines text, for building streams from parts. */
export function jsonLines(...values: readonly unknown[]): string {
  return values.map((value) => `${JSON.stringify(value)}\n`).join("");
}

interface CaptureMeta {
  exit_code: number | null;
  signal: string | null;
  timed_out?: boolean;
}

function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** The ProcessEnd the runner would have seen for a capture (a lab timeout is scv's timeout). */
export function fixtureEnd(cli: string, name: string): ProcessEnd {
  const base = `${FIXTURES}${cli}/${name}`;
  const meta = JSON.parse(readFileSync(`${base}.json`, "utf8")) as CaptureMeta;
  const lastMessage = readOptional(`${base}.last-message.txt`);
  return {
    exitCode: meta.timed_out ? null : meta.exit_code,
    signal: meta.timed_out ? "SIGTERM" : meta.signal,
    stderrTail: readOptional(`${base}.stderr`) ?? "",
    ...(meta.timed_out ? { termination: "timeout" as const } : {}),
    ...(lastMessage === undefined ? {} : { lastMessage }),
  };
}

export function fixtureStdout(cli: string, name: string): Buffer {
  return readFileSync(`${FIXTURES}${cli}/${name}.stdout`);
}

/** Replays a capture in 4 KiB chunks, as a pipe would deliver it. */
export function runFixture(
  format: OutputFormatKind,
  cli: string,
  name: string,
  elision?: FeedOptions["elision"],
): Run {
  const stdout = fixtureStdout(cli, name);
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < stdout.length; offset += 4096)
    chunks.push(stdout.subarray(offset, offset + 4096));
  return feed(createParser(format), chunks, fixtureEnd(cli, name), elision === undefined ? {} : { elision });
}

/** The events of a stderr text, line by line through the framer, as a turn wires a parser's `stderr`. */
export function stderrEvents(parser: StreamParser, stderr: string): TurnEvent[] {
  const events: TurnEvent[] = [];
  const read = parser.stderr?.bind(parser);
  if (read === undefined) return events;
  const framer = createLineFramer({ onLine: (line) => events.push(...read(line)), onOversized: () => {} });
  framer.push(Buffer.from(stderr, "utf8"));
  framer.end();
  return events;
}

export function fixtureStderr(cli: string, name: string): string {
  return readFileSync(`${FIXTURES}${cli}/${name}.stderr`, "utf8");
}
