// The tools that start, wait for, stop and look at delegated turns: delegate, wait, cancel, status.
// Each returns a ToolOutcome; a refusal is thrown as ScvError and said by the server as one line.

import { EXAMPLE_AGENTS } from "../adapters.js";
import { type AgentSpec, parseAgentSpec } from "../agent-spec.js";
import { formatElapsed } from "../duration.js";
import { ScvError } from "../errors.js";
import { giveAnswer, type PendingApproval, questionFate, questionText } from "../home/approvals.js";
import { type Config, loadConfig } from "../home/config.js";
import { jobHandle } from "../home/turn-files.js";
import type { Job } from "../jobs/job.js";
import { planDelegation } from "../jobs/review-plan.js";
import type { SpareRunner } from "../jobs/spare.js";
import type { TurnRequest } from "../turn/turn-types.js";
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
  fitted,
  notStartedOutcome,
  progressMessage,
  runningOutcome,
  type ToolOutcome,
} from "./replies.js";
import { shownLimit } from "./shown-size.js";
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
  /** Set when the call is made again once the person answered the permission question it raised
   * (the answer is given): what the first call left to go on with (its `ask.resume`). */
  readonly resume?: unknown;
}

export async function delegateTool(input: DelegateInput, context: CallContext): Promise<ToolOutcome> {
  return startedAndWaited(input.wait_seconds, context, () => startDelegate(input, context));
}

/** A call that starts jobs and waits for them up to `waitSeconds`: their answer (delegate, review). */
export async function startedAndWaited(
  waitSeconds: number | undefined,
  context: CallContext,
  start: () => Promise<JobStart[]>,
): Promise<ToolOutcome> {
  const calledAt = Date.now();
  // Called again once the person answered a question the first call raised: its turns run already.
  const resumed = context.resume as readonly JobStart[] | undefined;
  const started = resumed ?? (await start());
  const waitMs = (waitSeconds ?? DEFAULT_WAIT_SECONDS) * 1000;
  if (resumed === undefined) context.progress?.(`started ${started.map(startLabel).join(", ")}`);
  const states = await waitFor(startedJobs(started), calledAt + waitMs, context);
  return delivered(delegateAnswer(started, states, context.env), context.env);
}

/** Starts the turns a delegate call asks for, as background jobs; with `review_by`, the one turn as a
 * reviewed delegation. */
export async function startDelegate(input: DelegateInput, context: CallContext): Promise<JobStart[]> {
  const loaded = loadConfig(context.env);
  const requests = turnRequests(input);
  const review = await delegationReview(input, requests, { ...context, ...loaded });
  return startJobs(requests, {
    env: context.env,
    cwd: context.cwd,
    config: loaded.config,
    spare: context.spare,
    ...(review === undefined ? {} : { review }),
    worktrees: {
      ...(input.worktree === undefined ? {} : { worktree: input.worktree }),
      check: input.check !== undefined,
    },
  });
}

/** The jobs of the turns that started. */
export function startedJobs(started: readonly JobStart[]): string[] {
  return started.flatMap((start) => (start.kind === "started" ? [start.job] : []));
}

/** A delegate call's answer for its turns in `states`: each finished turn's reply (or its first part),
 * each running one's job — and, for a turn waiting on a permission question, the question to put to
 * the person where the host can (`ask`). A task's result is this same answer (tasks.ts). */
export function delegateAnswer(
  started: readonly JobStart[],
  states: ReadonlyMap<string, JobState>,
  env: NodeJS.ProcessEnv,
): Answer {
  const answer = fitted(shownLimit(env), started.length, (budget) => {
    const parts = started.map((start) => {
      const settled =
        start.kind === "failed"
          ? { outcome: notStartedOutcome(start.result, budget), read: [] }
          : settledOutcome(start, states.get(start.job), budget);
      // The conversation: a running part's text names its job.
      const handle = start.kind === "started" ? start.conversation : start.result.conversation;
      return { agent: start.agent, handle, ...settled };
    });
    const [only] = parts;
    return {
      outcome: parts.length === 1 && only !== undefined ? only.outcome : combinedOutcome(parts),
      read: parts.flatMap((part) => part.read),
    };
  });
  const asking = askingJob(startedJobs(started), states);
  return asking === undefined
    ? answer
    : { ...answer, outcome: { ...answer.outcome, ask: { ...asking, resume: started } } };
}

/** The first of `jobs` waiting for an answer to a permission question, with the question. */
function askingJob(
  jobs: readonly string[],
  states: ReadonlyMap<string, JobState>,
): { job: string; approval: PendingApproval } | undefined {
  for (const job of jobs) {
    const state = states.get(job);
    if (state?.kind === "running" && state.progress.approval !== null)
      return { job, approval: state.progress.approval };
  }
  return undefined;
}

/** An answer whose jobs' results are read whole by it: they are dropped as it goes out. */
export interface Answer {
  readonly outcome: ToolOutcome;
  readonly read: readonly string[];
}

function delivered(answer: Answer, env: NodeJS.ProcessEnv): ToolOutcome {
  for (const job of answer.read) consumeJob(job, env);
  return answer.outcome;
}

