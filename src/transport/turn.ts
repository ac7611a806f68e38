// One turn of one agent, start to finish: resolve the agent (or the conversation being continued),
// its executable and settings; build argv and env; ensure its private home and refuse it early when
// its key store says it is signed out; lock the conversation; run the CLI and feed its stdout lines
// to the format's parser; classify the end; record the conversation. Every agent goes through the
// same code: what differs is read from its descriptor.

import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { nanoid } from "nanoid/non-secure";
import type { AdapterDescriptor, OutputFormatKind } from "../adapters.js";
import { installHint, locateAgent, requireAgent, signInStore } from "../agents.js";
import { agentSettings, type Config } from "../config.js";
import { formatDuration, parseDuration } from "../duration.js";
import { type ErrorCode, EXIT, type ExitCode, OUTPUT_CLOSED, ScvError } from "../errors.js";
import { fallbackAgents, wantsFallbacks } from "../fallbacks.js";
import { ensureAgentHome, ensurePrivateDir, tightenCredentialFiles } from "../home/agent-home.js";
import {
  type ConversationRecord,
  lockConversation,
  newHandle,
  preview,
  readConversation,
  recordExists,
  writeConversation,
} from "../home/conversations.js";
import { inspectStore, type StoreInspection } from "../home/keystore.js";
import { agentHome, configCandidates, type Env } from "../home/paths.js";
import { removeIfPresent } from "../home/remove.js";
import { KILL_REASON, refuseTooDeep, trackTurn } from "../home/running.js";
import { turnExists } from "../home/turn-files.js";
import { loadParser } from "../parsers/load.js";
import type { ParsedTurn, StreamParser, TurnEvent, Usage } from "../parsers/types.js";
import { addUsage, cumulativeWentDown, turnShare } from "../parsers/usage.js";
import { randomUUID } from "../random.js";
import type { TurnResult } from "../result.js";
import { isoTimestamp } from "../timestamp.js";
import { buildAgentCommand, checkEffort, checkModel, isValidSessionId, type SessionArg } from "./argv.js";
import { agentEnvironment, type Policy } from "./env.js";
import { createLineFramer } from "./framing.js";
import { type ModeMismatch, refuseGrantedMode, watchMode } from "./mode.js";
import { type AgentProcess, type ProcessExit, startProcess } from "./process.js";

export interface TurnRequest {
  /** The agent of a first turn; with `continue`, it must be the conversation's agent if given. */
  readonly agent?: string;
  /** The handle of the conversation to continue. */
  readonly continue?: string;
  readonly prompt: string;
  readonly model?: string;
  readonly effort?: string;
  readonly policy?: Policy;
  /** The project folder, relative to the context's cwd. */
  readonly cwd?: string;
  readonly timeoutMs?: number;
  readonly idleTimeoutMs?: number;
  /** Extra variables for the agent (`--env`), set after isolation like the config's. */
  readonly env?: Readonly<Record<string, string>>;
  /** False for a turn that leaves no conversation record (a sign-in check's probe). */
  readonly record?: boolean;
  /** The handle of a first turn, chosen by the caller (a background turn's launcher prints it
   * before the turn runs); ignored when continuing. */
  readonly handle?: string;
}

