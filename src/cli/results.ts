// How a finished turn's result prints: alone (`print`: the reply on stdout, the failure and the
// conversation on stderr), as one section of several, and the one line naming every failed turn.

import { formatDuration } from "../duration.js";
import { EXIT } from "../errors.js";
import type { CliIo } from "../io.js";
import { turnResultJson } from "../json-shapes.js";
import { replacedNote, type TurnResult } from "../result.js";
import { roundsText } from "../review/render-text.js";
import { roundsOf } from "../review/rounds.js";
import { notTextCount, replyBytes } from "../text-bytes.js";
import type { PlannedTurn } from "../turn/batch.js";
import { failureLine } from "../turn/outcome.js";
import { reviewedJson } from "./review-output.js";
import { forStream, jsonLine, visibleLine } from "./terminal-text.js";

/** What the command line asked stdout and stderr to carry. */
export interface ResultOptions {
  readonly json?: boolean;
  readonly events?: boolean;
  readonly quiet?: boolean;
}

/** The reply (or the `--json` object) on stdout, the failure and the conversation on stderr; also how
 * `scv wait` prints a background turn's result. */
export function print(io: CliIo, result: TurnResult, options: ResultOptions): void {
  // With --events the result was the stream's last line already.
  const notes = [...result.notes];
  // A reviewed delegation's rounds after its reply; a background review's report alone.
  const rounds = roundsOf(result);
  if (options.events) {
    // nothing more on stdout
  } else if (options.json) {
    io.stdout.write(
      `${jsonLine(rounds === undefined ? turnResultJson(result) : reviewedJson(result, rounds))}\n`,
    );
  } else {
    if (result.reply !== "" && rounds?.kind !== "review") {
      writeReply(io, result.reply);
      const count = notTextCount(result.reply);
      if (count > 0 && io.stdout.isTTY === true) notes.push(replacedNote(count, "shown as U+FFFD here"));
    }
    if (rounds !== undefined) {
      io.stdout.write(
        forStream(
          io.stdout,
          `${rounds.kind === "review" || result.reply === "" ? "" : "\n"}${roundsText(rounds)}`,
        ),
      );
    }
  }
  const failure = failureLine(result);
  if (failure !== undefined) io.stderr.write(`scv: ${visibleLine(failure)}\n`);
  // Not prefixed "scv:": it belongs to the failure line above, which stays the one message line.
  if (failure !== undefined && result.fallbacks.length > 0)
    io.stderr.write(`try instead: ${result.fallbacks.join(", ")}\n`);
  // What scv did differently from usual (a turn it could not record, a session id it refused):
  // in --json they are the `notes` field.
  if (!options.quiet && !options.json && !options.events)
    for (const note of notes) io.stderr.write(`scv: note: ${visibleLine(note)}\n`);
  // A turn in a worktree: where its changes are, what the check said, and how to go on.
  if (!options.quiet && !options.json && !options.events && result.branch !== undefined)
    io.stderr.write(`${visibleLine(worktreeLine(result))}\n`);
  if (result.conversation !== null && result.session !== null) {
    // -q keeps the handle, the one thing stderr carries that a user needs to go on; in --json and
    // --events it is in the result on stdout.
    if (!options.quiet) {
      io.stderr.write(
        `conversation: ${result.conversation} — continue with: scv delegate -c ${result.conversation} "…"\n`,
      );
    } else if (!options.json && !options.events) {
      io.stderr.write(`conversation: ${result.conversation}\n`);
    }
  }
}

/** The reply on stdout, ending in a newline: byte for byte into a pipe or a file (the bytes an agent
 * wrote that are not UTF-8 included); on a terminal its escape sequences are shown, never run. */
function writeReply(io: CliIo, reply: string): void {
  const ended = reply.endsWith("\n") ? reply : `${reply}\n`;
  io.stdout.write(io.stdout.isTTY === true ? forStream(io.stdout, ended) : replyBytes(ended));
}

/** `=== <agent> (<agent>-k3f9x2) · 3 lines ===` and the reply's lines; a blank line between sections.
 * The count is what tells scv's headers from a reply line that looks like one: a section is its
 * header and exactly that many lines, whatever they say (an empty reply is `· no reply` and none).
 * On a terminal the header is also bold, which the reply's text cannot be: its escapes are shown. */
export function printSection(
  io: CliIo,
  turn: PlannedTurn | undefined,
  result: TurnResult,
  index: number,
): void {
  const agent = result.agent || turn?.agent || "scv";
  const handle =
    result.conversation ?? (turn?.kind === "ready" ? `${turn.plan.handle}, not recorded` : "did not start");
  const reply = forStream(io.stdout, result.reply);
  const body = reply === "" || reply.endsWith("\n") ? reply : `${reply}\n`;
  const count = body.split("\n").length - 1;
  const size = count === 0 ? "no reply" : `${count} ${count === 1 ? "line" : "lines"}`;
  const header = `=== ${agent} (${handle}) · ${size} ===`;
  const bold = io.stdout.isTTY === true && !io.env.NO_COLOR;
  io.stdout.write(`${index > 0 ? "\n" : ""}${bold ? `\x1b[1m${header}\x1b[0m` : header}\n`);
  if (body !== "") io.stdout.write(io.stdout.isTTY === true ? body : replyBytes(body));
}

/** One line on stderr naming every failed turn and why: `scv: 2 of 3 turns failed — a (a-k3f9x2):
 * …; b (b-x1y2z3): …`. */
export function reportFailures(
  io: CliIo,
  planned: readonly (PlannedTurn | undefined)[],
  results: readonly TurnResult[],
): void {
  const failed = results.flatMap((result, index) => {
    if (result.exitCode === EXIT.ok) return [];
    const turn = planned[index];
    // The planned handle names the turn in the progress lines; said so when nothing was recorded
    // under it, since `-c` would lead nowhere.
    const handle =
      result.conversation ?? (turn?.kind === "ready" ? `${turn.plan.handle}, not recorded` : undefined);
    const who = `${result.agent || turn?.agent || "scv"}${handle === undefined ? "" : ` (${handle})`}`;
    return [`${who}: ${visibleLine(failureLine(result) ?? `exit ${result.exitCode}`)}`];
  });
  if (failed.length === 0) return;
  const noun = results.length === 1 ? "turn" : "turns";
  io.stderr.write(`scv: ${failed.length} of ${results.length} ${noun} failed — ${failed.join("; ")}\n`);
}

/** `worktree: scv/<agent>-k3f9x2 · 2 files +10/-3 · check pass 4s — see it: scv diff … · take it: scv
 * apply …`. Pure. */
function worktreeLine(result: TurnResult): string {
  const parts = [`worktree: ${result.branch} (${result.worktree})`];
  const stat = result.diffstat;
  if (stat !== undefined)
    parts.push(
      stat.files === 0
        ? "no change"
        : `${stat.files} ${stat.files === 1 ? "file" : "files"} +${stat.added}/-${stat.removed}`,
    );
  const check = result.check;
  if (check !== undefined) {
    const how = check.status === "fail" && check.exitCode !== null ? ` (exit ${check.exitCode})` : "";
    const last = check.status === "pass" ? undefined : check.tail.at(-1);
    parts.push(
      `check ${check.status}${how} ${formatDuration(check.duration)}${last === undefined ? "" : `: ${last}`}`,
    );
  }
  const handle = result.conversation;
  const next = handle === null ? "" : ` — see it: scv diff ${handle} · take it: scv apply ${handle}`;
  return `${parts.join(" · ")}${next}`;
}
