// An ACP turn: the agent's ACP server, set up by the prepared turn (setup.ts: its private home,
// stripped environment, own process group, registered and reaped like any turn), initialized, a
// session made (`session/new` in the turn's cwd) or loaded (`session/load`, for a continued
// conversation, where the agent offers it), set up for the policy, model and effort
// (session-setup.ts), then one `session/prompt`. Its updates become the same normalized events a
// per-turn process gives; Ctrl-C, the time limit and `scv kill` send `session/cancel`. A recorded
// conversation's server runs in its session host (src/acp/session-host/), which keeps it for the next turn:
// such a turn finds the session there and skips start-up and `session/load` (a warm turn); any
// other turn's server is closed when the turn ends. Loaded only for an ACP turn.

import { isWaitable } from "../../duration.js";
import { ScvError } from "../../errors.js";
import type { ParsedTurn, ProcessEnd } from "../../parsers/event-types.js";
import type { ProcessExit } from "../../process/run.js";
import type { TurnResult } from "../../result.js";
import { timing } from "../../timing.js";
import type { ModeMismatch } from "../../transport/mode.js";
import { conclude } from "../../turn/conclude.js";
import { verdictEvent, watchVerdict } from "../../turn/early-verdict.js";
import { untilLoadable } from "../../turn/load-minute.js";
import { acpMcpServers } from "../../turn/mcp-servers.js";
import { failedResult, isLostSession } from "../../turn/outcome.js";
import type { PreparedTurn } from "../../turn/setup.js";
import type { TurnPlan } from "../../turn/turn-types.js";
import { AcpAgent, type SessionAnswer } from "../client/agent.js";
import { AcpAgentError } from "../client/agent-errors.js";
import { modeMismatch, reportedMode } from "../client/mode-watch.js";
import { optionOf, type PermissionAsk, type PermissionChoice, rejectChoice } from "../client/permission.js";
import { endOf, runAcpPrompt } from "../client/prompt-turn.js";
import { currentChoices, setUpSession } from "../client/session-setup.js";
import { createAcpTurnParser } from "../events/acp-parser.js";
import { rpcErrorCode } from "../events/acp-wire.js";
import { reachSessionHost, type SessionHostLaunch } from "../session-host/start.js";
import { offersCheck } from "./offer-check.js";