export interface TurnContext {
  /** scv's own environment: SCV_HOME, PATH and HOME are read from it, and the agent's environment is
   * made from it. */
  readonly env: Env;
  /** scv's working directory. */
  readonly cwd: string;
  readonly config: Config;
  /** Aborting ends the turn's process group; `signal.reason` says how the turn ends (`STOPS`: "SIGTERM"
   * exits 143, "SIGHUP" 129, anything unknown 130). */
  readonly signal?: AbortSignal;
  /** Every normalized event, as the parser produces it (and a `mode` event for a mode read outside
   * the stream), with the turn it belongs to. */
  readonly onEvent?: (event: TurnEvent, turn: TurnPlan) => void;
  /** How long a continued turn waits for another turn of its conversation. */
  readonly lockWaitMs?: number;
  /** Between SIGTERM and SIGKILL when scv ends the process group. */
  readonly graceMs?: number;
  readonly now?: () => Date;
  /** The parser of an output format; defaults to the format's own (tests inject one). */
  readonly parserFor?: (format: OutputFormatKind) => StreamParser;
  /** Tells whether an agent is signed in before it is spawned; defaults to its key store. */
  readonly signInCheck?: (entry: AdapterDescriptor, home: string) => Promise<StoreInspection | undefined>;
  /** Set for a background turn: `onStarted` is called once its agent runs, and its running record
   * is left for the background runner to replace with the result (home/running.ts). */
  readonly background?: { readonly onStarted: () => void };
}

/** How long a CLI may stay silent after reporting a terminal error before scv ends it. */
const TERMINAL_ERROR_GRACE_MS = 2_000;

/** Everything decided before anything is written or spawned. */
export interface TurnPlan {
  readonly entry: AdapterDescriptor;
  readonly executable: string;
  /** The arguments after the executable. */
  readonly args: readonly string[];
  /** The prompt, for a CLI that reads it on stdin (the row's `prompt`). */
  readonly stdin?: string;
  readonly home: string;
  readonly cwd: string;
  readonly handle: string;
  /** The record being continued; undefined for a first turn. */
  readonly record?: ConversationRecord;
  readonly session?: SessionArg;
  readonly model?: string;
  readonly effort?: string;
  readonly policy: Policy;
  readonly timeoutMs?: number;
  readonly idleTimeoutMs?: number;
  readonly extraEnv: Readonly<Record<string, string>>;
  /** Where the CLI writes its final message (`{file}` of the format's last-message args). */
  readonly lastMessageFile?: string;
  readonly prompt: string;
  /** Whether the turn's conversation is recorded. */
  readonly recordConversation: boolean;
}

/** Resolves and validates a request without side effects; throws `ScvError` for what the user must
 * fix (unknown agent or conversation, bad value, CLI not installed). */
