// Background turns: `scv delegate --background …` starts each turn as a job in a detached scv
// (jobs/launch.ts) and prints the job once the agent runs; `scv wait`, `scv ps` and `scv kill`
// follow them (wait.ts, ps.ts, kill.ts). The detached scv is this module's `background-turn`
// command: it reads its turn as JSON on stdin, says "started" on the pipe named by SCV_READY_FD
// (jobs/job.ts), and keeps the result in $SCV_HOME/turns/<job>.done.json until `scv wait` reads it.

import { withInterrupts } from "../cli/interrupts.js";
import { createNotifier, type Notifier } from "../cli/notify.js";
import type { ResultOptions } from "../cli/results.js";
import { jsonLine } from "../cli/terminal-text.js";
import { EXIT, ScvError } from "../errors.js";
import { endQuestions } from "../home/approvals.js";
import { holdReserve } from "../home/background-result.js";
import { type Config, loadConfig } from "../home/config.js";
import { jobFile } from "../home/turn-files.js";
import { markCooling, saveBackgroundResult } from "../home/turn-records.js";
import type { CliIo } from "../io.js";
import { callerApprovals } from "../jobs/approval.js";
import { type Job, parseJob, READY_FD_VARIABLE, readyPipe } from "../jobs/job.js";
import { launchTurns } from "../jobs/launch.js";
import { type LaunchJson, turnResultJson } from "../json-shapes.js";
import type { TurnResult } from "../result.js";
import { failedResult, failureLine } from "../turn/outcome.js";
import { runTurn } from "../turn/run-turn.js";
import type { TurnContext, TurnRequest, TurnWaiting } from "../turn/turn-types.js";
import type { WorktreeChoice } from "../turn/worktree-choice.js";

export async function startBackgroundTurns(
  io: CliIo,
  requests: readonly TurnRequest[],
  config: Config,
  options: ResultOptions,
  /** What each job is besides a turn: a review (jobs/review-job.ts), turns in worktrees. */
  jobs: { readonly review?: Job["review"]; readonly worktrees?: WorktreeChoice } = {},
): Promise<number> {
  const { review, worktrees } = jobs;
  if (options.events) {
    throw new ScvError(
      "USAGE",
      "--events streams a turn while it runs in the foreground — drop it with --background and read the result with scv wait",
    );
  }
  const launches = await launchTurns(requests, {
    env: io.env,
    cwd: io.cwd,
    config,
    ...(review === undefined ? {} : { review }),
    ...(worktrees === undefined ? {} : { worktrees }),
  });

  if (options.json) {
    const rows = launches.map(
      (each): LaunchJson => ({
        handle: each.handle ?? null,
        job: each.job ?? null,
        agent: each.agent,
        started: each.started,
        result: each.result === undefined ? null : turnResultJson(each.result),
      }),
    );
    io.stdout.write(`${jsonLine(rows.length === 1 ? rows[0] : rows)}\n`);
  }
  for (const each of launches) {
    if (each.started && !options.json) io.stdout.write(`${each.job}\n`);
    if (!each.started && each.result !== undefined) {
      const who = each.handle === undefined ? each.agent : `${each.agent} (${each.handle})`;
      io.stderr.write(
        `scv: ${who} did not start: ${failureLine(each.result) ?? `exit ${each.result.exitCode}`}\n`,
      );
    }
  }
  if (!options.quiet && launches.some((each) => each.started)) {
    io.stderr.write("started in the background — results: scv wait <job>…, running turns: scv ps\n");
  }
  return launches.find((each) => !each.started)?.result?.exitCode ?? EXIT.ok;
}

/** The detached scv of one background turn (hidden command `background-turn`). */
export async function backgroundTurnCommand(io: CliIo): Promise<number> {
  const input = await readAll(io.stdin);
  // A spare runner released before it got a job (jobs/spare.ts): nothing to do.
  if (input === "") return EXIT.ok;
  const startedAt = new Date();
  const job = parseJob(input);
  const ready = readyPipe(io.env[READY_FD_VARIABLE]);
  // Room for the result, should the agent fill the disk (home/background-result.ts).
  holdReserve(jobFile(job.job, "reserve", io.env));
  let result: TurnResult;
  let notifier: Notifier | undefined;
  try {
    const config = loadConfig(io.env).config;
    // What the agent may inherit of the launcher's environment, with scv's own (this process's).
    const env = { ...job.environment, ...io.env };
    // Notified from here, the process that runs the turn; a failure to is a line of the job's log.
    const notifying = createNotifier({
      config,
      env,
      prompt: job.request.prompt,
      job: job.job,
      note: (line) => io.stderr.write(`scv: note: ${line}\n`),
    });
    notifier = notifying;
    result = await withInterrupts(io, async (signal) => {
      const context: TurnContext = {
        env,
        cwd: io.cwd,
        config,
        signal,
        lockWaitMs: job.lockWaitMs,
        background: { job: job.job, onStarted: ready.started },
        ...(job.callerApproves === true ? { askPermission: callerApprovals(job.job, io.env) } : {}),
        onWaiting: (waiting) => {
          if (waiting.kind === "cooling") coolingRecord(job.job, waiting, io);
          notifying.waiting(waiting);
        },
      };
      // A review, or a reviewed delegation: its turns and their one result.
      const { review } = job;
      if (review === undefined) return runTurn(job.request, context);
      return (await import("../jobs/review-job.js")).runReviewJob({ ...job, review }, context);
    });
  } catch (error) {
    const agent = job.request.agent;
    if (error instanceof ScvError) result = failedResult(error, agent);
    else {
      // The log keeps the stack; the result says where it is.
      io.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      const logPath = jobFile(job.job, "log", io.env);
      result = failedResult(
        new ScvError(
          "AGENT_FAILED",
          `internal error in the background turn — please report it with ${logPath}`,
        ),
        agent,
      );
    }
  }
  // An answer that came after the turn stopped asking.
  if (job.callerApproves === true) endQuestions(job.job, io.env);
  saveBackgroundResult(job.job, result, startedAt, io.env);
  ready.close();
  // Once the result is saved: a notified command may read it (scv wait <job>).
  await notifier?.ended(result);
  await notifier?.settle();
  return result.exitCode;
}

/** `scv ps` shows the job waiting for a rate limit's reset; a record that cannot be marked only
 * shows it running. */
function coolingRecord(job: string, waiting: Extract<TurnWaiting, { kind: "cooling" }>, io: CliIo): void {
  try {
    markCooling(job, { until: waiting.until, reason: waiting.reason }, io.env);
  } catch (error) {
    io.stderr.write(`scv: note: ${(error as Error).message}\n`);
  }
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}
