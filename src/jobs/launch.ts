// Starting background turns: each its own job (`<handle>.<8 characters>`), run by a detached scv (its
// own session, stdio to $SCV_HOME/turns/<job>.log) that runs the `background-turn` command, waited for
// until its agent runs. The turns are planned here first, so what cannot start (not installed, a busy
// conversation) is a result at once, with no detached scv. A continued conversation that another
// turn holds is waited for briefly (`backgroundLockWait`, src/timing.ts), then refused as busy
// before anything reports the turn started: no started turn waits in a queue nobody sees.

import { closeSync, lstatSync } from "node:fs";
import { formatDuration } from "../duration.js";
import { EXIT, ScvError } from "../errors.js";
import { ensureScvDir, openOwnFileForAppend } from "../home/agent-home.js";
import { LOG_TAIL } from "../home/background-result.js";
import { type Config, endpointKeyVariables } from "../home/config.js";
import { type Env, scvHome } from "../home/paths.js";
import { removeIfPresent } from "../home/remove.js";
import { readStateText } from "../home/state-file.js";
import { jobFile, newJob } from "../home/turn-files.js";
import { turnOwnerAlive } from "../home/turn-owner.js";
import { consumeResult, readFinished, readRunning } from "../home/turn-records.js";
import { TAG_VARIABLE } from "../os/tagged.js";
import { READY_FD, startDetached } from "../process/helpers.js";
import type { TurnResult } from "../result.js";
import { timing } from "../timing.js";
import { passedEnvironment } from "../transport/env.js";
import { planTurns } from "../turn/batch.js";
import { busyWithError } from "../turn/busy.js";
import { failedResult } from "../turn/outcome.js";
import type { TurnRequest } from "../turn/turn-types.js";
import { mayWantWorktrees, type WorktreeChoice } from "../turn/worktree-choice.js";
import { type Job, READY_FD_VARIABLE } from "./job.js";
import type { SpareRunner } from "./spare.js";

export interface Launch {
  /** Undefined for a turn that was never planned (its agent is not installed, say). */
  readonly handle: string | undefined;
  /** The turn's job; undefined with the handle. */
  readonly job: string | undefined;
  readonly agent: string;
  readonly started: boolean;
  /** Why it did not start. */
  readonly result?: TurnResult;
}

export interface LaunchContext {
  /** scv's own environment, which the detached scv inherits (without the caller's turn tag). */
  readonly env: Env;
  readonly cwd: string;
  readonly config: Config;
  /** A detached scv started ahead of time to hand the first job to (`scv mcp`'s: jobs/spare.ts). */
  readonly spare?: SpareRunner;
  /** The caller answers the agents' permission requests through the jobs' files (`scv mcp`). */
  readonly callerApproves?: boolean;
  /** Each job is a review or a reviewed delegation (jobs/review-job.ts runs it). */
  readonly review?: Job["review"];
  /** What was asked of worktrees (`--worktree`, the MCP tool's `worktree`): each made here, before
   * any detached scv starts, so a refusal is the caller's at once. */
  readonly worktrees?: WorktreeChoice;
}

/** Plans every turn, then starts each that can start; one `Launch` per request, in order. */
export async function launchTurns(
  requests: readonly TurnRequest[],
  context: LaunchContext,
): Promise<Launch[]> {
  const { env, cwd, config, spare, callerApproves, review, worktrees } = context;
  let planned = planTurns(requests, { env, cwd, config });
  if (worktrees !== undefined && mayWantWorktrees(worktrees, config)) {
    const { prepareWorktrees } = await import("../turn/worktree.js");
    planned = await prepareWorktrees(planned, worktrees, { env, config });
  }
  return Promise.all(
    planned.map((turn): Promise<Launch> | Launch => {
      if (turn.kind === "failed")
        return { handle: undefined, job: undefined, agent: turn.agent, started: false, result: turn.result };
      const { plan, request } = turn;
      // Refused at once rather than after the lock wait, when a running turn holds the conversation.
      const running = readRunning(plan.handle, env);
      if (running !== undefined && turnOwnerAlive(running)) {
        return {
          handle: plan.handle,
          job: undefined,
          agent: plan.entry.name,
          started: false,
          result: failedResult(busyWithError(plan.handle, running), plan.entry.name),
        };
      }
      // The minted handle (in the request) and the launcher's cwd: the detached scv plans the same turn.
      const job: Job = {
        handle: plan.handle,
        job: newJob(plan.handle),
        request: { ...request, cwd: plan.cwd },
        lockWaitMs: timing("backgroundLockWait"),
        environment: turnEnvironment(env, config),
        ...(callerApproves === true ? { callerApproves } : {}),
        ...(review === undefined ? {} : { review }),
      };
      return launch(env, cwd, job, plan.entry.name, spare);
    }),
  );
}

