// An ACP agent's permission request under `--policy default`, asked on the terminal: one line (the
// agent, the tool, what it would do), answered by one key — o allow once, a allow always (where the
// agent offers it), r or Enter reject. A key typed before the question was on screen (typeahead)
// never answers it: keys arriving within TYPEAHEAD_MS of the question are dropped. Ctrl-C rejects
// and interrupts scv as it would anywhere else. Questions are asked one at a time. While one waits
// the turn's live progress line is held (erased, not redrawn), so the question stays on the screen;
// the answer is echoed on a line of its own, after which the progress line comes back below it.

import type { Writable } from "node:stream";
import type { CliIo } from "../io.js";
import type { PermissionAnswer, PermissionQuestion } from "../turn/turn-types.js";
import { isRawTerminal, type RawTerminal } from "./secret-input.js";
import { visibleLine } from "./terminal-text.js";

/** Keys arriving this soon after the question was written were typed before it was seen. */
export const TYPEAHEAD_MS = 150;
const MAX_SUMMARY_CHARS = 300;

/** A terminal question per permission request, or undefined where stdin or stderr is no terminal.
 * `hold` takes the terminal's last line from the turn's progress while a question waits
 * (`TurnOutput.hold`); it returns the release. */
export function terminalPermission(
  io: CliIo,
  hold: () => () => void = () => () => {},
): ((question: PermissionQuestion, signal?: AbortSignal) => Promise<PermissionAnswer>) | undefined {
  // stderr first: reading io.stdin creates Node's stream on it, which off a terminal no turn needs.
  if (io.stderr.isTTY !== true) return undefined;
  const input = io.stdin;
  if (!isRawTerminal(input)) return undefined;
  let queue: Promise<unknown> = Promise.resolve();
  return (question, signal) => {
    const asked = queue.then(async () => {
      const release = hold();
      try {
        return await askOnTerminal(input, io.stderr, question, signal);
      } finally {
        release();
      }
    });
    queue = asked.catch(() => {});
    return asked;
  };
}

/** The question's line, as shown. */
export function questionLine(question: PermissionQuestion): string {
  const summary =
    question.summary.length > MAX_SUMMARY_CHARS
      ? `${question.summary.slice(0, MAX_SUMMARY_CHARS - 1)}…`
      : question.summary;
  const what = summary === "" ? question.tool : `${question.tool}: ${summary}`;
  const choices = question.offers.always ? "[o]nce, [a]lways, [r]eject" : "[o]nce, [r]eject";
  return `scv: ${question.agent} asks to run ${visibleLine(what)} — allow ${choices}? `;
}

export function askOnTerminal(
  input: RawTerminal,
  output: Writable,
  question: PermissionQuestion,
  signal?: AbortSignal,
): Promise<PermissionAnswer> {
  if (signal?.aborted) return Promise.resolve("unanswered");
  input.setRawMode(true);
  // At the start of the line: stderr's lines end with a newline, and the progress line is erased.
  output.write(questionLine(question));
  const shownAt = Date.now();
  return new Promise((resolve) => {
    const finish = (answer: PermissionAnswer, word: string) => {
      input.off("data", onData);
      signal?.removeEventListener("abort", onAbort);
      input.setRawMode(false);
      input.pause();
      // The keys are not echoed (raw mode): the answer is said on a line of its own.
      output.write(`\nscv: ${word}\n`);
      resolve(answer);
    };
    const onData = (chunk: Buffer | string) => {
      if (Date.now() - shownAt < TYPEAHEAD_MS) return;
      const key = (typeof chunk === "string" ? chunk : chunk.toString("utf8")).toLowerCase();
      if (key === "o" || key === "y") finish("once", "allowed once");
      else if (key === "a" && question.offers.always) finish("always", "allowed always");
      else if (key === "r" || key === "n" || key === "\r" || key === "\n" || key === "\u001b")
        finish("reject", "rejected");
      else if (key === "\u0003") {
        finish("reject", "rejected");
        process.kill(process.pid, "SIGINT");
      }
    };
    // The turn ended (Ctrl-C, its time limit, scv kill) while the question waited.
    const onAbort = () => finish("unanswered", "unanswered: the turn ended");
    signal?.addEventListener("abort", onAbort, { once: true });
    input.on("data", onData);
    input.resume();
  });
}
