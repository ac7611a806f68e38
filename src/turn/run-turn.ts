// Running a planned turn. What every turn does around its agent (home, early refusals, lock,
// environment, registration) is setup.ts's; here a per-turn CLI runs and its stdout lines feed the
// format's parser, while verdict.ts ends a CLI that lingers after its end-of-turn event and
// early-verdict.ts one that retries a refused credential; then conclude (conclude.ts). An ACP turn
// is run-acp.ts's. Every agent goes through the same code: what differs is read from its descriptor.

import { existsSync } from "node:fs";
import { join } from "node:path";
import { accountLabel, DEFAULT_ACCOUNT } from "../accounts.js";
import { adapter } from "../adapters.js";
import { asFileError, EXIT, ScvError } from "../errors.js";
import { ensurePrivateDir } from "../home/agent-home.js";
import { type ConversationRecord, readConversation } from "../home/conversations.js";
import { removeIfPresent } from "../home/remove.js";
import { readStateText } from "../home/state-file.js";
import type { ParsedTurn, TurnEvent } from "../parsers/event-types.js";
import { loadParser } from "../parsers/index.js";
import { MAX_REPLY_BYTES } from "../parsers/reply-lines.js";
import { type AgentProcess, startProcess } from "../process/run.js";
import type { TurnResult } from "../result.js";
import { createLineFramer } from "../transport/framing.js";
import { watchMode } from "../transport/mode.js";
import { accountLadder, runOnAccounts } from "./accounts-in-order.js";
import { conclude } from "./conclude.js";
import { verdictEvent, watchVerdict } from "./early-verdict.js";
import { fallbackAgents, noteSignIn, wantsFallbacks } from "./fallbacks.js";
import { failedResult, spawnFailure } from "./outcome.js";
import { planTurn } from "./plan.js";
import { type PreparedTurn, withPreparedTurn } from "./setup.js";
import { interrupted } from "./stops.js";
import type { TurnContext, TurnPlan, TurnRequest } from "./turn-types.js";
import { watchTurnEnd } from "./turn-verdict.js";

/** Longer stderr lines are not read for events (a stack trace's one-line JSON dump). */
const STDERR_LINE_BYTES = 64 * 1024;

/** Runs a planned turn: home, sign-in check, lock, process, parse, record. Throws `ScvError` only
 * before the agent runs (signed out, conversation busy); afterwards every outcome is a result. An
 * ACP turn's code (and the SDK) is loaded only for an ACP turn. */
async function executeTurn(plan: TurnPlan, caller: TurnContext): Promise<TurnResult> {
  const run =
    plan.transport === "acp"
      ? (await import("../acp/turn/run-acp-turn.js")).runAcpTurn
      : (turnPlan: TurnPlan, turn: PreparedTurn) => runProcessTurn(turnPlan, turn);
  if (plan.worktree === undefined) return withPreparedTurn(plan, caller, (turn) => run(plan, turn));
  // In its conversation's worktree: what the turn changed is committed on its branch before the
  // conversation's lock and the turn's registration go (turn/worktree.ts).
  // Loaded only for such a turn: git's plumbing is no plain turn's.
  const { finishWorktreeTurn, tipBeforeTurn } = await import("./worktree.js");
  return withPreparedTurn(plan, caller, async (turn) => {
    const since = await tipBeforeTurn(plan, turn.context.env);
    const result = await run(plan, turn);
    return finishWorktreeTurn(plan, result, since, turn.context);
  });
}

async function runProcessTurn(
  plan: TurnPlan,
  { context, env, tracker, started, args }: PreparedTurn,
): Promise<TurnResult> {
  const { entry, home } = plan;
  try {
    if (plan.lastMessageFile !== undefined) ensurePrivateDir(join(home, ".scv"), home);
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
    // What the CLI says only on stderr (retry notices, for some), for parsers that read it.
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
      args,
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
      {
        parsed: checked,
        end,
        lastMessage,
        started,
        mode: { reported: mode.reported, mismatch: mode.mismatch },
        retrying: verdicts.retrying,
      },
      context,
    );
  } finally {
    if (plan.lastMessageFile !== undefined) removeIfPresent(plan.lastMessageFile);
  }
}

/** A whole turn; never throws an `ScvError`: what the user must fix comes back as a failed result
 * with its exit code. */
