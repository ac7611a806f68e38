// The tools that start, wait for, stop and look at delegated turns: delegate, wait, cancel, status.
// Each returns a ToolOutcome; a refusal is thrown as ScvError and said by the server as one line.

import { type AgentSpec, parseAgentSpec } from "../agent-spec.js";
import { formatElapsed } from "../cli/progress.js";
import { loadConfig } from "../config.js";
import { ScvError } from "../errors.js";
import { giveAnswer, questionText } from "../home/approvals.js";
import { jobHandle } from "../home/turn-files.js";
import type { SpareRunner } from "../jobs/spare.js";
import type { TurnRequest } from "../turn/types.js";
import {
  cancelJob,
  consumeJob,
  type JobProgress,
  type JobStart,
  type JobState,
  jobState,
  runningJobs,
  startJobs,
  waitableJob,
  waitForJobs,
} from "./jobs.js";
import {
  combinedOutcome,
  finishedOutcome,
  notStartedOutcome,
  progressMessage,
  replyBudget,
  runningOutcome,
  type ToolOutcome,
} from "./replies.js";
import {
  type ApproveInput,
  type CancelInput,
  DEFAULT_WAIT_SECONDS,
  type DelegateInput,
  type StatusInput,
  type WaitInput,
} from "./tools.js";

export interface CallContext {
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** The client gave up on the call (cancelled it, or went away). */
  readonly signal?: AbortSignal;
  /** Told while a call waits, at least every `progressMs`. */
  readonly progress?: (message: string) => void;
  readonly progressMs: number;
  /** The server's spare runner (jobs/spare.ts). */
  readonly spare?: SpareRunner;
}

export async function delegateTool(input: DelegateInput, context: CallContext): Promise<ToolOutcome> {
  const calledAt = Date.now();
  const config = loadConfig(context.env).config;
  const started = await startJobs(turnRequests(input), {
    env: context.env,
    cwd: context.cwd,
    config,
    spare: context.spare,
  });
  const waitMs = (input.wait_seconds ?? DEFAULT_WAIT_SECONDS) * 1000;
  const jobs = started.flatMap((start) => (start.kind === "started" ? [start.job] : []));
  context.progress?.(`started ${started.map(startLabel).join(", ")}`);
  const states = await waitFor(jobs, calledAt + waitMs, context);
  const budget = Math.floor(replyBudget(context.env) / started.length);
  const outcomes = started.map((start) => ({
    agent: start.agent,
    // The conversation: a running part's text names its job.
    handle: start.kind === "started" ? start.conversation : start.result.conversation,
    outcome:
      start.kind === "failed"
        ? notStartedOutcome(start.result, budget)
        : settledOutcome(start, states.get(start.job), budget, context.env),
  }));
  if (outcomes.length === 1 && outcomes[0] !== undefined) return outcomes[0].outcome;
  return combinedOutcome(outcomes);
}

/** The turns a delegate call asks for: one per agent, or the continued conversation's. */
function turnRequests(input: DelegateInput): TurnRequest[] {
  const agents = input.agent === undefined ? [] : Array.isArray(input.agent) ? input.agent : [input.agent];
  if (input.conversation !== undefined && agents.length > 1) {
    throw new ScvError(
      "USAGE",
      "a conversation continues with its own agent — leave agent out, or name only that one",
    );
  }
  if (input.conversation === undefined && agents.length === 0) {
    throw new ScvError(
      "USAGE",
      "name an agent (like codex, or a list), or a conversation to continue — the agents tool lists them",
    );
  }
  const request = (spec: AgentSpec | Record<string, never>): TurnRequest => ({
    agent: spec.agent,
    ...(spec.accounts === undefined ? {} : { accounts: spec.accounts }),
    continue: input.conversation,
    prompt: input.prompt,
    model: spec.model ?? input.model,
    effort: spec.effort ?? input.effort,
    policy: input.policy,
    cwd: input.cwd,
    ...(input.mcp === undefined ? {} : { mcp: input.mcp }),
  });
  return agents.length === 0 ? [request({})] : agents.map((text) => request(parseAgentSpec(text)));
}

function startLabel(start: JobStart): string {
  return start.kind === "started" ? `${start.agent} (${start.job})` : `${start.agent} (did not start)`;
}

/** The outcome of a started job; its result is dropped once the reply has been given whole. */
function settledOutcome(
  start: { job: string; conversation: string; agent: string },
  state: JobState | undefined,
  budget: number,
  env: NodeJS.ProcessEnv,
  offset?: number,
): ToolOutcome {
  if (state?.kind === "finished") {
    const outcome = finishedOutcome(state.result, start.job, { budget, offset });
    if (outcome.complete) consumeJob(start.job, env);
    return outcome;
  }
  if (state?.kind === "running") return runningOutcome(start, state.progress);
  throw new ScvError("USAGE", `the result of ${start.job} was read meanwhile (by another wait, or scv wait)`);
}

async function waitFor(
  jobs: readonly string[],
  deadline: number,
  context: CallContext,
): Promise<Map<string, JobState>> {
  return waitForJobs(jobs, {
    env: context.env,
    deadline,
    signal: context.signal,
    progressMs: context.progressMs,
    onProgress: (running: readonly JobProgress[]) => context.progress?.(progressMessage(running)),
  });
}

