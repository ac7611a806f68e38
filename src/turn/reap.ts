// The reaper. A turn whose scv died (SIGKILL, the OOM killer) leaves its record behind; the next
// scv, whatever its command, kills what leads the agent's group or carries the tag, turns the record
// into a `cancelled` result and the conversation's lastStatus, removes the turn's TMPDIR, and
// removes the conversation lock the turn held (recorded as the very lock folder it created), so the
// conversation can be continued at once.

import { existsSync, lstatSync } from "node:fs";
import { hostname } from "node:os";
import { EXIT } from "../errors.js";
import { pidExists } from "../home/atomic.js";
import { unsavedLine } from "../home/background-result.js";
import { readConversation, recordExists, releaseDeadLock, writeConversation } from "../home/conversations.js";
import type { Env } from "../home/paths.js";
import { removeIfPresent } from "../home/remove.js";
import { readStateFile, SMALL_STATE_BYTES } from "../home/state-file.js";
import { jobFile, jobHandle, newJob, runningHandles, turnFile } from "../home/turn-files.js";
import { ownerAlive } from "../home/turn-owner.js";
import {
  type FinishedTurnRecord,
  type RunningTurnRecord,
  readFinished,
  readRunning,
  withRecordLock,
  writeTurnRecord,
} from "../home/turn-records.js";
import { isTurnTemp, removeTurnTemp } from "../home/turn-temp.js";
import { bootId } from "../os/proc.js";
import { isRunning, type ProcessIdentity, type ProcessTable, systemProcessTable } from "../os/processes.js";
import { killTagged } from "../os/tagged.js";
import type { TurnResult } from "../result.js";
import type { Worktree } from "../worktrees/record.js";
import { recordReapedUsage } from "./usage-record.js";

/** The turns running now (their scv alive), oldest first. */
export function listRunning(env: Env, table = systemProcessTable): RunningTurnRecord[] {
  const host = hostname();
  return runningHandles(env)
    .map((handle) => readRunning(handle, env))
    .filter((record): record is RunningTurnRecord => record !== undefined)
    .filter((record) => record.host === host && ownerAlive(record, table))
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}

/** Reaps every turn whose scv died: kills what it left (matching start times or the tag), records it
 * `cancelled`. A reaped agent's own scv (a nested delegation) is reaped with it. Never throws;
 * returns the handles reaped. */
export async function reapOrphans(env: Env, table = systemProcessTable): Promise<string[]> {
  const host = hostname();
  const all = runningHandles(env).map((handle) => ({ handle, record: readRunning(handle, env) }));
  for (const { handle, record } of all) {
    if (record === undefined) await removeGarbageRecord(handle, env).catch(() => undefined);
  }
  const records = all
    .map(({ record }) => record)
    .filter((record): record is RunningTurnRecord => record !== undefined && record.host === host);
  const queue = records
    .filter((record) => !ownerAlive(record, table))
    .map((record) => ({ record, killed: false }));
  const seen = new Set<string>();
  const reaped: string[] = [];
  for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
    if (seen.has(item.record.tag)) continue;
    seen.add(item.record.tag);
    let victims: ProcessIdentity[] | undefined;
    try {
      victims = await reapHandle(item.record.handle, env, table, item.killed);
    } catch {
      // A record that cannot be reaped now (a full disk) is tried again by the next scv.
      continue;
    }
    if (victims === undefined) continue;
    reaped.push(item.record.handle);
    for (const other of records) {
      const ownerKilled = victims.some(
        (victim) => victim.pid === other.scv.pid && victim.startTime === other.scv.startTime,
      );
      if (ownerKilled && !seen.has(other.tag)) queue.push({ record: other, killed: true });
    }
  }
  return reaped;
}

/** Removes `turns/<handle>.json` when it is a regular file that is no running turn's record (not
 * JSON, not of the record's shape) and names no live process: records are written whole (atomic
 * rename or link), so such a file is never one being written, and without this every scv start would
 * read it again, and gc would keep the handle's files for it. One that names a live process (an
 * older or newer scv's record) stays; so does a FIFO or a link (noted when read: not scv's to
 * remove). Under the record's lock, as reaping is. */