export function planTurn(request: TurnRequest, context: TurnContext): TurnPlan {
  refuseTooDeep(context.env, context.config);
  const record = request.continue === undefined ? undefined : readConversation(request.continue, context.env);
  if (record !== undefined && request.agent !== undefined && request.agent !== record.agent) {
    throw new ScvError(
      "USAGE",
      `conversation ${record.handle} belongs to ${record.agent}, not ${request.agent} — drop the agent name when continuing`,
    );
  }
  const name = record?.agent ?? request.agent;
  if (name === undefined) throw new ScvError("USAGE", "no agent named — scv delegate <agent> <prompt>");
  const entry = requireAgent(name);
  if (!entry.cliTurns) {
    throw new ScvError(
      "USAGE",
      `${entry.product} has no verified one-turn command line (scv would need its ACP server) — delegate to another agent`,
    );
  }

  let session: SessionArg | undefined;
  if (record !== undefined) {
    if (entry.resume.kind === "unsupported") {
      throw new ScvError(
        "RESUME_UNSUPPORTED",
        `${entry.product} cannot continue a conversation — start a new one`,
      );
    }
    if (record.sessionId === undefined) {
      throw new ScvError(
        "UNKNOWN_CONVERSATION",
        `conversation ${record.handle} has no ${entry.product} session to continue — start a new one`,
      );
    }
    session = { kind: "continue", id: record.sessionId };
  } else if (entry.resume.kind === "supported" && entry.resume.start.length > 0) {
    // This CLI lets the caller choose the id, so the conversation is known before the turn runs.
    session = { kind: "start", id: randomUUID() };
  }

  const settings = agentSettings(context.config, entry.name);
  const model = request.model ?? (record !== undefined ? record.model : settings.model);
  const effort = request.effort ?? (record !== undefined ? record.effort : settings.effort);
  const policy = request.policy ?? record?.policy ?? settings.policy ?? "default";
  // A model or effort the config file gave is the file's to fix, not a flag's.
  if (record === undefined && request.model === undefined && model !== undefined)
    checkConfigured(context.env, entry, "model", () => checkModel(entry, model));
  if (record === undefined && request.effort === undefined && effort !== undefined)
    checkConfigured(context.env, entry, "effort", () => checkEffort(entry, effort));
  const cwd = projectDir(
    request.cwd === undefined ? (record?.cwd ?? context.cwd) : resolve(context.cwd, request.cwd),
  );
  // CLIs keep their sessions per project folder (Claude, Gemini): resumed elsewhere, the session is
  // not found, and the record would move for every later turn.
  if (record !== undefined && !sameFolder(cwd, record.cwd)) {
    throw new ScvError(
      "USAGE",
      `conversation ${record.handle} works in ${record.cwd} — drop --cwd to continue it there, or start a new conversation in ${cwd}`,
    );
  }
  const timeoutMs = request.timeoutMs ?? configDuration(settings.timeout);
  const idleTimeoutMs = request.idleTimeoutMs ?? configDuration(settings.idle_timeout);

  const home = agentHome(entry.name, context.env);
  const lastMessageFile =
    entry.output.kind === "codex-jsonl" ? join(home, ".scv", `last-message-${nanoid(10)}.txt`) : undefined;
  const { args, stdin } = buildAgentCommand({
    entry,
    prompt: request.prompt,
    policy,
    model,
    effort,
    session,
    lastMessageFile,
  });

  const executable = locateAgent(entry, context.config, context.env);
  const configured = context.config.agents?.[entry.name]?.command;
  if (executable === undefined && configured?.includes("/") && existsSync(resolve(context.cwd, configured))) {
    throw new ScvError(
      "AGENT_NOT_INSTALLED",
      `${configured} ([agents.${entry.name}] command in scv's config) is not an executable file — chmod +x it, or point command at the CLI itself`,
    );
  }
  if (executable === undefined) {
    throw new ScvError(
      "AGENT_NOT_INSTALLED",
      `${entry.product} is not installed ('${configured ?? entry.command}' not found) — ${installHint(entry, configured)}`,
    );
  }

  return {
    entry,
    executable,
    args,
    stdin,
    home,
    cwd,
    handle: record?.handle ?? request.handle ?? freshHandle(entry.name, context.env),
    record,
    session,
    model,
    effort,
    policy,
    timeoutMs,
    idleTimeoutMs,
    extraEnv: { ...settings.env, ...request.env },
    lastMessageFile,
    prompt: request.prompt,
    recordConversation: request.record ?? true,
  };
}

/** Runs a planned turn: home, sign-in check, lock, process, parse, record. Throws `ScvError` only
 * before the agent runs (signed out, conversation busy); afterwards every outcome is a result. */
