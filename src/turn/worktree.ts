// A conversation's git worktree around its turns (`--worktree`, docs/worktrees.md). Before any
// agent starts, `prepareWorktrees` makes one for each first turn that asks (every refusal first: not
// a repository, a bare one, a base naming no commit), runs the worktree's setup there (`--setup`,
// `worktree_setup`), and points the turn's request at it. Around each turn `executeTurn` (run.ts)
// takes the branch's tip before and `finishWorktreeTurn` after: the turn's changes committed on its
// branch, the check run (`--check`), both in the result and the conversation's record. A first turn
// that left no conversation (refused before its agent ran) gives its untouched worktree back.
//
// The library underneath is src/worktrees/; this module decides when each call is made.

import { realpathSync } from "node:fs";
import { join, relative } from "node:path";
import { formatDuration, parseDuration } from "../duration.js";
import { ScvError } from "../errors.js";
import { agentSettings, type Config } from "../home/config.js";
import { readConversation, writeConversation } from "../home/conversations.js";
import type { Env } from "../home/paths.js";
import { turnOwnerAlive } from "../home/turn-owner.js";
import { readRunning } from "../home/turn-records.js";
import type { CheckOutcome, TurnResult } from "../result.js";
import { type CheckResult, runCheck } from "../worktrees/check.js";
import { createWorktree } from "../worktrees/create.js";
import { linkIgnored } from "../worktrees/links.js";
import type { Worktree } from "../worktrees/record.js";
import { branchTip, recordTurn } from "../worktrees/record-turn.js";
import { removeWorktree } from "../worktrees/remove-worktree.js";
import { findRepository, type Repository, resolveBase } from "../worktrees/repo.js";
import type { PlannedTurn } from "./batch.js";
import { failedResult } from "./outcome.js";
import { DEFAULT_CHECK_TIMEOUT_MS } from "./plan.js";
import { interrupted } from "./stops.js";
import type { TurnContext, TurnPlan } from "./turn-types.js";
import { type WorktreeChoice, worktreeOnly } from "./worktree-choice.js";

type Ready = Extract<PlannedTurn, { kind: "ready" }>;

/** Whether a planned first turn runs in a new worktree: `--worktree`, else its agent's `worktree`
 * in the config (or `[defaults]`). */
function wants(turn: Ready, choice: WorktreeChoice, config: Config): boolean {
  if (turn.plan.record !== undefined) return choice.worktree === true;
  return choice.worktree ?? agentSettings(config, turn.plan.entry.name).worktree ?? false;
}

/** Makes the worktree of each first turn that runs in one, refusing them all (one line, exit 2)
 * before anything is made when one cannot have one: not a repository, a bare one, a base naming no
 * commit, an option that needs a worktree where no turn has one. A continued conversation runs in
 * its own. A worktree that cannot be made, or whose setup fails, is that turn's failed result
 * (exit 1); the others go on. */
export async function prepareWorktrees(
  planned: readonly PlannedTurn[],
  choice: WorktreeChoice,
  context: Pick<TurnContext, "env" | "config" | "onNotice" | "signal">,
): Promise<PlannedTurn[]> {
  const { env, config } = context;
  const repositories = new Map<string, Promise<Repository>>();
  const repositoryOf = (cwd: string) => {
    let found = repositories.get(cwd);
    if (found === undefined) {
      found = findRepository(cwd, env);
      repositories.set(cwd, found);
    }
    return found;
  };
  const ready = planned.filter((turn): turn is Ready => turn.kind === "ready");
  const continued = ready.find((turn) => turn.plan.record !== undefined);
  const option = worktreeOnly({ ...choice, check: false });
  if (continued !== undefined && option !== undefined) {
    throw new ScvError(
      "USAGE",
      `${option} is for a new worktree, and ${continued.plan.handle} continues in its own — drop ${option}`,
    );
  }
  // Every refusal before anything is made.
  const wanted: { index: number; turn: Ready; repo: Repository }[] = [];
  for (const [index, turn] of planned.entries()) {
    if (turn.kind !== "ready" || !wants(turn, choice, config)) continue;
    const record = turn.plan.record;
    if (record !== undefined) {
      if (record.worktree === undefined) throw noWorktreeOfItsOwn(record.handle, record.cwd);
      continue;
    }
    const repo = await repositoryOf(turn.plan.cwd);
    await resolveBase(repo, choice.base, env);
    wanted.push({ index, turn, repo });
  }
  const needs = worktreeOnly(choice);
  if (wanted.length === 0 && continued === undefined && needs !== undefined && ready.length > 0) {
    throw new ScvError(
      "USAGE",
      `${needs} works in a turn's own git worktree, and no turn here has one — add --worktree (or worktree = true in scv's config)`,
    );
  }
  const made = await Promise.all(wanted.map(({ turn, repo }) => makeWorktree(turn, choice, repo, context)));
  const result = [...planned];
  for (const [i, { index }] of wanted.entries()) result[index] = made[i] as PlannedTurn;
  return result;
}