async function removeGarbageRecord(handle: string, env: Env): Promise<boolean> {
  const path = turnFile(handle, "running", env);
  // Not a regular file: noted when read, and left; no lock taken for it at every start.
  if (lstatSync(path, { throwIfNoEntry: false })?.isFile() !== true) return false;
  const removed = await withRecordLock(path, 0, async () => {
    if (readRunning(handle, env) !== undefined) return false;
    const read = readStateFile(path, { maxBytes: SMALL_STATE_BYTES });
    if (read.kind !== "read" || namesLiveProcess(read.bytes.toString("utf8"))) return false;
    removeIfPresent(path);
    return true;
  });
  return removed === true;
}

/** Whether text that may be a record of another scv's names a process alive now (its `scv`, or its
 * `agentProcess`, by pid): such a record is left alone. */
function namesLiveProcess(text: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return [record.scv, record.agentProcess].some((each) => {
    const pid = typeof each === "object" && each !== null ? (each as { pid?: unknown }).pid : undefined;
    return typeof pid === "number" && pidExists(pid);
  });
}

/** Reaps one turn if its scv is dead (or was just killed by the reaper); undefined when it is alive,
 * gone already, or another scv is reaping it. */
export async function reapHandle(
  handle: string,
  env: Env,
  table = systemProcessTable,
  ownerKilled = false,
): Promise<ProcessIdentity[] | undefined> {
  const path = turnFile(handle, "running", env);
  return withRecordLock(path, 0, async () => {
    const record = readRunning(handle, env);
    if (record === undefined || (!ownerKilled && ownerAlive(record, table))) return undefined;
    return reapLocked(record, env, table);
  });
}

/** Kills what the dead turn left running, records it cancelled, drops its running record, and frees
 * its conversation lock — so the conversation can be continued at once instead of after the lock goes
 * stale. The lock goes last, once nothing of the turn runs. */
export async function reapLocked(
  record: RunningTurnRecord,
  env: Env,
  table: ProcessTable,
): Promise<ProcessIdentity[]> {
  const victims = killLeftovers(record, table);
  if (record.tmp !== undefined && isTurnTemp(record.tmp, record.handle)) removeTurnTemp(record.tmp);
  // What the agent wrote in its worktree, committed on the conversation's branch: nothing is lost.
  const kept = record.worktree === undefined ? undefined : await keepWrites(record, record.worktree, env);
  const job = recordJob(record);
  // (A background runner that died after saving its result left the result to keep.)
  if (readFinished(job, env) === undefined) {
    const concluded = turnRecordedItsEnd(record, env);
    const finished = cancelledTurn(record, job, env, kept);
    writeTurnRecord(jobFile(job, "done", env), finished, true);
    // A turn that concluded before its scv died is in the usage log already.
    if (!concluded) recordReapedUsage(record, finished.result, env);
  }
  removeIfPresent(turnFile(record.handle, "running", env));
  removeIfPresent(turnFile(record.handle, "cancel", env));
  removeIfPresent(jobFile(job, "reserve", env));
  // A permission question nobody answers now, and what became of earlier ones (home/approvals.ts).
  for (const kind of ["ask", "answer", "questions"] as const) removeIfPresent(jobFile(job, kind, env));
  if (record.lock !== undefined) releaseDeadLock(record.handle, record.lock, env);
  return victims;
}

/** The job of a running record: its tag, which every scv since jobs began writes as one. */
function recordJob(record: RunningTurnRecord): string {
  return jobHandle(record.tag) === record.handle ? record.tag : newJob(record.handle);
}

/** SIGKILLs the agent's group (when its leader is still the recorded process) and every process
 * carrying the turn's tag. */
export function killLeftovers(record: RunningTurnRecord, table: ProcessTable): ProcessIdentity[] {
  const boot = bootId();
  if (record.boot !== undefined && boot !== undefined && record.boot !== boot) return [];
  const victims: ProcessIdentity[] = [];
  const agent = record.agentProcess;
  if (agent !== undefined && isRunning(agent, table)) {
    victims.push(agent);
    table.kill(agent.pid, "SIGKILL", true);
  }
  victims.push(...killTagged(record.tag, table));
  return victims;
}

/** Whether the turn's conversation record says the turn ended (concluded) before its scv died. */
function turnRecordedItsEnd(record: RunningTurnRecord, env: Env): boolean {
  try {
    return (
      recordExists(record.handle, env) && readConversation(record.handle, env).updatedAt >= record.startedAt
    );
  } catch {
    return false;
  }
}

