// Running a planned turn: ensure the agent's home and refuse it early when its key store says it is
// signed out; lock the conversation; register the turn; run the CLI and feed its stdout lines to the
// format's parser; then conclude (conclude.ts). Every agent goes through the same code: what differs
// is read from its descriptor.

import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { ScvError } from "../errors.js";
import { fallbackAgents, noteSignIn, wantsFallbacks } from "../fallbacks.js";
import { ensurePrivateDir } from "../home/agent-home.js";
import { removeIfPresent } from "../home/remove.js";
import { loadParser } from "../parsers/index.js";
import type { ParsedTurn } from "../parsers/types.js";
import type { TurnResult } from "../result.js";
import { createLineFramer } from "../transport/framing.js";
import { watchMode } from "../transport/mode.js";
import { type AgentProcess, startProcess } from "../transport/process.js";
import { conclude } from "./conclude.js";
import { failedResult, spawnFailure } from "./outcome.js";
import { planTurn } from "./plan.js";
import { type PreparedTurn, withPreparedTurn } from "./setup.js";
import { interrupted } from "./stops.js";
import type { TurnContext, TurnPlan, TurnRequest } from "./types.js";

/** How long a CLI may stay silent after reporting a terminal error before scv ends it. */
const TERMINAL_ERROR_GRACE_MS = 2_000;

/** Runs a planned turn: home, sign-in check, lock, process, parse, record. Throws `ScvError` only
 * before the agent runs (signed out, conversation busy); afterwards every outcome is a result. An
 * ACP turn's code (and the SDK) is loaded only for an ACP turn. */
export async function executeTurn(plan: TurnPlan, caller: TurnContext): Promise<TurnResult> {
  if (plan.transport === "acp") {
    const { runAcpTurn } = await import("./run-acp.js");
    return withPreparedTurn(plan, caller, (turn) => runAcpTurn(plan, turn));
  }
  return withPreparedTurn(plan, caller, (turn) => runProcessTurn(plan, turn));
}

async function runProcessTurn(
  plan: TurnPlan,
  { context, env, tracker, started }: PreparedTurn,
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

function withoutFailure(parsed: ParsedTurn): ParsedTurn {
  const { failure: _failure, ...rest } = parsed;
  return rest;
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

function agentOfHandle(handle: string | undefined): string | undefined {
  return handle?.replace(/-[0-9a-z]{6}$/, "");
}