function noWorktreeOfItsOwn(handle: string, cwd: string): ScvError {
  return new ScvError(
    "USAGE",
    `conversation ${handle} works in ${cwd}, not in a worktree of its own, and a conversation keeps its folder — continue it without --worktree, or start a new one with --worktree`,
  );
}

async function makeWorktree(
  turn: Ready,
  ask: WorktreeChoice,
  repo: Repository,
  context: Pick<TurnContext, "env" | "config" | "onNotice" | "signal">,
): Promise<PlannedTurn> {
  const { env, config } = context;
  const { plan } = turn;
  let worktree: Worktree;
  try {
    worktree = await createWorktree(repo, {
      handle: plan.handle,
      ...(ask.base === undefined ? {} : { base: ask.base }),
      ...(ask.withChanges ? { withChanges: true } : {}),
      ...(config.worktree_dir === undefined ? {} : { worktreeDir: config.worktree_dir }),
      env,
    });
  } catch (error) {
    if (!(error instanceof ScvError)) throw error;
    return { kind: "failed", agent: turn.agent, result: failedResult(error, turn.agent) };
  }
  // What the checkout lacks because git ignores it, linked in from the user's tree (links.ts).
  const links = config.worktree_links ?? [];
  if (links.length > 0) {
    try {
      const { linked, missing } = linkIgnored(worktree, links);
      if (missing.length > 0)
        context.onNotice?.(
          `worktree_links: ${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} not in ${worktree.repoRoot} — not linked`,
        );
      worktree = { ...worktree, links: [...linked] };
    } catch (error) {
      await removeWorktree(worktree, { env, force: true }).catch(() => undefined);
      if (!(error instanceof ScvError)) throw error;
      return { kind: "failed", agent: turn.agent, result: failedResult(error, turn.agent) };
    }
  }
  // The same folder of the project as the one asked for (`-C packages/app`).
  const cwd = join(worktree.dir, relative(repo.root, realpathSync(plan.cwd)));
  const setup = ask.setup ?? config.worktree_setup;
  if (setup !== undefined && setup !== "") {
    context.onNotice?.(`${plan.handle}: setting up its worktree: ${setup}`);
    const ran = await runCheck(setup, {
      cwd,
      env,
      timeoutMs: checkTimeout(config),
      ...(config.isolation === undefined ? {} : { isolation: config.isolation }),
      ...(context.signal === undefined ? {} : { signal: context.signal }),
    });
    if (ran.status !== "pass" || context.signal?.aborted) {
      // Nothing of an agent's is in it yet.
      await removeWorktree(worktree, { env, force: true }).catch(() => undefined);
      const why = context.signal?.aborted
        ? interrupted(context.signal, "stopped while its worktree was being set up")
        : setupFailed(ran);
      return { kind: "failed", agent: turn.agent, result: failedResult(why, turn.agent) };
    }
    worktree = await keepSetup(worktree, env);
  }
  return {
    ...turn,
    plan: { ...plan, cwd, worktree },
    request: { ...turn.request, cwd, worktree },
  };
}

/** What the setup left that git sees (a lockfile `npm install` rewrote) is committed as the base the
 * agent's work starts from: neither the agent's change nor the user's to apply. */
async function keepSetup(worktree: Worktree, env: Env): Promise<Worktree> {
  const message = `${worktree.handle}: worktree setup\n\nWhat the worktree's setup command changed, recorded by scv before the agent started.\n`;
  const { commit } = await recordTurn(worktree, { agent: "scv", prompt: "", message, env });
  return commit === null ? worktree : { ...worktree, base: commit };
}

function setupFailed(ran: CheckResult): ScvError {
  const how =
    ran.status === "timeout"
      ? `did not finish within ${formatDuration(ran.durationMs)}`
      : ran.exitCode === null
        ? "failed"
        : `exited with ${ran.exitCode}`;
  const last = ran.tail.at(-1);
  return new ScvError(
    "AGENT_FAILED",
    `the worktree's setup \`${ran.command}\` ${how}${last === undefined ? "" : `: ${last}`} — fix it (or worktree_setup in scv's config), or run without --setup`,
  );
}