export async function waitTool(input: WaitInput, context: CallContext): Promise<ToolOutcome> {
  const calledAt = Date.now();
  const first = await waitableJob(input.job, context.env);
  const job = {
    job: input.job,
    conversation:
      first.kind === "running" ? first.progress.conversation : (jobHandle(input.job) ?? input.job),
    agent:
      first.kind === "running" ? first.progress.agent : first.kind === "finished" ? first.result.agent : "",
  };
  const waitMs = (input.wait_seconds ?? DEFAULT_WAIT_SECONDS) * 1000;
  const states =
    first.kind === "finished"
      ? new Map([[input.job, first]])
      : await waitFor([input.job], calledAt + waitMs, context);
  return settledOutcome(job, states.get(input.job), replyBudget(context.env), context.env, input.offset);
}

/** Answers the question a job waits on, then waits for the job as `wait` does. Refused, and nothing
 * answered, when that question is no longer the one pending. */
export async function approveTool(input: ApproveInput, context: CallContext): Promise<ToolOutcome> {
  const state = await jobState(input.job, context.env);
  const gone = `approval ${input.approval} of ${input.job} is no longer pending`;
  if (state.kind === "unknown") {
    throw new ScvError(
      "USAGE",
      `${gone}: no job ${input.job} runs — its result was read already, or it never ran`,
    );
  }
  if (state.kind === "finished") {
    throw new ScvError(
      "USAGE",
      `${gone}: the job has finished — call wait with {"job": "${input.job}"} for its result`,
    );
  }
  const pending = state.progress.approval;
  if (pending === null || pending.id !== input.approval) {
    const now =
      pending === null
        ? "it waits for no answer now (answered already, or the agent stopped asking)"
        : `it now waits on approval ${pending.id}: ${questionText(pending)}`;
    throw new ScvError("USAGE", `${gone}: ${now} — status shows the job`);
  }
  if (!pending.answers.includes(input.answer)) {
    throw new ScvError(
      "USAGE",
      `${pending.agent} offers no "${input.answer}" for this question — answer ${pending.answers.join(", ")}`,
    );
  }
  const given = giveAnswer(input.job, input.approval, input.answer, context.env);
  if (given === "gone")
    throw new ScvError("USAGE", `${gone}: the agent stopped asking meanwhile — status shows the job`);
  if (given === "taken") throw new ScvError("USAGE", `${gone}: another answer came first`);
  context.progress?.(
    `${input.answer === "reject" ? "rejected" : `allowed ${input.answer}`}: ${questionText(pending)}`,
  );
  return waitTool(
    { job: input.job, ...(input.wait_seconds === undefined ? {} : { wait_seconds: input.wait_seconds }) },
    context,
  );
}

export async function cancelTool(input: CancelInput, context: CallContext): Promise<ToolOutcome> {
  const before = await jobState(input.job, context.env);
  if (before.kind === "unknown") {
    throw new ScvError("USAGE", `no running job ${input.job} — status lists them`);
  }
  if (before.kind === "running") await cancelJob(input.job, context.env);
  const after = before.kind === "finished" ? before : await jobState(input.job, context.env);
  const said =
    before.kind === "finished"
      ? `${input.job} had finished already.`
      : `Stopped ${input.job} and everything its agent started.`;
  if (after.kind !== "finished") {
    // A foreground turn stopped this way reports its result to the scv that runs it.
    return { text: said, structured: { status: "cancelled", job: input.job }, isError: false };
  }
  const outcome = finishedOutcome(after.result, input.job, { budget: replyBudget(context.env) });
  if (outcome.complete) consumeJob(input.job, context.env);
  // What the agent did is reported; the cancel itself did what was asked.
  return { ...outcome, text: `${said}\n\n${outcome.text}`, isError: false };
}

export async function statusTool(input: StatusInput, context: CallContext): Promise<ToolOutcome> {
  if (input.job === undefined) {
    const running = runningJobs(context.env);
    const lines = running.map((job) =>
      [
        job.job,
        job.model === null ? job.agent : `${job.agent}:${job.model}`,
        formatElapsed(job.elapsedMs),
        job.approval === null
          ? (job.tool ?? "-")
          : `needs approval ${job.approval.id}: ${questionText(job.approval)}`,
        job.background ? "background" : `foreground (scv pid ${job.scvPid})`,
        job.cwd,
        JSON.stringify(job.prompt),
      ].join("  "),
    );
    return {
      text: running.length === 0 ? "No agent turns are running." : lines.join("\n"),
      structured: { running },
      isError: false,
    };
  }
  const state = await jobState(input.job, context.env);
  if (state.kind === "unknown") {
    throw new ScvError("USAGE", `no job ${input.job} — its result was read already, or it never ran`);
  }
  if (state.kind === "running") {
    const outcome = runningOutcome(state.progress, state.progress);
    const status = state.progress.approval === null ? "running" : "needs-approval";
    return { ...outcome, structured: { ...state.progress, ...outcome.structured, status } };
  }
  const outcome = finishedOutcome(state.result, input.job, { budget: replyBudget(context.env) });
  return {
    text: `${input.job} has finished (its result stays until wait reads it):\n\n${outcome.text}`,
    structured: outcome.structured,
    isError: false,
  };
}
