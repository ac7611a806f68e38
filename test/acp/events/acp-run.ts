// Test helpers for ACP captures (test/fixtures/acp/<cli>/<case>): the agent's stdout lines of one
// prompt — from the client's `session/prompt` request to its answer, by the capture's recorded order
// of lines — fed to the ACP turn parser line by line.

import { readFileSync } from "node:fs";
import { type AcpTurnOptions, createAcpTurnParser } from "../../../src/acp/events/acp-parser.js";
import type { ParsedTurn, ProcessEnd, TurnEvent } from "../../../src/parsers/event-types.js";
import { FIXTURES } from "../../parsers/run.js";

interface Capture {
  readonly order: readonly (readonly ["in" | "out", number, string])[];
}

export interface PromptWindow {
  /** The agent's stdout lines while the prompt ran, its answer last. */
  readonly lines: string[];
  readonly sessionId: string;
  readonly promptId: number;
}

function read(cli: string, name: string, ext: string): string {
  return readFileSync(`${FIXTURES}acp/${cli}/${name}.${ext}`, "utf8");
}

/** The `nth` prompt (0-based) of a capture. */
export function promptWindow(cli: string, name: string, nth = 0): PromptWindow {
  const capture = JSON.parse(read(cli, name, "json")) as Capture;
  const sent = read(cli, name, "stdin")
    .split("\n")
    .filter((line) => line !== "");
  const received = read(cli, name, "stdout")
    .split("\n")
    .filter((line) => line !== "");
  const prompts = sent
    .map((line) => JSON.parse(line) as { id: number; method: string; params: { sessionId: string } })
    .filter((message) => message.method === "session/prompt");
  const prompt = prompts[nth];
  if (prompt === undefined) throw new Error(`${cli}/${name} has no prompt ${nth}`);
  const lines: string[] = [];
  let outIndex = 0;
  let inIndex = 0;
  let open = false;
  for (const [dir, , summary] of capture.order) {
    if (dir === "in") {
      const message = JSON.parse(sent[inIndex] ?? "{}") as { id?: number; method?: string };
      if (message.method === "session/prompt" && message.id === prompt.id) open = true;
      inIndex += 1;
      continue;
    }
    const line = received[outIndex];
    outIndex += 1;
    if (!open || line === undefined) continue;
    lines.push(line);
    // The answer: a response (no method) with the prompt's id.
    if (summary === `#${prompt.id}`) break;
  }
  return { lines, sessionId: prompt.params.sessionId, promptId: prompt.id };
}

export const ANSWERED: ProcessEnd = { exitCode: 0, signal: null, stderrTail: "" };

export interface AcpRun {
  readonly turn: ParsedTurn;
  readonly events: TurnEvent[];
}

/** One prompt of a capture through the parser, its lines as given (default: the capture's own). */
export function runPrompt(
  window: PromptWindow,
  options: Partial<AcpTurnOptions> = {},
  end: ProcessEnd = ANSWERED,
  lines: readonly string[] = window.lines,
): AcpRun {
  const parser = createAcpTurnParser({ sessionId: window.sessionId, promptId: window.promptId, ...options });
  const events = lines.flatMap((line) => parser.push(line));
  return { turn: parser.finish(end), events };
}