/** Starts one detached scv (or hands the job to the spare one) and waits until its agent runs, or
 * until it ends without running it. */
async function launch(env: Env, cwd: string, job: Job, agent: string, spare?: SpareRunner): Promise<Launch> {
  ensureScvDir(env, "turns");
  const logPath = jobFile(job.job, "log", env);
  const handOff = {
    input: JSON.stringify(job),
    readyWord: "started",
    readyWithinMs: timing("backgroundStartLimit") + (job.lockWaitMs ?? 0),
  };
  let started = await spare?.hand(handOff, logPath);
  if (started === undefined) {
    const log = openOwnFileForAppend(logPath);
    try {
      const command = backgroundCommand();
      // Its own session: a closing terminal or a Ctrl-C in it does not reach the turn.
      started = await startDetached(command.file, command.args, {
        ...handOff,
        cwd,
        env: backgroundEnv(env),
        output: log,
      });
    } catch (error) {
      // Nothing ran that could have written to it (the start itself failed: a full disk, no memory).
      removeIfPresent(logPath);
      throw error;
    } finally {
      closeSync(log);
    }
  }
  const launched = { handle: job.handle, job: job.job, agent };
  if (started === "ready") return { ...launched, started: true };

  const finished = readFinished(job.job, env);
  // (A turn that ran without saying so still has its result kept for scv wait.)
  if (finished !== undefined && finished.result.exitCode === EXIT.ok) return { ...launched, started: true };
  if (finished !== undefined) {
    consumeResult(job.job, env);
    return { ...launched, job: undefined, started: false, result: finished.result };
  }
  const last = lastLine(logPath);
  // A log the scv wrote nothing to (it could not: a full disk) tells nothing: it goes, and the line
  // does not send the user to it. One with words stays for them; gc removes it after an hour.
  const empty = isEmptyFile(logPath);
  if (empty) removeIfPresent(logPath);
  const what =
    started === "timed-out"
      ? `the background scv had not started its turn after ${formatDuration(timing("backgroundStartLimit") + (job.lockWaitMs ?? 0))} and was stopped`
      : "the background scv ended before its turn started";
  const error = new ScvError(
    "AGENT_FAILED",
    empty
      ? `${what}, and wrote nothing to say why (is the disk full?) — check the space free for ${scvHome(env)}, or run the turn in the foreground`
      : `${what}${last === undefined ? "" : `: ${last}`} — see ${logPath}`,
  );
  return { ...launched, job: undefined, started: false, result: failedResult(error, agent) };
}

/** What the detached scv needs of the launcher's environment to run the turn as the launcher would:
 * what any agent may inherit (credentials withheld), and the endpoint keys scv reads itself
 * (`api_key_env`), which reach only their own agent. Handed on its stdin, never in its environment. */
function turnEnvironment(env: Env, config: Config): Record<string, string> {
  const kept = passedEnvironment(env, config.isolation);
  for (const name of endpointKeyVariables(config)) {
    const value = env[name];
    if (value !== undefined) kept[name] = value;
  }
  return kept;
}

/** The detached scv that runs one background turn: this scv again, with `background-turn`. */
export function backgroundCommand(): { file: string; args: string[] } {
  return { file: process.execPath, args: [...process.execArgv, scvScript(), "background-turn"] };
}

/** The detached scv's environment: the launcher's, with the ready pipe named, and without the tag of
 * the turn whose agent launched it (SCV_DEPTH stays); of it the scv keeps only what it reads itself
 * (os/detached-env.ts), and the turn's agent is made from the job's `environment`. A background turn is asked to outlive its
 * caller; with the tag, that turn's end would sweep it as an escaped process. It has a record and a
 * tag of its own. */
export function backgroundEnv(env: Env): NodeJS.ProcessEnv {
  const { [TAG_VARIABLE]: _callerTurn, ...rest } = env;
  return { ...rest, [READY_FD_VARIABLE]: String(READY_FD) };
}

/** The script this scv runs from, for starting another. */
export function scvScript(): string {
  const script = process.argv[1];
  if (script === undefined)
    throw new ScvError("USAGE", "cannot tell where scv runs from — start scv by its path");
  return script;
}

function isEmptyFile(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false })?.size === 0;
}

function lastLine(path: string): string | undefined {
  const lines = readStateText(path, LOG_TAIL)?.trim().split("\n");
  return lines?.at(-1)?.replace(/^scv: /, "") || undefined;
}
