// A running turn's registration: its record in $SCV_HOME/turns (home/turn-records.ts) from the moment
// its conversation is locked until its processes are gone, the variables its agent gets after
// isolation (its tag, its depth, scv's home and config, its own TMPDIR), its tool, tokens so far and
// a permission question waiting for its answer in the record for `scv ps` (a few writes a second at
// most: record-updates.ts), its events in its job's events file for `scv logs` (event-log.ts), and
// its end on `scv kill`: that
// writes <handle>.cancel and sends SIGUSR2, and this scv aborts the turn as on SIGTERM. The agent's
// tools inherit the tag even when they leave its process group with setsid, so they can be found and
// ended with it (os/tagged.ts).

import { hostname } from "node:os";
import { resolve } from "node:path";
import { DEFAULT_ACCOUNT } from "../accounts.js";
import { heldLockIdentity, preview } from "../home/conversations.js";
import { removeEvents } from "../home/job-events.js";
import { configPath, type Env, scvHome } from "../home/paths.js";
import { removeIfPresent } from "../home/remove.js";
import { readStateText, SMALL_STATE_BYTES } from "../home/state-file.js";
import { jobHandle, newJob, turnFile } from "../home/turn-files.js";
import { ownerAlive } from "../home/turn-owner.js";
import {
  createTurnRecord,
  ensureTurnsDir,
  type RunningTurnRecord,
  readRunning,
  withRecordLock,
  writeTurnRecord,
  writeTurnRecordText,
} from "../home/turn-records.js";
import { createTurnTemp, removeTurnTemp } from "../home/turn-temp.js";
import type { PidMark } from "../os/pid-marks.js";
import { bootId } from "../os/proc.js";
import { identify, type ProcessIdentity, type ProcessTable, systemProcessTable } from "../os/processes.js";
import { sweep, TAG_VARIABLE } from "../os/tagged.js";
import type { TurnEvent, Usage } from "../parsers/event-types.js";
import { handleSignals } from "../process/lifecycle.js";
import type { TurnResult } from "../result.js";
import { isoTimestamp } from "../timestamp.js";
import { timing } from "../timing.js";
import { busyWithError } from "./busy.js";
import { chosenSession, sessionAccepted } from "./conclude.js";
import { DEPTH_VARIABLE, turnDepth } from "./depth.js";
import { type EventLog, openEventLog } from "./event-log.js";
import { reapLocked } from "./reap.js";
import { recordUpdates } from "./record-updates.js";
import { KILL_REASON } from "./stops.js";
import type { TurnContext, TurnPlan } from "./turn-types.js";

interface LocalTurn {
  readonly tag: string;
  readonly cancelFile: string;
  readonly controller: AbortController;
}

/** This process's registered turns, by tag, for `scv kill`'s SIGUSR2. */
const localTurns = new Map<string, LocalTurn>();
let killListener = false;

/** Installed once and never removed: a SIGUSR2 that arrived after a turn's end would otherwise
 * take Node's default action and end this scv. Signal listeners do not keep the process alive. */
function listenForKill(): void {
  if (killListener) return;
  killListener = true;
  handleSignals(["SIGUSR2"], () => {
    for (const turn of localTurns.values()) {
      const asked = readStateText(turn.cancelFile, { maxBytes: SMALL_STATE_BYTES })?.trim();
      if (asked === turn.tag) turn.controller.abort(KILL_REASON);
    }
  });
}

export interface TurnTracker {
  /** The context the turn runs with: its signal also ends on `scv kill`, its tool events also go
   * into the record (for `scv ps`). */
  readonly context: TurnContext;
  /** Registers the planned turn once its conversation is locked; returns the variables its agent
   * gets after isolation (the tag, the depth, scv's home and config, its own TMPDIR). */
  register(plan: TurnPlan): Promise<Record<string, string>>;
  /** Records the agent's pid and start time; tells a background launcher the turn runs. */
  spawned(pid: number | undefined): void;
  /** Stops processes that escaped the agent's group but carry its tag, removes the turn's TMPDIR,
   * then drops the record (a background turn's stays, for its runner to replace with the result).
   * A foreground turn's `result` ends its events file, which goes with the record; a background
   * job's stays with its result, for `scv logs`. */
  end(result?: TurnResult): Promise<void>;
}

