// `scv delegate <agent> <agent> <agent> "prompt"`: the turns run at once through a bounded queue
// (`--parallel`, config `parallel`, else 4), each in its own conversation. Each reply prints under a
// header naming its agent and handle, in the order given, as soon as every turn before it has
// ended; `--json` prints one array. The exit code is the first failure's in that order, and one
// summary line on stderr says which failed and why.

import PQueue from "p-queue";
import { withInterrupts } from "../cli/interrupts.js";
import { bellFor, createNotifier } from "../cli/notify.js";
import { summaryLine } from "../cli/progress.js";
import { printSection, type ResultOptions, reportFailures } from "../cli/results.js";
import { jsonLine } from "../cli/terminal-text.js";
import { turnOutput } from "../cli/turn-output.js";
import { durationOption } from "../duration.js";
import { EXIT } from "../errors.js";
import type { Config } from "../home/config.js";
import type { CliIo } from "../io.js";
import { turnResultJson } from "../json-shapes.js";
import type { TurnResult } from "../result.js";
import type { Attempt } from "../turn/attempts.js";
import { planTurns } from "../turn/batch.js";
import { runTurn } from "../turn/run-turn.js";
import type { TurnRequest } from "../turn/turn-types.js";
import { mayWantWorktrees, type WorktreeChoice } from "../turn/worktree-choice.js";
import { comparisonTable } from "./comparison.js";

/** How a fan-out runs beyond its turns: how many at once, worktrees, and which attempt of its
 * target each turn is. */
interface FanOutShape {
  readonly concurrency: number;
  readonly choice?: WorktreeChoice;
  readonly attempts?: readonly Pick<Attempt<unknown>, "attempt" | "of">[];
}

export async function runFanOut(
  io: CliIo,
  requests: readonly TurnRequest[],
  config: Config,
  options: ResultOptions,
  shape: FanOutShape,
): Promise<number> {
  const base = {
    env: io.env,
    cwd: io.cwd,
    config,
    lockWaitMs: durationOption("SCV_LOCK_WAIT", io.env.SCV_LOCK_WAIT, { allowZero: true }),
  };
  let planned = planTurns(requests, base);
  const total = planned.length;
  const say = (line: string) => {
    if (!options.quiet) io.stderr.write(`${line}\n`);
  };

  const results = await withInterrupts(io, async (signal) => {
    // Every worktree made (and every refusal said) before any agent starts.
    const { choice } = shape;
    if (choice !== undefined && mayWantWorktrees(choice, config)) {
      const { prepareWorktrees } = await import("../turn/worktree.js");
      planned = await prepareWorktrees(planned, choice, { ...base, signal, onNotice: say });
    }
    const queue = new PQueue({ concurrency: shape.concurrency });
    const runs = planned.map((turn, index) => {
      if (turn.kind === "failed") {
        // With --events, its result line too: every turn of the fan-out ends the stream with one.
        turnOutput(io, { events: options.events, quiet: true }, turn.agent).finish(turn.result);
        return Promise.resolve(turn.result);
      }
      const { plan, request } = turn;
      const tag = `[${index + 1}/${total}] ${plan.handle}:`;
      return queue.add(async (): Promise<TurnResult> => {
        // The progress renderer draws one live line per turn; with several at once each start and
        // end is a plain line instead. --events still streams every turn's events, each naming it.
        const output = turnOutput(io, { events: options.events, quiet: true }, plan.entry.name);
        // A turn still queued when Ctrl-C came never starts: runTurn says so, without a "started".
        if (!signal.aborted) say(`${tag} ${plan.entry.name} started`);
        const notifier = createNotifier({
          config,
          env: io.env,
          prompt: request.prompt,
          note: (line) => io.stderr.write(`scv: note: ${tag} ${line}\n`),
        });
        // runTurn, not the plan: a turn of several is the same as a turn alone (fallbacks and all).
        const result = await runTurn(request, {
          ...base,
          signal,
          onEvent: output.onEvent,
          onNotice: (line) => say(`${tag} ${line}`),
          onWaiting: notifier.waiting,
          onRegistered: notifier.registered,
        });
        output.finish(result);
        say(`${tag} ${summaryLine(result)}`);
        await notifier.ended(result);
        await notifier.settle();
        return result;
      });
    });
    // In the order given, each as soon as those before it are done.
    const done: TurnResult[] = [];
    for (const [index, run] of runs.entries()) {
      const result = await run;
      done.push(result);
      if (!options.json && !options.events) printSection(io, planned[index], result, index);
    }
    return done;
  });

  if (options.json && !options.events) io.stdout.write(`${jsonLine(results.map(turnResultJson))}\n`);
  reportFailures(io, planned, results);
  // One bell for the whole fan-out, as long as its longest turn.
  const longest = results.reduce<TurnResult | undefined>(
    (a, b) => (a === undefined || b.duration > a.duration ? b : a),
    undefined,
  );
  const bell = longest === undefined ? "" : bellFor(longest, config, io.stderr);
  if (bell !== "") io.stderr.write(bell);
  // The comparison, once every turn is over: on stderr, as a summary (stdout has the replies).
  if (!options.quiet && results.some((result) => result.branch !== undefined))
    io.stderr.write(comparisonTable(results, shape.attempts));
  const continuable = results.find((result) => result.conversation !== null && result.session !== null);
  if (!options.quiet && continuable !== undefined) {
    io.stderr.write(`continue one with: scv delegate -c <handle> "…" (e.g. ${continuable.conversation})\n`);
  }
  return results.find((result) => result.exitCode !== EXIT.ok)?.exitCode ?? EXIT.ok;
}