export async function runTurn(request: TurnRequest, context: TurnContext): Promise<TurnResult> {
  const started = Date.now();
  const agent = request.agent ?? agentOfHandle(request.continue);
  let result: TurnResult;
  try {
    const ladder = accountLadder(request, context.config, context);
    result =
      ladder === undefined
        ? continuedNote(request, await attemptTurn(oneAccount(request), context), context)
        : plainWhenPlain(
            request,
            context,
            await runOnAccounts(request, ladder, context, (each) => attemptTurn(each, context)),
          );
  } catch (thrown) {
    // A file scv could not write (a read-only or full SCV_HOME) is a failed turn like any other:
    // `--json` still gets its result.
    const error = asFileError(thrown);
    if (!(error instanceof ScvError)) throw thrown;
    result = failedResult(error, agent, started);
    // scv's own storage failed: another agent would meet the same folder.
    if (error.code === "IO") return result;
  }
  // A first turn's worktree that no conversation got (its agent never ran) is given back.
  if (request.worktree !== undefined && request.continue === undefined)
    await (await import("./worktree.js")).giveBackWorktree(request.worktree, result, context.env);
  if (!wantsFallbacks(result.exitCode)) return result;
  return { ...result, fallbacks: await fallbackAgents(result.agent, context.config, context.env) };
}

/** A plain agent name run as its default account's ladder (it was cooling, or --wait-for-reset
 * waited) reads as a plain turn when nothing was passed over: no `account`, no `skipped`. */
function plainWhenPlain(request: TurnRequest, context: TurnContext, result: TurnResult): TurnResult {
  const name = request.agent === undefined ? undefined : adapter(request.agent)?.name;
  const named =
    name === undefined ||
    request.accounts !== undefined ||
    context.config.agents?.[name]?.accounts !== undefined;
  if (named || (result.skipped?.length ?? 0) > 0) return result;
  const { account: _account, skipped: _skipped, ...plain } = result;
  return plain;
}

/** A continued turn that hit a limit where accounts are in use: why it did not move to another. */
function continuedNote(request: TurnRequest, result: TurnResult, context: TurnContext): TurnResult {
  if (request.continue === undefined || result.exitCode !== EXIT.rateLimited || result.conversation === null)
    return result;
  let record: ConversationRecord;
  try {
    record = readConversation(result.conversation, context.env);
  } catch {
    return result;
  }
  if (record.account === undefined && context.config.agents?.[record.agent]?.accounts === undefined)
    return result;
  const label = accountLabel(record.agent, record.account);
  const note = `${record.handle} stays in ${label}, where its session is: a conversation does not move to another account — start a new turn (scv delegate ${record.agent}@<account>,… "…") to use another`;
  return { ...result, notes: [...result.notes, note] };
}

/** A continued turn that names one account: that account, which must be the conversation's. */
function oneAccount(request: TurnRequest): TurnRequest {
  const [only] = request.accounts ?? [];
  return only === undefined ? request : { ...request, account: only, accounts: undefined };
}

/** One turn in one account's home; what the user must fix comes back as a failed result. */
async function attemptTurn(request: TurnRequest, context: TurnContext): Promise<TurnResult> {
  const started = Date.now();
  // The account the turn ran in: a continued conversation's own, which the request need not name.
  let account = request.account ?? DEFAULT_ACCOUNT;
  let result: TurnResult;
  try {
    const plan = planTurn(request, context);
    account = plan.account;
    result = await executeTurn(plan, context);
  } catch (thrown) {
    const error = asFileError(thrown);
    // scv's own storage failing ends the turn, and any ladder: runTurn reports it.
    if (!(error instanceof ScvError) || error.code === "IO") throw error;
    result = failedResult(error, request.agent ?? agentOfHandle(request.continue), started);
  }
  // Each account's mark is its own: a named account's refusal says nothing of the plain home's.
  noteSignIn(result.agent, account, result.exitCode, context.env);
  return result;
}

function withoutFailure(parsed: ParsedTurn): ParsedTurn {
  const { failure: _failure, ...rest } = parsed;
  return rest;
}

/** Reads and removes the CLI's last-message file (bounded: it holds one message). */
function takeLastMessage(path: string | undefined): string | undefined {
  if (path === undefined || !existsSync(path)) return undefined;
  try {
    return readStateText(path, { maxBytes: MAX_REPLY_BYTES });
  } finally {
    removeIfPresent(path);
  }
}

function agentOfHandle(handle: string | undefined): string | undefined {
  return handle?.replace(/-[0-9a-z]{6}(\.[0-9a-z]{8})?$/, "");
}
