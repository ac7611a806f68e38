// What every turn does around its agent, whichever transport carries it: the agent's private home,
// the early sign-in and granted-mode refusals, the conversation's lock, the stripped environment
// with the turn's tag, depth and TMPDIR, its registration in $SCV_HOME/turns (so `scv ps` and
// `scv kill` reach it and the reaper finds what a dead scv left), and, at its end, the credential
// files set back to 0600, the tagged stragglers ended and the lock released.

import { accountLabel } from "../accounts.js";
import type { AdapterDescriptor } from "../adapters.js";
import { signInStore } from "../agents/lookup.js";
import { storedKeyEnvironment } from "../agents/stored-key.js";
import { ScvError } from "../errors.js";
import { ensureAgentHome, tightenCredentialFiles } from "../home/agent-home.js";
import { lockConversation } from "../home/conversations.js";
import { keepHomeSettings } from "../home/home-settings.js";
import { inspectStore, type StoreInspection } from "../home/keystore.js";
import type { TurnResult } from "../result.js";
import { agentEnvironment } from "../transport/env.js";
import { refuseGrantedMode } from "../transport/mode.js";
import { isBusy, settledBusyError } from "./busy.js";
import { type PreparedMcp, prepareMcp, removeMcpDir, withMcpArgs } from "./mcp-turn.js";
import { type PreparedReview, prepareReview, removeReviewFile } from "./review-turn.js";
import { interrupted } from "./stops.js";
import { type TurnTracker, trackTurn } from "./track.js";
import { readyEndpoint, renderEndpoint } from "./turn-endpoint.js";
import type { TurnContext, TurnPlan } from "./turn-types.js";

export interface PreparedTurn {
  /** The caller's context, its signal also ending on `scv kill`. */
  readonly context: TurnContext;
  /** The agent's complete environment. */
  readonly env: Record<string, string>;
  readonly tracker: TurnTracker;
  /** When the turn began (Date.now()). */
  readonly started: number;
  /** A per-turn CLI's arguments: the plan's, with its MCP servers' (turn/mcp-servers.ts). */
  readonly args: readonly string[];
}

/** Runs `body` (which starts the agent) inside the turn's home, lock, environment and registration.
 * Throws `ScvError` only before `body` runs (signed out, conversation busy). */
export async function withPreparedTurn(
  plan: TurnPlan,
  caller: TurnContext,
  body: (turn: PreparedTurn) => Promise<TurnResult>,
): Promise<TurnResult> {
  const started = Date.now();
  const tracker = trackTurn(caller);
  const context = tracker.context;
  const { entry, home } = plan;
  ensureAgentHome(entry.name, context.env, plan.account);
  const label = accountLabel(entry.name, plan.account);
  // An endpoint of the user's own signs the agent in with its key, whatever its own sign-in says.
  const endpointKey =
    plan.endpoint === undefined
      ? await refuseSignedOut(entry, home, context, label)
      : await readyEndpoint(entry, plan.endpoint, home, context.env, label);
  refuseGrantedMode(entry, plan.policy, home);
  await keepHomeSettings(entry, home, plan.transport === "acp");

  const release =
    plan.record === undefined
      ? undefined
      : await untilAborted(
          lockConversation(plan.handle, context.env, context.lockWaitMs).catch(async (error: unknown) => {
            throw isBusy(error) ? await settledBusyError(plan.handle, context.env) : error;
          }),
          context.signal,
        );
  let mcp: PreparedMcp | undefined;
  let review: PreparedReview | undefined;
  let result: TurnResult | undefined;
  try {
    const env = agentEnvironment({
      parent: context.env,
      entry,
      home,
      policy: plan.policy,
      extra: plan.extraEnv,
      isolation: context.config.isolation,
    });
    // The key scv holds, where the row gives it as a variable too (a variable of scv's config for the
    // agent stays; an endpoint's key is set below and wins).
    if (plan.endpoint === undefined)
      for (const [name, value] of Object.entries(await storedKeyEnvironment(entry, home)))
        env[name] ??= value;
    if (plan.transport === "acp" && plan.policy === "auto")
      for (const [name, value] of entry.acp?.fullEnvironment ?? []) env[name] = value;
    // The turn's tag and depth, scv's home and config and its own TMPDIR, set after isolation
    // removed every SCV_* variable.
    Object.assign(env, await tracker.register(plan));
    // A TMPDIR set for this agent in scv's config is the user's choice, and stays.
    const turnTemp = env.TMPDIR;
    if (plan.extraEnv.TMPDIR !== undefined) env.TMPDIR = plan.extraEnv.TMPDIR;
    const endpoint = plan.endpoint;
    const renderedEndpoint =
      endpoint === undefined || endpointKey === undefined
        ? undefined
        : (dir: string) =>
            renderEndpoint(endpoint, { key: endpointKey, model: plan.model, effort: plan.effort, dir });
    let args = plan.args;
    if (plan.transport === "process") {
      review = prepareReview(plan, args, turnTemp);
      mcp = prepareMcp(plan, turnTemp, renderedEndpoint);
      Object.assign(env, mcp.env);
      args = withMcpArgs(plan, review.args, mcp.args);
    } else if (renderedEndpoint !== undefined) {
      // A row whose rendering reaches its ACP server sets variables only (src/descriptor/endpoint.ts).
      Object.assign(env, renderedEndpoint(home).env);
    }
    result = await body({ context, env, tracker, started, args });
    return result;
  } finally {
    if (mcp !== undefined) removeMcpDir(mcp.dir);
    removeReviewFile(review);
    tightenCredentialFiles(home, entry.credentialFiles);
    // Before the conversation's lock goes: the next turn of it registers under the same handle.
    await tracker.end(result);
    await release?.();
  }
}

async function refuseSignedOut(
  entry: AdapterDescriptor,
  home: string,
  context: TurnContext,
  label: string,
): Promise<undefined> {
  const check = context.signInCheck ?? storedSignIn;
  const inspection = await check(entry, home);
  if (inspection?.state === "signed-out") {
    // A signed-out CLI may retry its network for minutes or wait for a login code (lab: one each).
    throw new ScvError(
      "NOT_SIGNED_IN",
      `${entry.product} is not signed in (${inspection.detail}) — run: scv agents login ${label}`,
    );
  }
}

/** The key store's verdict where the descriptor names one (its stored status, else its preflight
 * store); CLIs whose sign-in no file tells are left to fail on their own. */
async function storedSignIn(entry: AdapterDescriptor, home: string): Promise<StoreInspection | undefined> {
  const store = signInStore(entry);
  return store === undefined ? undefined : inspectStore(store, home);
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