export async function runAcpTurn(plan: TurnPlan, turn: PreparedTurn): Promise<TurnResult> {
  const { entry } = plan;
  const { context, started, tracker } = turn;
  const acp = entry.acp;
  if (acp === null) throw new Error(`${entry.name} has no ACP launch`);
  const initializeLimit = Math.min(plan.timeoutMs ?? timing("initializeLimit"), timing("initializeLimit"));
  // Modes the sessions report outside a prompt (after session/set_mode), latest last.
  const reports: { sessionId: string; mode: string }[] = [];
  const launch = sessionHostLaunch(plan, turn);
  // A model or effort the server did not offer before is refused before a server starts.
  const offers = offersCheck(plan, launch, context.env);
  const refused = offers.refusal(started);
  if (refused !== undefined) return refused;
  const host = isWaitable(plan.sessionIdleMs) ? await reachSessionHost(launch) : undefined;
  // A session the host does not hold is loaded, after the wait for the minute the row may need.
  const held = host?.hello.session;
  const loading = plan.session?.kind === "continue" && held?.id !== plan.session.id;
  const waited = loading ? await untilLoadable(plan, context) : undefined;
  let agent: AcpAgent;
  try {
    agent = await AcpAgent.start({
      ...(host === undefined ? {} : { open: host.open }),
      file: plan.executable,
      args: plan.args,
      cwd: plan.cwd,
      env: turn.env,
      label: entry.name,
      initializeTimeoutMs: initializeLimit,
      ...(context.graceMs === undefined ? {} : { graceMs: context.graceMs }),
      ...(context.signal === undefined ? {} : { signal: context.signal }),
      onSpawn: (pid) => tracker.spawned(pid),
      onNotification: (method, params) => {
        const report = method === "session/update" ? reportedMode(params) : undefined;
        if (report !== undefined) reports.push(report);
      },
    });
  } catch (error) {
    if (!(error instanceof AcpAgentError)) throw error;
    return concludeFailure(plan, turn, error, timedOutAtStart(error, plan, initializeLimit));
  }

  try {
    let session: SessionAnswer;
    let mode: string | undefined;
    // A session/load the server answered with an error: the session may be gone.
    let loadRefused: { code: number | undefined } | undefined;
    try {
      const warm = plan.session?.kind === "continue" && !loading ? held : undefined;
      session =
        plan.session?.kind !== "continue"
          ? await agent.newSession(plan.cwd, acpMcpServers(plan.mcpServers ?? []))
          : warm !== undefined
            ? { sessionId: warm.id, raw: warm.answer }
            : await loadSession(agent, plan, plan.session.id).catch((error: unknown) => {
                if (error instanceof AcpAgentError && error.rpcError !== undefined)
                  loadRefused = { code: rpcErrorCode(error.rpcError) };
                throw error;
              });
      offers.keep(session.raw);
      // A warm session may still run an earlier turn's own model or effort: a turn that gives none
      // sets back the one the session began with.
      const began = warm?.first === undefined ? undefined : currentChoices(warm.first);
      const model = plan.model ?? began?.model;
      const effort = plan.effort ?? began?.effort;
      mode = await setUpSession({
        agent,
        session,
        product: entry.product,
        name: entry.name,
        policy: plan.policy,
        full: acp.full,
        // A model given at launch (the row's modelArgs) is the server's already.
        ...(model === undefined || acp.modelArgs !== undefined ? {} : { model }),
        ...(effort === undefined ? {} : { effort }),
      });
    } catch (error) {
      if (error instanceof ScvError) return failedResult(error, entry.name, started);
      if (!(error instanceof AcpAgentError)) throw error;
      return concludeFailure(plan, turn, error, false, loadRefused);
    }
    mode = reports.filter((report) => report.sessionId === session.sessionId).at(-1)?.mode ?? mode;
    const before = mode === undefined ? undefined : modeMismatch(entry.name, plan.policy, acp.full, mode);
    if (before !== undefined)
      return failedResult(
        new ScvError("AGENT_FAILED", `${before.error} — ${before.hint}`),
        entry.name,
        started,
      );

    // A mode reported during the prompt that contradicts the policy stops it, as for a process turn;
    // so does a failure settled before the agent's own end (a retried refused credential), and a
    // retry it was waiting on names what a time limit cut short (early-verdict.ts).
    let mismatch: ModeMismatch | undefined;
    const verdicts = watchVerdict();
    const stop = new AbortController();
    const signal =
      context.signal === undefined ? stop.signal : AbortSignal.any([context.signal, stop.signal]);

    const tools = new Map<string, { name: string; summary: string }>();
    const notes: string[] = waited === undefined ? [] : [waited];
    // A question still waiting when the prompt ends (its time ran out, it was cancelled: the agent was
    // answered `cancelled` already) stops waiting then.
    const prompting = new AbortController();
    const questions = AbortSignal.any([signal, prompting.signal]);
    const { turn: parsed, outcome } = await runAcpPrompt({
      agent,
      prompt: plan.prompt,
      sessionId: session.sessionId,
      ...(mode === undefined ? {} : { mode }),
      ...(acp.cumulativeUsage === undefined ? {} : { cumulativeUsage: acp.cumulativeUsage }),
      ...(acp.textNotices === undefined ? {} : { textNotices: acp.textNotices }),
      ...(acp.emptyTurnFails === undefined ? {} : { emptyTurnFails: acp.emptyTurnFails }),
      onEvent: (event) => {
        if (event.type === "tool-start") tools.set(event.id, { name: event.name, summary: event.summary });
        if (event.type === "mode" && mismatch === undefined) {
          mismatch = modeMismatch(entry.name, plan.policy, acp.full, event.mode);
          if (mismatch !== undefined) stop.abort();
        }
        tracker.context.onEvent?.(event, plan);
        const verdict = verdicts.observe(event, signal.aborted);
        if (verdict !== undefined) {
          tracker.context.onEvent?.(verdictEvent(verdict), plan);
          stop.abort();
        }
      },
      decide: (ask) => decide(plan, turn, ask, { tools, notes, signal: questions }),
      signal,
      // The turn's limit counts from its start, the server's start-up included.
      ...(plan.timeoutMs === undefined
        ? {}
        : { timeoutMs: Math.max(1, plan.timeoutMs - (Date.now() - started)) }),
      ...(plan.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: plan.idleTimeoutMs }),
    }).finally(() => prompting.abort());
    // An answered prompt is saved in the agent's session already: the server gets a moment to exit
    // by itself, then its group is ended (lab: the servers take 0.5 s to 2 s to wind down).
    const exit = outcome.kind === "ended" ? outcome.exit : await agent.close(timing("closeAfterAnswer"));
    const checked: ParsedTurn =
      mismatch !== undefined
        ? { ...withoutFailure(parsed), status: "failed" }
        : verdicts.early !== undefined
          ? { ...withoutFailure(parsed), status: "failed", failure: verdicts.early }
          : parsed;
    const result = conclude(
      withSession(plan, session.sessionId),
      {
        parsed: checked,
        end: processExit(endOf(outcome), exit),
        started,
        mode: { reported: mismatch?.reported ?? parsed.mode ?? mode, mismatch },
        retrying: verdicts.retrying,
      },
      context,
    );
    return notes.length === 0 ? result : { ...result, notes: [...result.notes, ...notes] };
  } finally {
    await agent.close();
  }
}