export async function executeTurn(plan: TurnPlan, caller: TurnContext): Promise<TurnResult> {
  const started = Date.now();
  // Registered in $SCV_HOME/turns while it runs (home/running.ts), so scv ps and scv kill reach it
  // and what a killed scv leaves behind is found; its signal also ends on scv kill.
  const tracker = trackTurn(caller);
  const context = tracker.context;
  const { entry, home } = plan;
  ensureAgentHome(entry.name, context.env);
  await refuseSignedOut(entry, home, context);
  refuseGrantedMode(entry, plan.policy, home);

  const release =
    plan.record === undefined
      ? undefined
      : await untilAborted(lockConversation(plan.handle, context.env, context.lockWaitMs), context.signal);
  try {
    if (plan.lastMessageFile !== undefined) ensurePrivateDir(join(home, ".scv"), home);
    const env = agentEnvironment({
      parent: context.env,
      entry,
      home,
      policy: plan.policy,
      extra: plan.extraEnv,
      isolation: context.config.isolation,
    });
    // The turn's tag and depth, scv's home and config and its own TMPDIR, set after isolation
    // removed every SCV_* variable.
    Object.assign(env, await tracker.register(plan));
    // A TMPDIR set for this agent in scv's config is the user's choice, and stays.
    if (plan.extraEnv.TMPDIR !== undefined) env.TMPDIR = plan.extraEnv.TMPDIR;
    const parser = context.parserFor?.(entry.output.kind) ?? (await loadParser(entry.output.kind))();
    // Set right below; events and rollout looks only arrive once the process runs.
    let child: AgentProcess | undefined;
    const mode = watchMode({
      entry,
      policy: plan.policy,
      home,
      started,
      onReport: (event) => context.onEvent?.(event, plan),
      // The agent must not go on in a mode its policy forbids; "cancelled" is rewritten below.
      onMismatch: () => child?.terminate("cancelled"),
    });
    // After a terminal error the CLI should exit; one that goes quiet instead (amp at its login
    // prompt) is ended: its turn has failed already, so the parser's failure stays the result.
    let afterTerminalError: NodeJS.Timeout | undefined;
    // Whether the CLI gave its verdict (a terminal event) before scv began ending it.
    let verdictInTime = false;
    const framer = createLineFramer({
      elision: parser.elision,
      onLine: (line) => {
        afterTerminalError?.refresh();
        for (const event of parser.push(line)) {
          if ((event.type === "turn-end" || (event.type === "error" && event.terminal)) && !child?.stopping)
            verdictInTime = true;
          context.onEvent?.(event, plan);
          mode.observe(event);
          if (event.type === "error" && event.terminal)
            afterTerminalError ??= setTimeout(
              () => child?.terminate("cancelled"),
              TERMINAL_ERROR_GRACE_MS,
            ).unref();
        }
      },
      onOversized: () => parser.skipped(),
    });
    child = startProcess({
      file: plan.executable,
      args: plan.args,
      stdin: plan.stdin,
      cwd: plan.cwd,
      env,
      timeoutMs: plan.timeoutMs,
      idleTimeoutMs: plan.idleTimeoutMs,
      graceMs: context.graceMs,
      signal: context.signal,
      onStdout: (chunk) => framer.push(chunk),
    });
    tracker.spawned(child.pid);
    const end = await child.done;
    clearTimeout(afterTerminalError);
    framer.end();
    mode.finish();
    if (end.spawnError !== undefined) return spawnFailure(plan, end, started);
    if (end.pid === undefined) throw interrupted(context.signal, "interrupted before the agent started");
    const lastMessage = takeLastMessage(plan.lastMessageFile);
    const parsed = parser.finish({ ...end, lastMessage, verdictAfterStop: !verdictInTime });
    const checked =
      mode.mismatch === undefined ? parsed : { ...withoutFailure(parsed), status: "failed" as const };
    return conclude(plan, checked, end, lastMessage, started, context, {
      reported: mode.reported,
      mismatch: mode.mismatch,
    });
  } finally {
    if (plan.lastMessageFile !== undefined) removeIfPresent(plan.lastMessageFile);
    tightenCredentialFiles(home, entry.credentialFiles);
    // Before the conversation's lock goes: the next turn of it registers under the same handle.
    await tracker.end();
    await release?.();
  }
}

/** A whole turn; never throws an `ScvError`: what the user must fix comes back as a failed result
 * with its exit code. */
export async function runTurn(request: TurnRequest, context: TurnContext): Promise<TurnResult> {
  const started = Date.now();
  let result: TurnResult;
  try {
    result = await executeTurn(planTurn(request, context), context);
  } catch (error) {
    if (!(error instanceof ScvError)) throw error;
    result = failedResult(error, request.agent ?? agentOfHandle(request.continue), started);
  }
  if (!wantsFallbacks(result.exitCode)) return result;
  return { ...result, fallbacks: await fallbackAgents(result.agent, context.config, context.env) };
}

