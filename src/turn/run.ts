// Running a planned turn: ensure the agent's home and refuse it early when its key store says it is
// signed out; lock the conversation; register the turn; run the CLI and feed its stdout lines to the
// format's parser; then conclude (conclude.ts). Every agent goes through the same code: what differs
// is read from its descriptor.

import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { AdapterDescriptor } from "../adapters.js";
import { signInStore } from "../agents.js";
import { ScvError } from "../errors.js";
import { fallbackAgents, noteSignIn, wantsFallbacks } from "../fallbacks.js";
import { ensureAgentHome, ensurePrivateDir, tightenCredentialFiles } from "../home/agent-home.js";
import { lockConversation } from "../home/conversations.js";
import { inspectStore, type StoreInspection } from "../home/keystore.js";
import { removeIfPresent } from "../home/remove.js";
import { loadParser } from "../parsers/index.js";
import { MAX_REPLY_BYTES } from "../parsers/reply-lines.js";
import type { ParsedTurn, TurnEvent } from "../parsers/types.js";
import type { TurnResult } from "../result.js";
import { agentEnvironment } from "../transport/env.js";
import { createLineFramer } from "../transport/framing.js";
import { refuseGrantedMode, watchMode } from "../transport/mode.js";
import { type AgentProcess, startProcess } from "../transport/process.js";
import { busyError, isBusy } from "./busy.js";
import { conclude } from "./conclude.js";
import { verdictEvent, watchVerdict } from "./early-verdict.js";
import { failedResult, spawnFailure } from "./outcome.js";
import { planTurn } from "./plan.js";
import { interrupted } from "./stops.js";
import { trackTurn } from "./track.js";
import type { TurnContext, TurnPlan, TurnRequest } from "./types.js";
import { watchTurnEnd } from "./verdict.js";

/** Longer stderr lines are not read for events (a stack trace's one-line JSON dump). */
const STDERR_LINE_BYTES = 64 * 1024;

/** Runs a planned turn: home, sign-in check, lock, process, parse, record. Throws `ScvError` only
 * before the agent runs (signed out, conversation busy); afterwards every outcome is a result. */
export async function executeTurn(plan: TurnPlan, caller: TurnContext): Promise<TurnResult> {
  const started = Date.now();
  // Registered in $SCV_HOME/turns while it runs (track.ts), so scv ps and scv kill reach it
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
      : await untilAborted(
          lockConversation(plan.handle, context.env, context.lockWaitMs).catch((error: unknown) => {
            throw isBusy(error) ? busyError(plan.handle, context.env) : error;
          }),
          context.signal,
        );
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
    // The CLI's end-of-turn event starts a short grace to exit, after which it is ended with its
    // group (verdict.ts): a CLI, or a process it left holding stdout, never keeps a finished turn.
    const turnEnd = watchTurnEnd({
      graceMs: context.endGraceMs,
      stopping: () => child?.stopping === true,
      onOver: () => child?.terminate("cancelled"),
    });
    // A failure settled before the CLI's own end ends the CLI at once; a retry it was waiting on
    // names what a time limit cut short (early-verdict.ts).
    const verdicts = watchVerdict();
    const onEvents = (events: readonly TurnEvent[]) => {
      for (const event of events) {
        turnEnd.observe(event);
        context.onEvent?.(event, plan);
        mode.observe(event);
        const verdict = verdicts.observe(event, child?.stopping === true);
        if (verdict !== undefined) {
          context.onEvent?.(verdictEvent(verdict), plan);
          child?.terminate("cancelled");
        }
      }
    };
    const framer = createLineFramer({
      elision: parser.elision,
      replyLines: parser.replyLines,
      onLine: (line) => {
        onEvents(parser.push(line));
      },
      onOversized: () => parser.skipped(),
    });
    // What the CLI says only on stderr (Gemini CLI's retry notices), for parsers that read it.
    const readStderr = parser.stderr?.bind(parser);
    const stderrFramer =
      readStderr === undefined
        ? undefined
        : createLineFramer({
            maxLineBytes: STDERR_LINE_BYTES,
            onLine: (line) => onEvents(readStderr(line)),
            onOversized: () => {},
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
      ...(stderrFramer === undefined ? {} : { onStderr: (chunk: Buffer) => stderrFramer.push(chunk) }),
    });
    tracker.spawned(child.pid);
    const end = await child.done;
    // A last line without its newline is read first: it may be the verdict.
    framer.end();
    turnEnd.dispose();
    stderrFramer?.end();
    mode.finish();
    if (end.spawnError !== undefined) return spawnFailure(plan, end, started);
    if (end.pid === undefined) throw interrupted(context.signal, "interrupted before the agent started");
    const lastMessage = takeLastMessage(plan.lastMessageFile);
    const parsed = parser.finish({ ...end, lastMessage, verdictAfterStop: !turnEnd.verdictInTime });
    const checked =
      mode.mismatch !== undefined
        ? { ...withoutFailure(parsed), status: "failed" as const }
        : verdicts.early !== undefined
          ? { ...withoutFailure(parsed), status: "failed" as const, failure: verdicts.early }
          : parsed;
    return conclude(
      plan,
      checked,
      end,
      lastMessage,
      started,
      context,
      { reported: mode.reported, mismatch: mode.mismatch },
      verdicts.retrying,
    );
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
  noteSignIn(result.agent, result.exitCode, context.env);
  if (!wantsFallbacks(result.exitCode)) return result;
  return { ...result, fallbacks: await fallbackAgents(result.agent, context.config, context.env) };
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

function withoutFailure(parsed: ParsedTurn): ParsedTurn {
  const { failure: _failure, ...rest } = parsed;
  return rest;
}

/** Reads and removes the CLI's last-message file (bounded: it holds one message). */
function takeLastMessage(path: string | undefined): string | undefined {
  if (path === undefined || !existsSync(path)) return undefined;
  try {
    if (statSync(path).size > MAX_REPLY_BYTES) return undefined;
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  } finally {
    removeIfPresent(path);
  }
}

function agentOfHandle(handle: string | undefined): string | undefined {
  return handle?.replace(/-[0-9a-z]{6}(\.[0-9a-z]{8})?$/, "");
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