function withoutFailure(parsed: ParsedTurn): ParsedTurn {
  const { failure: _failure, ...rest } = parsed;
  return rest;
}

/** `session/load`, refused in one line where the agent does not offer it. */
async function loadSession(agent: AcpAgent, plan: TurnPlan, sessionId: string): Promise<SessionAnswer> {
  if (!agent.info.loadSession)
    throw new ScvError(
      "RESUME_UNSUPPORTED",
      `${plan.entry.product}'s ACP server cannot load an earlier session (it offers no loadSession) — start a new conversation`,
    );
  return agent.loadSession(sessionId, plan.cwd, acpMcpServers(plan.mcpServers ?? []));
}

/** How the turn's ACP server is launched: a recorded conversation's runs in its session host, kept
 * for the next turn; a turn that cannot have one runs the server itself. */
function sessionHostLaunch(plan: TurnPlan, turn: PreparedTurn): SessionHostLaunch {
  const { context } = turn;
  return {
    handle: plan.handle,
    agent: plan.entry.name,
    file: plan.executable,
    args: plan.args,
    cwd: plan.cwd,
    env: turn.env,
    policy: plan.policy,
    userTmp: plan.extraEnv.TMPDIR !== undefined,
    idleMs: plan.sessionIdleMs ?? 0,
    ...(context.config.max_warm_hosts === undefined ? {} : { maxWarm: context.config.max_warm_hosts }),
    ...(context.graceMs === undefined ? {} : { graceMs: context.graceMs }),
    scvEnv: context.env,
  };
}

/** A permission request: granted under `auto` (the policy approved it), asked of the caller under
 * `default` where one can answer, rejected otherwise, and said so in the result. */