/** A result for a turn that never ran. */
export function failedResult(error: ScvError, agent: string | undefined, started = Date.now()): TurnResult {
  const [what, hint] = splitMessage(error.message);
  return {
    reply: "",
    status: Object.values(STOPS).some((stop) => stop.exitCode === error.exitCode) ? "cancelled" : "failed",
    agent: agent ?? "",
    conversation: null,
    session: null,
    usage: null,
    cost: null,
    duration: Math.max(0, Date.now() - started),
    exitCode: error.exitCode,
    error: what,
    hint: hint ?? null,
    fallbacks: [],
    notes: [],
    mode: null,
    badLines: 0,
  };
}

/** The one line a failed result prints on stderr: "what happened — what to do". */
export function failureLine(result: TurnResult): string | undefined {
  if (result.error === null) return undefined;
  return result.hint === null ? result.error : `${result.error} — ${result.hint}`;
}

async function refuseSignedOut(entry: AdapterDescriptor, home: string, context: TurnContext): Promise<void> {
  const check = context.signInCheck ?? storedSignIn;
  const inspection = await check(entry, home);
  if (inspection?.state === "signed-out") {
    // A signed-out CLI may retry its network for minutes (codex exec) or wait for a login code (amp).
    throw new ScvError(
      "NOT_SIGNED_IN",
      `${entry.product} is not signed in (${inspection.detail}) — run: scv agents login ${entry.name}`,
    );
  }
}

/** The key store's verdict where the descriptor names one (its stored status, else its preflight
 * store); CLIs whose sign-in no file tells are left to fail on their own. */
async function storedSignIn(entry: AdapterDescriptor, home: string): Promise<StoreInspection | undefined> {
  const store = signInStore(entry);
  return store === undefined ? undefined : inspectStore(store, home);
}

function conclude(
  plan: TurnPlan,
  parsed: ParsedTurn,
  end: ProcessExit,
  lastMessage: string | undefined,
  started: number,
  context: TurnContext,
  mode: { reported?: string; mismatch?: ModeMismatch },
): TurnResult {
  const { entry } = plan;
  const notes: string[] = [];
  let confirmed: string | undefined;
  if (parsed.sessionId !== undefined) {
    if (isValidSessionId(entry, parsed.sessionId)) confirmed = parsed.sessionId;
    else
      notes.push(
        `${entry.product} reported a session id scv does not accept (not its documented shape); it was not recorded`,
      );
  }
  if (
    parsed.badLines > 0 &&
    lastMessage !== undefined &&
    lastMessage !== "" &&
    parsed.reply === lastMessage
  ) {
    notes.push(
      `the reply was read from ${entry.product}'s last-message file: its stream had unreadable lines`,
    );
  }
  confirmed ??= startedSession(plan);
  const sessionId = confirmed ?? plan.session?.id;

  // Read once: the turn's usage share and the updated record both start from it.
  const previous = latestRecord(plan, context.env);
  const turnUsage = usageOfTurn(parsed, previous?.cumulative);
  // A first turn is recorded when it completed, or when its session exists on the CLI's side (so a
  // failed or stopped turn can still be continued); a continued turn always updates its record.
  let record: ConversationRecord | undefined;
  const recordable = plan.record !== undefined || parsed.status === "completed" || confirmed !== undefined;
  if (plan.recordConversation && recordable) {
    try {
      record = saveRecord(plan, parsed, sessionId, turnUsage, previous, context);
    } catch (error) {
      // The reply is here already; losing the record must not lose it.
      if (!(error instanceof ScvError)) throw error;
      notes.push(`this turn is not recorded: ${error.message}`);
    }
  }

  const exitCode = exitCodeOf(parsed, context.signal);
  const [error, hint] =
    mode.mismatch === undefined
      ? describeFailure(plan, parsed, end, context.signal?.reason)
      : [mode.mismatch.error, mode.mismatch.hint];
  return {
    reply: parsed.reply,
    status: parsed.status,
    agent: entry.name,
    conversation: record?.handle ?? null,
    session: sessionId ?? null,
    usage: turnUsage ?? null,
    cost: turnUsage?.costUsd ?? null,
    duration: Math.max(0, Date.now() - started),
    exitCode,
    error,
    hint,
    fallbacks: [],
    notes,
    mode: mode.reported ?? null,
    badLines: parsed.badLines,
  };
}

