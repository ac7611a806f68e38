// `scv delegate codex claude gemini "prompt"`: the turns run at once through a bounded queue
// (`--parallel`, config `parallel`, else 4), each in its own conversation. Each reply prints under a
// header naming its agent and handle, in the order given, as soon as every turn before it has
// ended; `--json` prints one array. The exit code is the first failure's in that order, and one
// summary line on stderr says which failed and why.

import PQueue from "p-queue";
import { withInterrupts } from "../cli/interrupts.js";
import type { CliIo } from "../cli/io.js";
import { summaryLine } from "../cli/progress.js";
import { forStream, jsonLine } from "../cli/terminal-text.js";
import { turnOutput } from "../cli/turn-output.js";
import type { Config } from "../config.js";
import { durationOption } from "../duration.js";
import { EXIT, ScvError } from "../errors.js";
import type { TurnResult } from "../result.js";
import {
  failedResult,
  failureLine,
  planTurn,
  runTurn,
  type TurnContext,
  type TurnPlan,
  type TurnRequest,
} from "../transport/turn.js";
import { type DelegateOptions, parallelism } from "./delegate.js";

/** A turn as planned: ready to run, or already failed (not installed, a bad model) without running. */
export type PlannedTurn =
  | {
      readonly kind: "ready";
      readonly agent: string;
      readonly plan: TurnPlan;
      /** The request with the plan's handle, so running it plans the same turn. */
      readonly request: TurnRequest;
    }
  | { readonly kind: "failed"; readonly agent: string; readonly result: TurnResult };

/** Plans every turn before any runs. A usage error (an unknown agent, a bad flag, delegation too
 * deep) refuses them all, as a typo should; other failures are that turn's result. Handles are
 * distinct within the batch. */
export function planTurns(requests: readonly TurnRequest[], context: TurnContext): PlannedTurn[] {
  const handles = new Set<string>();
  return requests.map((request) => {
    const agent = request.agent ?? "";
    try {
      let plan = planTurn(request, context);
      // Two minted handles alike: one chance in a billion per pair, but then one record would go.
      while (handles.has(plan.handle) && plan.record === undefined) plan = planTurn(request, context);
      handles.add(plan.handle);
      const planned = plan.record === undefined ? { ...request, handle: plan.handle } : request;
      return { kind: "ready", agent: plan.entry.name, plan, request: planned };
    } catch (error) {
      if (!(error instanceof ScvError) || error.exitCode === EXIT.usage) throw error;
      return { kind: "failed", agent, result: failedResult(error, agent) };
    }
  });
}

export async function runFanOut(
  io: CliIo,
  requests: readonly TurnRequest[],
  config: Config,
  options: DelegateOptions,
): Promise<number> {
  const concurrency = parallelism(options, config);
  const base = {
    env: io.env,
    cwd: io.cwd,
    config,
    lockWaitMs: durationOption("SCV_LOCK_WAIT", io.env.SCV_LOCK_WAIT, { allowZero: true }),
  };
  const planned = planTurns(requests, base);
  const total = planned.length;
  const say = (line: string) => {
    if (!options.quiet) io.stderr.write(`${line}\n`);
  };

  const results = await withInterrupts(io, async (signal) => {
    const queue = new PQueue({ concurrency });
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
        // runTurn, not the plan: a turn of several is the same as a turn alone (fallbacks and all).
        const result = await runTurn(request, { ...base, signal, onEvent: output.onEvent });
        output.finish(result);
        say(`${tag} ${summaryLine(result)}`);
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

  if (options.json && !options.events) io.stdout.write(`${jsonLine(results)}\n`);
  reportFailures(io, planned, results);
  const continuable = results.find((result) => result.conversation !== null && result.session !== null);
  if (!options.quiet && continuable !== undefined) {
    io.stderr.write(`continue one with: scv delegate -c <handle> "…" (e.g. ${continuable.conversation})\n`);
  }
  return results.find((result) => result.exitCode !== EXIT.ok)?.exitCode ?? EXIT.ok;
}

/** `=== codex (codex-k3f9x2) · 3 lines ===` and the reply's lines; a blank line between sections.
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
  io.stdout.write(`${index > 0 ? "\n" : ""}${bold ? `\x1b[1m${header}\x1b[0m` : header}\n${body}`);
}

/** One line on stderr naming every failed turn and why: `scv: 2 of 3 turns failed — claude
 * (claude-k3f9x2): …; gemini (gemini-x1y2z3): …`. */
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
    return [`${who}: ${failureLine(result) ?? `exit ${result.exitCode}`}`];
  });
  if (failed.length === 0) return;
  const noun = results.length === 1 ? "turn" : "turns";
  io.stderr.write(`scv: ${failed.length} of ${results.length} ${noun} failed — ${failed.join("; ")}\n`);
}
