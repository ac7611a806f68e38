// Amp: `amp -x "prompt" --stream-json`. Claude's shapes (`@sourcegraph/amp-sdk` types.d.ts); the
// error text of a failed result is in `error`; usage is on the assistant messages, optional on `result`.
// Signed out, amp prints a plain-text login prompt on stdout instead (test/fixtures/amp/signed-out)
// and waits for a pasted code forever: its first line is a terminal auth failure, and the prompt's
// other lines (a login URL with a one-time token) are neither bad lines nor ever repeated.

import { stripAnsi } from "./ansi.js";
import { createClaudeShapedParser } from "./claude-shaped.js";
import { usageOfCounts } from "./claude-wire.js";
import { failedTurn } from "./event-builders.js";
import type { ParsedTurn, ProcessEnd, StreamParser, TurnEvent, TurnFailure } from "./event-types.js";

/** The first line of amp's login prompt (amp 0.0.1790142911-g7618fb). */
const LOGIN_PROMPT = "No API key found. Starting login flow";
const SIGNED_OUT: TurnFailure = { kind: "auth", message: "not signed in (it started its browser login)" };
const OPEN_BRACE = 0x7b;

export function createAmpStreamJsonParser(): StreamParser {
  const stream = createClaudeShapedParser({
    cumulativeUsage: false,
    sumsAssistantUsage: true,
    usage: (result, assistantUsage) =>
      result.usage === undefined ? assistantUsage : usageOfCounts(result.usage),
  });
  let loginPrompt = false;
  return {
    ...(stream.elision === undefined ? {} : { elision: stream.elision }),
    ...(stream.replyLines === undefined ? {} : { replyLines: stream.replyLines }),
    push(line: string): TurnEvent[] {
      // Only plain-text lines are looked at: JSON (even an assistant's text quoting the prompt) is amp's stream.
      if (line.charCodeAt(0) !== OPEN_BRACE) {
        if (loginPrompt) return [];
        if (stripAnsi(line).trimStart().startsWith(LOGIN_PROMPT)) {
          loginPrompt = true;
          return failedTurn(SIGNED_OUT.message, SIGNED_OUT.kind);
        }
      }
      return stream.push(line);
    },
    skipped(): void {
      stream.skipped();
    },
    finish(end: ProcessEnd): ParsedTurn {
      const turn = stream.finish(end);
      // However the process ended (scv stops it at the prompt), the turn failed signed out.
      return loginPrompt ? { ...turn, status: "failed", failure: SIGNED_OUT } : turn;
    },
  };
}