function saveRecord(
  plan: TurnPlan,
  parsed: ParsedTurn,
  sessionId: string | undefined,
  turnUsage: Usage | undefined,
  previous: ConversationRecord | undefined,
  context: TurnContext,
): ConversationRecord {
  const now = isoTimestamp(context.now?.());
  const record: ConversationRecord = {
    ...previous,
    handle: plan.handle,
    agent: plan.entry.name,
    sessionId: sessionId ?? previous?.sessionId,
    cwd: plan.cwd,
    model: plan.model,
    effort: plan.effort,
    policy: plan.policy,
    createdAt: previous?.createdAt ?? now,
    updatedAt: now,
    turns: (previous?.turns ?? 0) + 1,
    lastPrompt: preview(plan.prompt),
    usage: turnUsage === undefined ? (previous?.usage ?? {}) : { ...addUsage(previous?.usage, turnUsage) },
    cumulative: parsed.cumulativeUsage && parsed.usage !== undefined ? { ...parsed.usage } : undefined,
    lastStatus: parsed.status,
  };
  writeConversation(record, context.env);
  return record;
}

/** A continued conversation's record as it is now, under the turn's lock: another turn of it may
 * have ended while this one waited for the lock (planned from the record before it). */
function latestRecord(plan: TurnPlan, env: Env): ConversationRecord | undefined {
  if (plan.record === undefined) return undefined;
  try {
    return readConversation(plan.handle, env);
  } catch {
    return plan.record;
  }
}

function exitCodeOf(parsed: ParsedTurn, signal: AbortSignal | undefined): ExitCode {
  switch (parsed.status) {
    case "completed":
      return EXIT.ok;
    case "timeout":
      return EXIT.timeout;
    case "cancelled":
      return stopExitCode(signal);
    case "failed":
    case "declined":
      switch (parsed.failure?.kind) {
        case "auth":
          return EXIT.auth;
        case "rate-limit":
          return EXIT.rateLimited;
        default:
          return EXIT.agentFailed;
      }
    default:
      return EXIT.agentFailed;
  }
}

function describeFailure(
  plan: TurnPlan,
  parsed: ParsedTurn,
  end: ProcessExit,
  stopReason?: unknown,
): [string | null, string | null] {
  const { entry } = plan;
  const name = entry.name;
  const why = firstLine(parsed.failure?.message);
  switch (parsed.status) {
    case "completed":
      return [null, null];
    case "timeout":
      return end.termination !== "idle-timeout"
        ? [
            `${name} timed out after ${formatDuration(plan.timeoutMs ?? 0)}`,
            `raise --timeout (or [agents.${name}] timeout in scv's config)`,
          ]
        : [
            `${name} printed nothing for ${formatDuration(plan.idleTimeoutMs ?? 0)}`,
            `raise --idle-timeout (or [agents.${name}] idle_timeout in scv's config)`,
          ];
    case "cancelled":
      return [`${name} ${stopOf(stopReason).ended}`, null];
    case "declined":
      return [`${name} declined the turn${why ? `: ${why}` : ""}`, null];
    case "failed":
      switch (parsed.failure?.kind) {
        case "auth":
          return [`${name} failed to authenticate${why ? `: ${why}` : ""}`, `run: scv agents login ${name}`];
        case "rate-limit":
          return [
            `${name} is rate limited${why ? `: ${why}` : ""}`,
            parsed.failure.resetsAt ? `retry after ${parsed.failure.resetsAt}` : "wait, then retry",
          ];
        case "billing":
          return [
            `${name} was refused for billing${why ? `: ${why}` : ""}`,
            "check the account's plan or credits",
          ];
        case "model":
          return [
            `${name} cannot use ${plan.model === undefined ? "its model" : `the model ${plan.model}`}${why ? `: ${why}` : ""}`,
            `pick one it can use: scv delegate ${name}:<model> …, or [agents.${name}] model in scv's config`,
          ];
        case "root-refused":
          return [
            `${name} refused its full-permission mode as root${why ? `: ${why}` : ""}`,
            "run scv as a non-root user, or use --policy default",
          ];
        default:
          return [`${name} failed${why ? `: ${why}` : ""}`, `check it with: scv agents check ${name}`];
      }
    default:
      return [`${name} failed`, null];
  }
}