/** A setup's limit: the config's `check_timeout`, else the default. */
function checkTimeout(config: Config): number {
  return (
    (config.check_timeout === undefined ? undefined : parseDuration(config.check_timeout)) ??
    DEFAULT_CHECK_TIMEOUT_MS
  );
}

/** The branch's tip before a turn: what the turn's changes are counted from. */
export async function tipBeforeTurn(plan: TurnPlan, env: Env): Promise<string | undefined> {
  if (plan.worktree === undefined) return undefined;
  try {
    return await branchTip(plan.worktree, env);
  } catch (error) {
    throw new ScvError(
      "USAGE",
      `conversation ${plan.handle}'s branch ${plan.worktree.branch} is gone from ${plan.worktree.repoRoot}, so this turn's changes could not be kept — start a new conversation`,
      { cause: error },
    );
  }
}

/** After a turn in a worktree: its changes committed on the branch, the check run when the turn
 * completed, both in the result and (the check) in the conversation's record. */
export async function finishWorktreeTurn(
  plan: TurnPlan,
  result: TurnResult,
  since: string | undefined,
  context: TurnContext,
): Promise<TurnResult> {
  const { worktree } = plan;
  if (worktree === undefined) return result;
  const { env } = context;
  const notes = [...result.notes];
  let recorded: Pick<TurnResult, "commit" | "diffstat"> = {};
  try {
    const changes = await recordTurn(worktree, {
      agent: plan.entry.name,
      prompt: plan.prompt,
      ...(since === undefined ? {} : { since }),
      env,
    });
    const { files, added, removed, paths } = changes;
    recorded = { commit: changes.commit, diffstat: { files, added, removed, paths: [...paths] } };
  } catch (error) {
    if (!(error instanceof ScvError)) throw error;
    notes.push(error.message);
  }
  let check: CheckOutcome | undefined;
  if (plan.check !== undefined && result.status === "completed" && !context.signal?.aborted) {
    const ran = await runCheck(plan.check.command, {
      cwd: plan.cwd,
      env,
      timeoutMs: plan.check.timeoutMs,
      ...(context.config.isolation === undefined ? {} : { isolation: context.config.isolation }),
      ...(context.signal === undefined ? {} : { signal: context.signal }),
    });
    // A check stopped with its turn (Ctrl-C, scv kill) says nothing of the change.
    if (context.signal?.aborted) notes.push(`the check \`${plan.check.command}\` was stopped with the turn`);
    else check = checkOutcome(ran);
  }
  if (result.conversation !== null) keepCheck(result.conversation, check, env, notes);
  return {
    ...result,
    notes,
    worktree: worktree.dir,
    branch: worktree.branch,
    ...recorded,
    ...(check === undefined ? {} : { check }),
  };
}

/** The library's check as the result carries it. Pure. */
export function checkOutcome(ran: CheckResult): CheckOutcome {
  return {
    command: ran.command,
    status: ran.status,
    exitCode: ran.exitCode,
    duration: ran.durationMs,
    tail: [...ran.tail],
  };
}

/** The last turn's check in the conversation's record (`scv compare` reads it); none when this turn
 * ran none. A record that cannot be written is a note: the result has the check. */
function keepCheck(handle: string, check: CheckOutcome | undefined, env: Env, notes: string[]): void {
  try {
    const { lastCheck: _previous, ...record } = readConversation(handle, env);
    writeConversation(check === undefined ? record : { ...record, lastCheck: check }, env);
  } catch (error) {
    if (!(error instanceof ScvError)) throw error;
    notes.push(`the check is not in ${handle}'s record: ${error.message}`);
  }
}

/** A first turn that left no conversation never ran its agent (refused before it, or stopped while
 * queued): its worktree and branch go, unless they hold something after all. */
export async function giveBackWorktree(worktree: Worktree, result: TurnResult, env: Env): Promise<void> {
  if (result.conversation !== null) return;
  await removeWorktree(worktree, { env, onlyIfMerged: true }).catch(() => undefined);
}

/** Whether a turn of `handle` runs now (its running record's scv alive): its worktree stays. */
export function turnRunning(handle: string, env: Env): boolean {
  const running = readRunning(handle, env);
  return running !== undefined && turnOwnerAlive(running);
}
