// `scv delegate --review-by <targets|auto> [--rounds N] <author> "…"`: the author's turn, its changes
// reviewed, and with `--rounds` the findings sent back until the reviewers approve (src/jobs/reviewed-delegation.ts).
// The author's turns show their progress as any turn's; each reviewer turn is one line; the author's
// last reply and the rounds' reviews go to stdout (or `--json`: the result with its rounds), and the
// exit code is the author's failure, else the last review's.

import { withInterrupts } from "../cli/interrupts.js";
import { print, type ResultOptions } from "../cli/results.js";
import { turnOutput } from "../cli/turn-output.js";
import { durationOption } from "../duration.js";
import { ScvError } from "../errors.js";
import type { Config } from "../home/config.js";
import { readConversation } from "../home/conversations.js";
import { jobHandle } from "../home/turn-files.js";
import type { CliIo } from "../io.js";
import { planDelegation } from "../jobs/review-plan.js";
import { checkRounds, runReviewedDelegation } from "../jobs/reviewed-delegation.js";
import { splitTargets } from "../jobs/reviewers.js";
import type { TurnEvent } from "../parsers/event-types.js";
import { headline } from "../review/render-text.js";
import type { TurnPlan, TurnRequest } from "../turn/turn-types.js";
import { turnLine } from "./review.js";

export interface ReviewedOptions extends ResultOptions {
  readonly background?: boolean;
  readonly reviewBy: readonly string[];
  readonly rounds?: string;
  readonly focus?: string;
}

/** The `--review-by` values as targets (repeatable, comma-separated). Pure. */
function reviewByTargets(values: readonly string[]): string[] {
  return values.flatMap(splitTargets);
}

/** `--rounds`, as a number. */
function roundsOption(text: string | undefined): number {
  if (text === undefined) return 1;
  return checkRounds(/^\d+$/.test(text) ? Number(text) : Number.NaN);
}

export async function reviewedDelegation(
  io: CliIo,
  request: TurnRequest,
  options: ReviewedOptions,
  config: Config,
  configPath: string,
): Promise<number> {
  if (options.events) {
    throw new ScvError(
      "USAGE",
      "--events streams one turn, and a reviewed delegation runs several — use --json for its result",
    );
  }
  const review = await planDelegation(
    request,
    {
      reviewBy: reviewByTargets(options.reviewBy),
      rounds: roundsOption(options.rounds),
      ...(options.focus === undefined ? {} : { focus: options.focus }),
    },
    { env: io.env, cwd: io.cwd, config, configPath },
  );
  if (options.background) {
    const { startBackgroundTurns } = await import("./background.js");
    return startBackgroundTurns(io, [request], config, options, { review });
  }
  const rounds = review.rounds ?? 1;
  const continued =
    request.continue === undefined
      ? undefined
      : readConversation(jobHandle(request.continue) ?? request.continue, io.env);
  const agent = continued?.agent ?? request.agent ?? "";
  const say = (line: string) => {
    if (!options.quiet) io.stderr.write(`${line}\n`);
  };
  // Each author turn shows its progress as a turn alone does.
  let output = turnOutput(io, { quiet: options.quiet }, agent);
  const result = await withInterrupts(
    io,
    (signal) =>
      runReviewedDelegation({
        request,
        reviewBy: review.reviewers,
        rounds,
        ...(options.focus === undefined ? {} : { focus: options.focus }),
        configPath,
        context: {
          env: io.env,
          cwd: io.cwd,
          config,
          signal,
          lockWaitMs: durationOption("SCV_LOCK_WAIT", io.env.SCV_LOCK_WAIT, { allowZero: true }),
          onEvent: (event: TurnEvent, turn: TurnPlan) => output.onEvent(event, turn),
          onNotice: (line) => say(`scv: ${line}`),
        },
        onAuthor: (round) => {
          if (round === 1) return;
          say(`scv: round ${round} of ${rounds}: the findings go back to ${agent}`);
          output = turnOutput(io, { quiet: options.quiet }, agent);
        },
        onAuthorDone: (_round, author) => output.finish(author),
        onTurn: (event) => say(turnLine(event)),
        onReview: (round, report) => say(`scv: round ${round} of ${rounds}: ${headline(report)}`),
      }),
    "the agents",
  );
  print(io, result, options);
  return result.exitCode;
}