/** scv's id for a new session, when the CLI's files show it started that session although its stream
 * did not say so (a turn stopped before its last line: the row's `sessionPath`). */
function startedSession(plan: TurnPlan): string | undefined {
  const { resume } = plan.entry;
  if (plan.session?.kind !== "start" || resume.kind !== "supported" || resume.sessionPath === undefined)
    return undefined;
  const path = join(plan.home, resume.sessionPath.replace("{session}", plan.session.id));
  return existsSync(path) ? plan.session.id : undefined;
}

/** The longest failure text a result carries: an agent may print megabytes on one stderr line. */
const MAX_FAILURE_CHARS = 400;

/** The error's first line, for the one-line message; continued while a `[` it opened is still open
 * (Gemini CLI wraps a multi-line API error in brackets, its retry hint on the last line). */
function firstLine(message: string | undefined): string | undefined {
  const lines = (message ?? "")
    .split("\n")
    .map((each) => each.trim())
    .filter((each) => each !== "");
  let line = lines[0];
  if (line === undefined) return undefined;
  for (let next = 1; next < lines.length && opensBracket(line); next += 1) line = `${line} ${lines[next]}`;
  return line.length <= MAX_FAILURE_CHARS ? line : `${line.slice(0, MAX_FAILURE_CHARS - 1)}…`;
}

function opensBracket(text: string): boolean {
  return text.split("[").length > text.split("]").length;
}

function withoutFailure(parsed: ParsedTurn): ParsedTurn {
  const { failure: _failure, ...rest } = parsed;
  return rest;
}

function spawnFailure(plan: TurnPlan, end: ProcessExit, started: number): TurnResult {
  const agent = plan.entry.name;
  if (end.spawnError?.code !== "ENOENT") {
    const reason = end.spawnError?.message ?? "unknown error";
    const error = new ScvError(
      "AGENT_FAILED",
      `could not start ${plan.executable}: ${reason} — check that it is executable`,
    );
    return failedResult(error, agent, started);
  }
  // ENOENT for a file that is there: what exec could not find is the interpreter its #! line names.
  const error = existsSync(plan.executable)
    ? new ScvError(
        "AGENT_FAILED",
        `could not start ${plan.executable}: the interpreter its first line (#!) names was not found — reinstall it, or fix that line`,
      )
    : new ScvError("AGENT_NOT_INSTALLED", `${plan.executable} vanished — ${installHint(plan.entry)}`);
  return failedResult(error, agent, started);
}

/** Reads and removes the CLI's last-message file (bounded: it holds one message). */
function takeLastMessage(path: string | undefined): string | undefined {
  if (path === undefined || !existsSync(path)) return undefined;
  try {
    if (statSync(path).size > 8 * 1024 * 1024) return undefined;
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  } finally {
    removeIfPresent(path);
  }
}

/** This turn's usage: as reported, or its share of a running total across resumed turns (a total
 * below the previous one means the CLI's counter restarted, so all of it is this turn's). */
function usageOfTurn(parsed: ParsedTurn, previousTotal: Usage | undefined): Usage | undefined {
  if (parsed.usage === undefined || !parsed.cumulativeUsage || previousTotal === undefined)
    return parsed.usage;
  return cumulativeWentDown(parsed.usage, previousTotal)
    ? parsed.usage
    : turnShare(parsed.usage, previousTotal);
}