async function decide(
  plan: TurnPlan,
  turn: PreparedTurn,
  ask: PermissionAsk,
  {
    tools,
    notes,
    signal,
  }: {
    /** The tools the prompt started, by id: what a request names. */
    readonly tools: ReadonlyMap<string, { name: string; summary: string }>;
    /** The turn's notes: a rejection said. */
    readonly notes: string[];
    /** Ends a question still waiting when the prompt ends. */
    readonly signal: AbortSignal;
  },
): Promise<PermissionChoice> {
  const once = optionOf(ask, "allow_once");
  const always = optionOf(ask, "allow_always");
  if (plan.policy === "auto") return once ?? always ?? rejectChoice(ask);
  const tool = (ask.toolCallId === undefined ? undefined : tools.get(ask.toolCallId)) ?? {
    name: "tool",
    summary: "",
  };
  const what = tool.summary === "" ? tool.name : `${tool.name}: ${tool.summary}`;
  const askCaller = turn.context.askPermission;
  if (askCaller === undefined) {
    notes.push(
      `${plan.entry.name} asked to run ${what}; scv rejected it, as no terminal could ask you — use --policy auto to allow its tools`,
    );
    return rejectChoice(ask);
  }
  const answer = await askCaller(
    {
      agent: plan.entry.name,
      tool: tool.name,
      summary: tool.summary,
      offers: { once: once !== undefined, always: always !== undefined },
    },
    signal,
  );
  if (answer === "once" && once !== undefined) return once;
  if (answer === "always" && always !== undefined) return always;
  if (answer === "unanswered") {
    notes.push(
      `${plan.entry.name} asked to run ${what}; the turn ended before it was answered, so it did not run`,
    );
    return rejectChoice(ask);
  }
  if (answer !== "reject") return once ?? always ?? rejectChoice(ask);
  notes.push(`you rejected ${plan.entry.name}'s ${what}`);
  return rejectChoice(ask);
}

/** A failure before the prompt ran, concluded like a turn: a refused request keeps its class
 * (auth, rate limit) from its JSON-RPC error, a time limit is a timeout. */
function concludeFailure(
  plan: TurnPlan,
  turn: PreparedTurn,
  error: AcpAgentError,
  timedOut: boolean,
  /** A `session/load` the server answered with an error, and its code. */
  loadRefused?: { code: number | undefined },
): TurnResult {
  const parser = createAcpTurnParser({ sessionId: "" });
  if (error.rpcError !== undefined) parser.rejected(error.rpcError);
  const exit: ProcessExit = error.exit ?? {
    exitCode: null,
    signal: null,
    stderrTail: "",
    durationMs: Date.now() - turn.started,
  };
  const termination = turn.context.signal?.aborted ? "cancelled" : timedOut ? "timeout" : undefined;
  // No session came of it.
  const { sessionId: _none, ...finished } = parser.finish({
    exitCode: exit.exitCode,
    signal: exit.signal,
    stderrTail: exit.stderrTail,
    ...(termination === undefined ? {} : { termination }),
  });
  // The agent's own words when its error said nothing scv classifies; a refused load of a session
  // the server no longer has says so.
  const failure =
    finished.status === "failed"
      ? (finished.failure ?? { kind: "other", message: error.message })
      : undefined;
  const lost =
    loadRefused !== undefined &&
    failure?.kind === "other" &&
    isLostSession(plan, failure.message, loadRefused.code);
  const parsed: ParsedTurn =
    failure === undefined
      ? finished
      : { ...finished, failure: lost ? { ...failure, kind: "lost-session" } : failure };
  // A first turn that made no session leaves no conversation; a continued one is still recorded.
  return conclude(
    plan.record === undefined ? { ...plan, recordConversation: false } : plan,
    { parsed, end: exit, started: turn.started },
    turn.context,
  );
}

/** Whether start-up ran into the turn's own time limit (exit 124) rather than scv's bound on it. */
function timedOutAtStart(error: AcpAgentError, plan: TurnPlan, limit: number): boolean {
  return error.reason === "initialize-timeout" && plan.timeoutMs !== undefined && plan.timeoutMs <= limit;
}

/** The plan with the session the agent made (or loaded), for the conversation record. */
function withSession(plan: TurnPlan, sessionId: string): TurnPlan {
  return { ...plan, session: { kind: plan.session?.kind ?? "start", id: sessionId } };
}

function processExit(end: ProcessEnd, exit: ProcessExit): ProcessExit {
  return {
    ...exit,
    exitCode: end.exitCode,
    signal: end.signal,
    ...(end.termination === undefined ? {} : { termination: end.termination }),
  };
}