/** A delegate call with `review_by`: its one turn's review. */
async function delegationReview(
  input: DelegateInput,
  requests: readonly TurnRequest[],
  context: { env: NodeJS.ProcessEnv; cwd: string; config: Config; path: string },
): Promise<Job["review"]> {
  const { review_by: reviewBy, rounds, focus } = input;
  if (reviewBy === undefined) {
    if (rounds !== undefined || focus !== undefined)
      throw new ScvError(
        "USAGE",
        `${rounds === undefined ? "focus" : "rounds"} goes with review_by — name the reviewers, or auto`,
      );
    return undefined;
  }
  const [request] = requests;
  if (request === undefined || requests.length > 1)
    throw new ScvError("USAGE", "a reviewed delegation has one author — name one agent with review_by");
  return planDelegation(
    request,
    {
      reviewBy: typeof reviewBy === "string" ? [reviewBy] : reviewBy,
      ...(rounds === undefined ? {} : { rounds }),
      ...(focus === undefined ? {} : { focus }),
    },
    { env: context.env, cwd: context.cwd, config: context.config, configPath: context.path },
  );
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
      `name an agent (like ${EXAMPLE_AGENTS[0]}, or a list), or a conversation to continue — the agents tool lists them`,
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
    ...(input.check === undefined ? {} : { check: input.check }),
  });
  return agents.length === 0 ? [request({})] : agents.map((text) => request(parseAgentSpec(text)));
}

function startLabel(start: JobStart): string {
  return start.kind === "started" ? `${start.agent} (${start.job})` : `${start.agent} (did not start)`;
}

/** The outcome of a started job with `budget` bytes of reply, and the job when it gives the reply
 * whole (its result is then dropped). */
function settledOutcome(
  start: { job: string; conversation: string; agent: string },
  state: JobState | undefined,
  budget: number,
  offset?: number,
): Answer {
  if (state?.kind === "finished") {
    const outcome = finishedOutcome(state.result, start.job, { budget, offset });
    return { outcome, read: outcome.complete ? [start.job] : [] };
  }
  if (state?.kind === "running") return { outcome: runningOutcome(start, state.progress), read: [] };
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
  const state = states.get(input.job);
  const answer = fitted(shownLimit(context.env), 1, (budget) =>
    settledOutcome(job, state, budget, input.offset),
  );
  const asking = askingJob([input.job], states);
  return delivered(
    asking === undefined
      ? answer
      : { ...answer, outcome: { ...answer.outcome, ask: { ...asking, resume: true } } },
    context.env,
  );
}

/** Answers the question a job waits on, then waits for the job as `wait` does. Refused, and nothing
 * answered, when that question is not the one pending, saying what became of it. */
export async function approveTool(input: ApproveInput, context: CallContext): Promise<ToolOutcome> {
  const { job, approval: id } = input;
  const wait = { job, ...(input.wait_seconds === undefined ? {} : { wait_seconds: input.wait_seconds }) };
  // Called again once the person answered the job's next question: this call's answer was given.
  if (context.resume !== undefined) return waitTool(wait, context);
  const state = await jobState(job, context.env);
  if (state.kind === "unknown") {
    throw new ScvError(
      "USAGE",
      `no job ${job} is running, so approval ${id} cannot be answered — its result was read already, or it never ran`,
    );
  }
  if (state.kind === "finished") {
    throw new ScvError(
      "USAGE",
      `${job} has finished, so approval ${id} cannot be answered — call wait with job ${job} for its result`,
    );
  }
  const pending = state.progress.approval;
  if (pending === null || pending.id !== id) {
    const now =
      pending === null
        ? "it waits for no answer now — status shows the job"
        : `it now waits on approval ${pending.id}: ${questionText(pending)}`;
    throw new ScvError("USAGE", `${whatBecameOf(job, id, context.env)}; ${now}`);
  }
  if (!pending.answers.includes(input.answer)) {
    throw new ScvError(
      "USAGE",
      `${pending.agent} offers no "${input.answer}" for this question — answer ${pending.answers.join(", ")}`,
    );
  }
  const given = giveAnswer(job, id, input.answer, context.env);
  if (given === "gone") {
    throw new ScvError("USAGE", `${whatBecameOf(job, id, context.env)} — status shows the job`);
  }
  if (given === "taken")
    throw new ScvError("USAGE", `approval ${id} of ${job} was answered by another call first`);
  context.progress?.(
    `${input.answer === "reject" ? "rejected" : `allowed ${input.answer}`}: ${questionText(pending)}`,
  );
  return waitTool(wait, context);
}

/** What became of approval `id` of a running job that does not wait on it. */
function whatBecameOf(job: string, id: string, env: NodeJS.ProcessEnv): string {
  const fate = questionFate(job, id, env);
  if (fate === undefined) return `${job} never asked approval ${id}`;
  if (fate.state === "answered") return `approval ${id} of ${job} was answered already (${fate.answer})`;
  if (fate.state === "withdrawn") return `${job} stopped waiting for approval ${id} before it was answered`;
  return `approval ${id} of ${job} is no longer pending`;
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
    return { text: said, structured: { status: "cancelled", next: said, job: input.job }, isError: false };
  }
  const result = after.result;
  const answer = fitted(shownLimit(context.env), 1, (budget) => {
    const outcome = finishedOutcome(result, input.job, { budget, preface: said });
    // What the agent did is reported; the cancel itself did what was asked.
    return { outcome: { ...outcome, isError: false }, read: outcome.complete ? [input.job] : [] };
  });
  return delivered(answer, context.env);
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
    return { ...outcome, structured: { ...outcome.structured, ...state.progress, ...outcome.structured } };
  }
  const { result } = state;
  const job = input.job;
  const preface = `${job} has finished; its result stays until wait reads it.`;
  return fitted(shownLimit(context.env), 1, (budget) => ({
    outcome: { ...finishedOutcome(result, job, { budget, preface }), isError: false },
  })).outcome;
}