function projectDir(dir: string): string {
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new ScvError("USAGE", `no directory ${dir} — pass an existing project folder with --cwd`);
  return dir;
}

function sameFolder(a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true;
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

function configDuration(text: string | undefined): number | undefined {
  return text === undefined ? undefined : parseDuration(text);
}

function freshHandle(agent: string, env: Env): string {
  for (;;) {
    const handle = newHandle(agent);
    if (!recordExists(handle, env) && !turnExists(handle, env)) return handle;
  }
}

function agentOfHandle(handle: string | undefined): string | undefined {
  return handle?.replace(/-[0-9a-z]{6}$/, "");
}

/** Splits "what happened — what to do" at its last dash. */
/** Runs `check` on a value of `[agents.<name>] key` in scv's config; its failure names the file and
 * the key, as the config's own checks do. */
function checkConfigured(env: Env, entry: AdapterDescriptor, key: string, check: () => void): void {
  try {
    check();
  } catch (error) {
    if (!(error instanceof ScvError)) throw error;
    const [what, hint] = splitMessage(error.message);
    const file = configCandidates(env).find((path) => existsSync(path)) ?? "scv's config";
    // The check's own hint says what would do, unless it is about the flag ("omit --effort").
    const fix =
      hint === undefined || hint.startsWith("omit ")
        ? "remove it"
        : `${hint.replace(/\.$/, "")}; or remove it`;
    throw new ScvError("BAD_CONFIG", `${file}: agents.${entry.name}.${key}: ${what} — ${fix}`);
  }
}

function splitMessage(message: string): [string, string | undefined] {
  const at = message.lastIndexOf(" — ");
  return at === -1 ? [message, undefined] : [message.slice(0, at), message.slice(at + 3)];
}

function interrupted(signal: AbortSignal | undefined, message: string): ScvError {
  return new ScvError(stopOf(signal?.reason).code, message);
}

interface Stop {
  readonly exitCode: ExitCode;
  readonly code: ErrorCode;
  /** What became of the agent, after its name. */
  readonly ended: string;
}

/** How a turn stopped from outside ends, by the abort reason: SIGTERM to scv and `scv kill` alike
 * (exit 143), a closed terminal as a shell's jobs end (129), a closed stdout as a pipe writer on
 * SIGPIPE (141), anything else as an interruption (130). */
const INTERRUPTED: Stop = { exitCode: EXIT.interrupted, code: "INTERRUPTED", ended: "was interrupted" };
const STOPS: Readonly<Record<string, Stop>> = {
  SIGINT: INTERRUPTED,
  SIGTERM: { exitCode: EXIT.terminated, code: "TERMINATED", ended: "was stopped (scv got SIGTERM)" },
  [KILL_REASON]: { exitCode: EXIT.terminated, code: "TERMINATED", ended: "was stopped by scv kill" },
  SIGHUP: { exitCode: EXIT.hangup, code: "HANGUP", ended: "was stopped: scv's terminal closed (SIGHUP)" },
  [OUTPUT_CLOSED]: {
    exitCode: EXIT.outputClosed,
    code: "OUTPUT_CLOSED",
    ended: "was stopped: scv's output was closed",
  },
};

function stopOf(reason: unknown): Stop {
  return (typeof reason === "string" ? STOPS[reason] : undefined) ?? INTERRUPTED;
}

function stopExitCode(signal: AbortSignal | undefined): ExitCode {
  return stopOf(signal?.reason).exitCode;
}

/** Waits for `promise` unless `signal` aborts first; a lock taken after the abort is released. */
async function untilAborted<T extends () => Promise<void>>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
): Promise<T> {
  if (signal === undefined) return promise;
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      void promise.then((release) => release()).catch(() => {});
      reject(interrupted(signal, "interrupted while waiting for the conversation"));
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([promise, aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}