export function trackTurn(caller: TurnContext, table: ProcessTable = systemProcessTable): TurnTracker {
  const controller = new AbortController();
  const forward = () => controller.abort(caller.signal?.reason);
  if (caller.signal?.aborted) forward();
  else caller.signal?.addEventListener("abort", forward, { once: true });

  const env = caller.env;
  let record: RunningTurnRecord | undefined;
  let path = "";
  // Taken before the agent is spawned: whatever it leaves behind was created after this.
  let pidMark: PidMark | undefined;
  /** The agent's TMPDIR, removed when the turn ends. */
  let temp: string | undefined;
  const removeTemp = () => {
    if (temp !== undefined) removeTurnTemp(temp);
    temp = undefined;
  };

  /** The tool running now, as its start event: its summary is read only when a record is written. */
  let tool: Extract<TurnEvent, { type: "tool-start" }> | undefined;
  /** The usage the CLI reported last. */
  let usage: Usage | undefined;
  /** A permission question put to the turn's caller, until answered. */
  let asking: { tool: string; summary: string } | undefined;
  let log: EventLog | undefined;
  /** Whether a first turn's session, as its stream names it, is one scv records (set on registering). */
  let accepted: (sessionId: string) => boolean = () => false;
  const updates = recordUpdates<RunningTurnRecord>((text) => {
    try {
      writeTurnRecordText(path, text, false);
    } catch {
      // Only scv ps reads these updates; the turn goes on.
    }
  });
  /** The record as it stands, with the running tool. */
  const current = (): RunningTurnRecord => ({
    ...(record as RunningTurnRecord),
    ...(tool === undefined ? {} : { tool: tool.summary || tool.name }),
    ...(usage === undefined ? {} : { tokens: tokensOf(usage) }),
    ...(asking === undefined ? {} : { asking }),
  });
  const note = (event: TurnEvent) => {
    if (record === undefined) return;
    if (event.type === "session") {
      // At once: the reaper records a first turn's conversation with it should this scv die.
      if (record.session === event.sessionId || !accepted(event.sessionId)) return;
      record = { ...record, session: event.sessionId };
      updates.now(current());
      return;
    }
    if (event.type === "tool-start") tool = event;
    else if (event.type === "tool-end" && event.id === tool?.id) tool = undefined;
    else if (event.type === "usage") usage = event.usage;
    else return;
    updates.soon(current);
  };
  const ask = caller.askPermission;

  const context: TurnContext = {
    ...caller,
    signal: controller.signal,
    onEvent: (event, turn) => {
      log?.append(event, turn.entry.name);
      note(event);
      caller.onEvent?.(event, turn);
    },
    // The question shows in `scv ps` while it waits, and whoever listens hears of it as it is put.
    ...(ask === undefined
      ? {}
      : {
          askPermission: async (question, signal) => {
            const mine = record;
            if (mine !== undefined) {
              asking = { tool: question.tool, summary: question.summary };
              updates.now(current());
              caller.onWaiting?.({
                kind: "approval",
                job: mine.tag,
                handle: mine.handle,
                account: mine.account ?? DEFAULT_ACCOUNT,
                question,
              });
            }
            try {
              return await ask(question, signal);
            } finally {
              if (mine !== undefined && record !== undefined) {
                asking = undefined;
                updates.now(current());
              }
            }
          },
        }),
  };

  const registered = async (plan: TurnPlan): Promise<Record<string, string>> => {
    const depth = turnDepth(env);
    // The turn's job is its tag: a background turn's was chosen by its launcher.
    const given = caller.background?.job;
    const tag = given !== undefined && jobHandle(given) === plan.handle ? given : newJob(plan.handle);
    const variables = agentVariables(tag, depth, env, temp);
    pidMark = table.pidMark?.();
    const me = identify(process.pid, table);
    // Without its own identity scv could not tell later whether the turn's scv is alive.
    if (me === undefined) return variables;
    ensureTurnsDir(env);
    path = turnFile(plan.handle, "running", env);
    const starts = startedConversation(plan);
    if (starts !== undefined) accepted = (id) => sessionAccepted(plan, id);
    const fresh = runningRecord(plan, {
      tag,
      depth,
      me,
      starts,
      temp,
      lock: heldLockIdentity(plan.handle, env),
      background: caller.background !== undefined,
    });
    await placeRecord(path, fresh, env, table);
    record = fresh;
    log = openEventLog(tag, plan.handle, env);
    caller.onRegistered?.(tag);
    localTurns.set(tag, { tag, cancelFile: turnFile(plan.handle, "cancel", env), controller });
    listenForKill();
    return variables;
  };

  return {
    context,
    async register(plan) {
      temp = createTurnTemp(plan.handle, env);
      try {
        return await registered(plan);
      } catch (error) {
        removeTemp();
        throw error;
      }
    },
    spawned(pid) {
      if (pid === undefined) return;
      const agent = identify(pid, table);
      // At once: scv kill and the reaper find the agent by it.
      if (record !== undefined && agent !== undefined) {
        record = { ...record, agentProcess: agent };
        updates.now(current());
      }
      caller.background?.onStarted();
    },
    async end(result) {
      caller.signal?.removeEventListener("abort", forward);
      const done = record;
      // The last state, for `scv ps` while the sweep runs (and a background turn's record stays).
      updates.flush();
      updates.stop();
      record = undefined;
      // A background job's result line is its runner's to give (jobs/follow.ts reads its result).
      if (result !== undefined && caller.background === undefined) log?.result(result);
      log?.close();
      log = undefined;
      if (done !== undefined) {
        localTurns.delete(done.tag);
        await sweep(done.tag, table, caller.graceMs ?? timing("killGrace"), pidMark);
        removeIfPresent(turnFile(done.handle, "cancel", env));
      }
      // Once nothing of the turn runs, and before its record goes: a crash in between leaves the
      // folder named in the record, for the reaper.
      removeTemp();
      // A foreground turn's events go with it: a follower holds the file open, its result line last.
      if (done !== undefined && caller.background === undefined) {
        removeEvents(done.tag, env);
        removeIfPresent(path);
      }
    },
  };
}