/** A first turn that died before writing its conversation record, once its agent had a session (its
 * stream named it, or the CLI's files show the one scv chose): the record it would have begun, its
 * turn cancelled. Without it the session could neither be continued nor found by rm and gc. */
function recordStartedConversation(record: RunningTurnRecord, now: Date, env: Env): void {
  const starts = record.starts;
  if (starts === undefined || recordExists(record.handle, env)) return;
  const chosen = starts.chosen;
  const sessionId =
    record.session ?? (chosen !== undefined && existsSync(chosen.path) ? chosen.id : undefined);
  // A turn in a worktree leaves one without a session too: the worktree and branch are its.
  if (sessionId === undefined && record.worktree === undefined) return;
  const at = now.toISOString();
  writeConversation(
    {
      handle: record.handle,
      agent: record.agent,
      ...(record.account === undefined ? {} : { account: record.account }),
      ...(sessionId === undefined ? {} : { sessionId }),
      transport: starts.transport,
      cwd: record.cwd,
      ...(record.model === undefined ? {} : { model: record.model }),
      ...(starts.effort === undefined ? {} : { effort: starts.effort }),
      policy: starts.policy,
      createdAt: at,
      updatedAt: at,
      turns: 1,
      lastPrompt: record.prompt,
      usage: {},
      lastStatus: "cancelled",
      ...(record.worktree === undefined ? {} : { worktree: record.worktree }),
    },
    env,
  );
}

/** Commits what a dead turn's agent left in its worktree; a failure leaves it in the folder, where
 * `conversations rm` and gc save it before the folder goes. */
async function keepWrites(
  record: RunningTurnRecord,
  worktree: Worktree,
  env: Env,
): Promise<Pick<TurnResult, "worktree" | "branch" | "commit" | "diffstat">> {
  const where = { worktree: worktree.dir, branch: worktree.branch };
  try {
    // Loaded only here: every scv start reaps, and git's plumbing is no plain start's.
    const { recordTurn } = await import("../worktrees/record-turn.js");
    const changes = await recordTurn(worktree, { agent: record.agent, prompt: record.prompt, env });
    const { files, added, removed, paths } = changes;
    return { ...where, commit: changes.commit, diffstat: { files, added, removed, paths: [...paths] } };
  } catch {
    // As said: still in the folder.
    return where;
  }
}

/** The result of a turn whose scv died; the conversation (if it has a record that this turn had not
 * updated yet) is marked cancelled too. */
function cancelledTurn(
  record: RunningTurnRecord,
  job: string,
  env: Env,
  worktree: Pick<TurnResult, "worktree" | "branch" | "commit" | "diffstat"> = {},
): FinishedTurnRecord {
  const now = new Date();
  let conversation: string | null = null;
  let session: string | null = null;
  try {
    recordStartedConversation(record, now, env);
    if (recordExists(record.handle, env)) {
      const saved = readConversation(record.handle, env);
      conversation = saved.handle;
      session = saved.sessionId ?? null;
      // A turn that recorded its own end before its scv died keeps what it recorded.
      if (saved.updatedAt < record.startedAt) {
        writeConversation({ ...saved, lastStatus: "cancelled", updatedAt: now.toISOString() }, env);
      }
    }
  } catch {
    // A damaged conversation record stays as it is; the turn is still recorded cancelled.
  }
  // A background scv that ended without room for its result said so in its log, as its last word.
  const unsaved = record.background ? unsavedLine(jobFile(job, "log", env)) : undefined;
  const result: TurnResult = {
    reply: "",
    status: unsaved === undefined ? "cancelled" : "failed",
    agent: record.agent,
    conversation,
    session,
    usage: null,
    cost: null,
    duration: Math.max(0, now.getTime() - Date.parse(record.startedAt)),
    exitCode: unsaved === undefined ? EXIT.terminated : EXIT.agentFailed,
    error:
      unsaved ??
      `the scv running this turn (pid ${record.scv.pid}) died, and a later scv stopped ${record.agent}`,
    hint:
      conversation === null
        ? "run the turn again"
        : `continue the conversation: scv delegate -c ${conversation} "…"`,
    fallbacks: [],
    notes: [],
    mode: null,
    badLines: 0,
    ...worktree,
  };
  return {
    version: 1,
    handle: record.handle,
    tag: record.tag,
    agent: record.agent,
    background: record.background,
    reaped: true,
    startedAt: record.startedAt,
    endedAt: now.toISOString(),
    result,
  };
}