/** The variables the agent gets after isolation: its tag, its depth, scv's home and config, its own
 * TMPDIR. */
function agentVariables(
  tag: string,
  depth: number,
  env: Env,
  temp: string | undefined,
): Record<string, string> {
  return {
    [TAG_VARIABLE]: tag,
    [DEPTH_VARIABLE]: String(depth + 1),
    // An scv the agent runs (nested delegation) must find this scv's home and config: the agent's
    // HOME and XDG_* point into its private home, where neither is, and max_depth lives in the
    // config. Paths, not credentials: the agent runs as the same user either way.
    SCV_HOME: resolve(scvHome(env)),
    SCV_CONFIG: resolve(configPath(env)),
    ...(temp === undefined ? {} : { TMPDIR: temp }),
  };
}

/** The running record a registered turn starts with. */
function runningRecord(
  plan: TurnPlan,
  turn: {
    readonly tag: string;
    readonly depth: number;
    readonly me: ProcessIdentity;
    readonly starts: RunningTurnRecord["starts"];
    readonly temp: string | undefined;
    readonly lock: RunningTurnRecord["lock"];
    readonly background: boolean;
  },
): RunningTurnRecord {
  const { starts, temp, lock } = turn;
  return {
    version: 1,
    handle: plan.handle,
    tag: turn.tag,
    agent: plan.entry.name,
    ...(plan.account === DEFAULT_ACCOUNT ? {} : { account: plan.account }),
    ...(plan.model === undefined ? {} : { model: plan.model }),
    prompt: preview(plan.prompt),
    cwd: plan.cwd,
    depth: turn.depth,
    background: turn.background,
    host: hostname(),
    ...(bootId() === undefined ? {} : { boot: bootId() }),
    startedAt: isoTimestamp(),
    scv: turn.me,
    ...(lock === undefined ? {} : { lock }),
    ...(temp === undefined ? {} : { tmp: temp }),
    ...(starts === undefined ? {} : { starts }),
    ...(plan.worktree === undefined ? {} : { worktree: plan.worktree }),
  };
}

/** The record is created outright, which fails if one exists. A first turn's handle is new
 * (planTurn checked that nothing of it exists), so that only happens when another scv took it
 * meanwhile; a continued turn holds its conversation's lock, so a record there is one left by a
 * turn whose scv died. When none is, nothing is left to reap and the lock is not needed (on a first
 * turn proper-lockfile is not even loaded). Earlier turns' unread results stay: each is its own
 * job's. */
async function placeRecord(
  path: string,
  fresh: RunningTurnRecord,
  env: Env,
  table: ProcessTable,
): Promise<void> {
  if (createTurnRecord(path, fresh)) return;
  await withRecordLock(path, 5_000, async () => {
    const left = readRunning(fresh.handle, env);
    // This scv's own earlier attempt of the same job (a background turn's account ladder,
    // turn/accounts-in-order.ts) left its record for the result: this attempt takes it over.
    const me = fresh.scv;
    const ownEarlier =
      left?.tag === fresh.tag && left.scv.pid === me.pid && left.scv.startTime === me.startTime;
    if (left !== undefined && left.host === fresh.host && !ownEarlier) {
      if (ownerAlive(left, table)) throw busyWithError(fresh.handle, left);
      await reapLocked(left, env, table);
    }
    writeTurnRecord(path, fresh, false);
  });
}

/** Every token the usage counts, as `scv ps` shows them. */
function tokensOf(usage: Usage): number {
  return (usage.input ?? 0) + (usage.cached ?? 0) + (usage.cacheWrite ?? 0) + (usage.output ?? 0);
}

/** What a first turn's conversation record begins with, for the reaper; undefined for a continued
 * turn (its record exists) and one that records no conversation. */
function startedConversation(plan: TurnPlan): RunningTurnRecord["starts"] {
  if (plan.record !== undefined || !plan.recordConversation) return undefined;
  const chosen = chosenSession(plan);
  return {
    transport: plan.transport,
    policy: plan.policy,
    ...(plan.effort === undefined ? {} : { effort: plan.effort }),
    ...(chosen === undefined ? {} : { chosen }),
  };
}
