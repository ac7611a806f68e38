// The running-turn registry and the reaper.
//
// While a turn runs, $SCV_HOME/turns/<handle>.json (0600, written atomically) names scv's own
// process and the agent's, each as pid plus start time so that a reused pid is never taken for
// ours, and the tag the agent's environment carries (SCV_TURN, unique to the turn). The agent's
// tools inherit that tag even when they leave its process group with setsid, so they can be found.
// A turn whose scv died (SIGKILL, the OOM killer) leaves its record behind; the next scv, whatever
// its command, kills what leads the agent's group or carries the tag, turns the record into a
// `cancelled` result and the conversation's lastStatus, and removes the conversation lock the turn
// held (recorded as the very lock folder it created), so the conversation can be continued at once.
// `scv kill` asks a live scv to stop one of its turns: it writes <handle>.cancel and sends SIGUSR2,
// and the scv aborts that turn as on SIGTERM.

import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { resolve } from "node:path";
import { customAlphabet } from "nanoid/non-secure";
import * as z from "zod/mini";
import type { Config } from "../config.js";
import { EXIT, ScvError } from "../errors.js";
import { lazy } from "../lazy.js";
import type { TurnEvent } from "../parsers/types.js";
import { type TurnResult, turnResultSchema } from "../result.js";
import { isoTimestamp } from "../timestamp.js";
import type { TurnContext, TurnPlan } from "../transport/turn.js";
import { ensureScvDir } from "./agent-home.js";
import { createAtomicSync, writeAtomicSync } from "./atomic.js";
import {
  HANDLE_PATTERN,
  heldLockIdentity,
  preview,
  readConversation,
  recordExists,
  releaseDeadLock,
  writeConversation,
} from "./conversations.js";
import { takeLock } from "./lock.js";
import type { Env } from "./paths.js";
import { configPath, scvHome } from "./paths.js";
import {
  identify,
  type PidMark,
  type ProcessIdentity,
  type ProcessTable,
  systemProcessTable,
} from "./processes.js";
import { removeIfPresent } from "./remove.js";
import { runningHandles, turnFile } from "./turn-files.js";
import { createTurnTemp, isTurnTemp, removeTurnTemp } from "./turn-temp.js";

/** The variable naming a turn in its agent's environment (and its tools'). */
export const TAG_VARIABLE = "SCV_TURN";
/** The variable carrying how many agent turns are above the turns an agent starts through scv. */
export const DEPTH_VARIABLE = "SCV_DEPTH";
export const DEFAULT_MAX_DEPTH = 2;
/** The abort reason of a turn stopped by `scv kill`; it ends like a turn whose scv got SIGTERM. */
export const KILL_REASON = "scv kill";

const identitySchema = lazy(() => z.object({ pid: z.int().check(z.positive()), startTime: z.string() }));

export const runningTurnSchema = lazy(() =>
  z.looseObject({
    version: z.literal(1),
    handle: z.string().check(z.regex(HANDLE_PATTERN)),
    /** SCV_TURN in the agent's environment: the handle and a nonce, so no two turns share it. */
    tag: z.string(),
    agent: z.string(),
    model: z.optional(z.string()),
    /** A one-line preview of the prompt. */
    prompt: z.string(),
    cwd: z.string(),
    /** How many agent turns are above this one (0: started by a person). */
    depth: z.int().check(z.nonnegative()),
    /** Started with --background: its result is kept until `scv wait` reads it. */
    background: z.boolean(),
    host: z.string(),
    /** The kernel's boot id, where there is one: after a reboot no recorded pid means anything. */
    boot: z.optional(z.string()),
    startedAt: z.string(),
    /** The scv process running the turn. */
    scv: identitySchema(),
    /** The agent's CLI, leader of its process group; absent until it started. */
    agentProcess: z.optional(identitySchema()),
    /** The tool running now, as the parser summarised it (one redacted line). */
    tool: z.optional(z.string()),
    /** The conversation lock the turn holds (a continued conversation's), as the folder it created:
     * the reaper removes that folder once the turn's scv is proven gone. */
    lock: z.optional(z.object({ dev: z.string(), ino: z.string(), born: z.string() })),
    /** The turn's own temporary folder, its agent's TMPDIR (turn-temp.ts), removed by the reaper. */
    tmp: z.optional(z.string()),
  }),
);
export type RunningTurnRecord = z.infer<ReturnType<typeof runningTurnSchema>>;

export const finishedTurnSchema = lazy(() =>
  z.looseObject({
    version: z.literal(1),
    handle: z.string(),
    /** The tag of the turn that ended; null for a turn that failed before it was registered. */
    tag: z.nullable(z.string()),
    agent: z.string(),
    background: z.boolean(),
    /** Its scv died and a later scv stopped what it left running. */
    reaped: z.boolean(),
    startedAt: z.string(),
    endedAt: z.string(),
    result: turnResultSchema(),
  }),
);
export type FinishedTurnRecord = z.infer<ReturnType<typeof finishedTurnSchema>>;

/** What reaping needs of the OS beyond identities: a zombie has exited, whatever its start time says. */
export interface TurnProcessTable extends ProcessTable {
  zombie(pid: number): boolean;
}

export const systemTurnProcesses: TurnProcessTable = {
  ...systemProcessTable,
  zombie(pid) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      return state === "Z" || state === "X";
    } catch {
      return false;
    }
  },
};

const nonce = customAlphabet("0123456789abcdefghijkmnpqrstuvwxyz", 8);

// --- delegation depth -------------------------------------------------------------------------------

/** How many agent turns are above a turn started from `env`. Anything but a number scv wrote counts
 * as 0: the limit guards against runaway recursion, it is not a permission. */
export function turnDepth(env: Env): number {
  const text = env[DEPTH_VARIABLE];
  return text !== undefined && /^\d{1,4}$/.test(text) ? Number(text) : 0;
}

/** Refuses a turn below more agents than `max_depth` allows (exit 2). */
export function refuseTooDeep(env: Env, config: Config): void {
  const depth = turnDepth(env);
  const max = config.max_depth ?? DEFAULT_MAX_DEPTH;
  if (depth > max) {
    throw new ScvError(
      "USAGE",
      `delegation depth ${depth} is beyond max_depth ${max} (agents started by agents through scv) — do this work yourself instead of delegating it, or raise max_depth in scv's config`,
    );
  }
}

// --- records ----------------------------------------------------------------------------------------

function parseFile<T>(path: string, schema: z.ZodMiniType<T>): T | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function readRunning(handle: string, env: Env = process.env): RunningTurnRecord | undefined {
  return parseFile(turnFile(handle, "running", env), runningTurnSchema());
}

export function readFinished(handle: string, env: Env = process.env): FinishedTurnRecord | undefined {
  return parseFile(turnFile(handle, "done", env), finishedTurnSchema());
}

/** Atomic and 0600. Results are flushed to disk; a running record describes processes that a power
 * cut ends anyway, so its frequent updates skip the flush. */
function writeRecord(path: string, value: unknown, fsync: boolean): void {
  try {
    writeAtomicSync(path, `${JSON.stringify(value, null, 2)}\n`, { fsync });
  } catch (error) {
    throw new ScvError("IO", `cannot write turn record ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

function ensureTurnsDir(env: Env): void {
  ensureScvDir(env, "turns");
}

let cachedBoot: string | undefined | null = null;
function bootId(): string | undefined {
  if (cachedBoot === null) {
    try {
      cachedBoot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || undefined;
    } catch {
      cachedBoot = undefined;
    }
  }
  return cachedBoot;
}

/** Whether the identity still names the live process it named when recorded. */
function running(identity: ProcessIdentity, table: TurnProcessTable): boolean {
  return table.startTime(identity.pid) === identity.startTime && !table.zombie(identity.pid);
}

/** Whether the scv running `record` is alive; a record from before a reboot has no live process. */
function ownerAlive(record: RunningTurnRecord, table: TurnProcessTable): boolean {
  const boot = bootId();
  if (record.boot !== undefined && boot !== undefined && record.boot !== boot) return false;
  return running(record.scv, table);
}

/** Creates a turn record that must not exist yet; false when it does, or when this file system
 * cannot create it that way (no hard links): the caller then takes the record's lock. */
function createRecord(path: string, value: unknown): boolean {
  try {
    return createAtomicSync(path, `${JSON.stringify(value, null, 2)}\n`, { fsync: false });
  } catch {
    return false;
  }
}

/** Runs `body` holding the record's lock (`<handle>.json.lock`), which serializes registering a turn
 * with reaping one; undefined when someone else holds it and `waitMs` is 0. */
async function withRecordLock<T>(
  path: string,
  waitMs: number,
  body: () => Promise<T>,
): Promise<T | undefined> {
  let release: () => Promise<void>;
  try {
    release = await takeLock(path, {
      realpath: false,
      stale: 10_000,
      ...(waitMs === 0
        ? {}
        : { retries: { retries: Math.ceil(waitMs / 25), factor: 1, minTimeout: 25, maxTimeout: 25 } }),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ELOCKED") throw error;
    if (waitMs === 0) return undefined;
    throw new ScvError("CONVERSATION_BUSY", `turn record ${path} stays locked — retry in a few seconds`, {
      cause: error,
    });
  }
  try {
    return await body();
  } finally {
    await release().catch(() => {});
  }
}

// --- the turns of this process ----------------------------------------------------------------------

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
  process.on("SIGUSR2", () => {
    for (const turn of localTurns.values()) {
      let asked: string;
      try {
        asked = readFileSync(turn.cancelFile, "utf8").trim();
      } catch {
        continue;
      }
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
   * then drops the record (a background turn's stays, for its runner to replace with the result). */
  end(): Promise<void>;
}

export function trackTurn(caller: TurnContext, table: TurnProcessTable = systemTurnProcesses): TurnTracker {
  const controller = new AbortController();
  const forward = () => controller.abort(caller.signal?.reason);
  if (caller.signal?.aborted) forward();
  else caller.signal?.addEventListener("abort", forward, { once: true });

  const env = caller.env;
  let record: RunningTurnRecord | undefined;
  let path = "";
  // Taken before the agent is spawned: whatever it leaves behind was created after this.
  let pidMark: PidMark | undefined;
  let toolId: string | undefined;
  /** The agent's TMPDIR, removed when the turn ends. */
  let temp: string | undefined;
  const removeTemp = () => {
    if (temp !== undefined) removeTurnTemp(temp);
    temp = undefined;
  };

  const save = (next: RunningTurnRecord) => {
    record = next;
    try {
      writeRecord(path, next, false);
    } catch {
      // Only scv ps reads these updates; the turn goes on.
    }
  };
  const note = (event: TurnEvent) => {
    if (record === undefined) return;
    if (event.type === "tool-start") {
      toolId = event.id;
      save({ ...record, tool: event.summary || event.name });
    } else if (event.type === "tool-end" && event.id === toolId) {
      toolId = undefined;
      const { tool: _done, ...rest } = record;
      save(rest);
    }
  };

  const context: TurnContext = {
    ...caller,
    signal: controller.signal,
    onEvent: (event, turn) => {
      note(event);
      caller.onEvent?.(event, turn);
    },
  };

  const registered = async (plan: TurnPlan): Promise<Record<string, string>> => {
    const depth = turnDepth(env);
    const tag = `${plan.handle}.${nonce()}`;
    const variables = {
      [TAG_VARIABLE]: tag,
      [DEPTH_VARIABLE]: String(depth + 1),
      // An scv the agent runs (nested delegation) must find this scv's home and config: the agent's
      // HOME and XDG_* point into its private home, where neither is, and max_depth lives in the
      // config. Paths, not credentials: the agent runs as the same user either way.
      SCV_HOME: resolve(scvHome(env)),
      SCV_CONFIG: resolve(configPath(env)),
      ...(temp === undefined ? {} : { TMPDIR: temp }),
    };
    pidMark = table.pidMark?.();
    const me = identify(process.pid, table);
    // Without its own identity scv could not tell later whether the turn's scv is alive.
    if (me === undefined) return variables;
    ensureTurnsDir(env);
    path = turnFile(plan.handle, "running", env);
    const lock = heldLockIdentity(plan.handle, env);
    const fresh: RunningTurnRecord = {
      version: 1,
      handle: plan.handle,
      tag,
      agent: plan.entry.name,
      ...(plan.model === undefined ? {} : { model: plan.model }),
      prompt: preview(plan.prompt),
      cwd: plan.cwd,
      depth,
      background: caller.background !== undefined,
      host: hostname(),
      ...(bootId() === undefined ? {} : { boot: bootId() }),
      startedAt: isoTimestamp(),
      scv: me,
      ...(lock === undefined ? {} : { lock }),
      ...(temp === undefined ? {} : { tmp: temp }),
    };
    // The record is created outright, which fails if one exists. A first turn's handle is new
    // (planTurn checked that nothing of it exists), so that only happens when another scv took it
    // meanwhile; a continued turn holds its conversation's lock, so a record there is one left by
    // a turn whose scv died. When none is, nothing is left to reap and the lock is not needed
    // (on a first turn proper-lockfile is not even loaded); only an earlier turn's unread result
    // goes, as under the lock below.
    if (createRecord(path, fresh)) {
      if (plan.record !== undefined) removeIfPresent(turnFile(plan.handle, "done", env));
    } else {
      await withRecordLock(path, 5_000, async () => {
        const left = readRunning(plan.handle, env);
        if (left !== undefined && left.host === fresh.host) {
          if (ownerAlive(left, table)) {
            throw new ScvError(
              "CONVERSATION_BUSY",
              `conversation busy — a turn of ${plan.handle} is running (scv pid ${left.scv.pid}); wait for it or stop it: scv kill ${plan.handle}`,
            );
          }
          await reapLocked(left, env, table);
        }
        // A later turn of a conversation replaces the unread result of an earlier one.
        removeIfPresent(turnFile(plan.handle, "done", env));
        writeRecord(path, fresh, false);
      });
    }
    record = fresh;
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
      if (record !== undefined && agent !== undefined) save({ ...record, agentProcess: agent });
      caller.background?.onStarted();
    },
    async end() {
      caller.signal?.removeEventListener("abort", forward);
      const done = record;
      record = undefined;
      if (done !== undefined) {
        localTurns.delete(done.tag);
        await sweep(done.tag, table, caller.graceMs ?? 3_000, pidMark);
        removeIfPresent(turnFile(done.handle, "cancel", env));
      }
      // Once nothing of the turn runs, and before its record goes: a crash in between leaves the
      // folder named in the record, for the reaper.
      removeTemp();
      if (done !== undefined && caller.background === undefined) removeIfPresent(path);
    },
  };
}

/** Ends what still carries the turn's tag after its agent's group went: SIGTERM, then SIGKILL after
 * `graceMs`. Usually nothing is found. */
async function sweep(
  tag: string,
  table: TurnProcessTable,
  graceMs: number,
  since: PidMark | undefined,
): Promise<void> {
  const tagged = await taggedSoon(tag, table, since);
  if (tagged.length === 0) return;
  for (const found of tagged) table.kill(found.pid, "SIGTERM", true);
  const deadline = Date.now() + graceMs;
  while (tagged.some((p) => running(p, table)) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  for (const found of tagged) if (running(found, table)) table.kill(found.pid, "SIGKILL", true);
}

/** Sweeps of turns that end together (a fan-out) share one pass over the process table, which
 * reads the environment of every process created since the earliest of their agents started (of
 * every process, when that cannot be told): each waits for the next pass that starts after it
 * asked, and which therefore sees whatever its agent left behind. */
interface SweepPass {
  readonly tags: Set<string>;
  /** The earliest mark of the pass's turns; undefined once one of them has none. */
  since: PidMark | undefined;
  readonly found: Promise<Map<string, number[]>>;
}
const sweepPasses = new Map<TurnProcessTable, SweepPass>();

function taggedSoon(
  tag: string,
  table: TurnProcessTable,
  since: PidMark | undefined,
): Promise<ProcessIdentity[]> {
  let pass = sweepPasses.get(table);
  if (pass === undefined) {
    const tags = new Set<string>();
    let resolveFound: (found: Map<string, number[]>) => void = () => {};
    const found = new Promise<Map<string, number[]>>((resolve) => {
      resolveFound = resolve;
    });
    const created: SweepPass = { tags, since, found };
    setImmediate(() => {
      sweepPasses.delete(table);
      resolveFound(
        table.pidsByEnv?.(TAG_VARIABLE, tags, created.since) ??
          new Map([...tags].map((each) => [each, table.pidsWithEnv(TAG_VARIABLE, each)])),
      );
    });
    pass = created;
    sweepPasses.set(table, pass);
  } else if (pass.since !== undefined && (since === undefined || since.forks < pass.since.forks)) {
    pass.since = since;
  }
  pass.tags.add(tag);
  return pass.found.then((found) => identities(found.get(tag) ?? [], table));
}

/** Live processes carrying `tag`, never this one (an scv started by a reaped agent carries its tag). */
function taggedProcesses(tag: string, table: TurnProcessTable): ProcessIdentity[] {
  return identities(table.pidsWithEnv(TAG_VARIABLE, tag), table);
}

function identities(pids: readonly number[], table: TurnProcessTable): ProcessIdentity[] {
  const found: ProcessIdentity[] = [];
  for (const pid of pids) {
    if (pid === process.pid) continue;
    const identity = identify(pid, table);
    if (identity !== undefined) found.push(identity);
  }
  return found;
}

// --- background results -----------------------------------------------------------------------------

/** Saves a background turn's result for `scv wait`, then drops its running record: in that order, so
 * a waiter always finds one of the two. */
export function saveBackgroundResult(
  handle: string,
  result: TurnResult,
  startedAt: Date,
  env: Env = process.env,
): void {
  ensureTurnsDir(env);
  const running_ = readRunning(handle, env);
  const mine = running_ !== undefined && running_.scv.pid === process.pid ? running_ : undefined;
  const finished: FinishedTurnRecord = {
    version: 1,
    handle,
    tag: mine?.tag ?? null,
    agent: result.agent || (mine?.agent ?? ""),
    background: true,
    reaped: false,
    startedAt: mine?.startedAt ?? startedAt.toISOString(),
    endedAt: new Date().toISOString(),
    result,
  };
  writeRecord(turnFile(handle, "done", env), finished, true);
  if (mine !== undefined) removeIfPresent(turnFile(handle, "running", env));
}

/** Removes a result once read, with its log. */
export function consumeResult(handle: string, env: Env = process.env): void {
  removeIfPresent(turnFile(handle, "done", env));
  removeIfPresent(turnFile(handle, "log", env));
}

// --- listing, reaping, stopping ---------------------------------------------------------------------

/** The turns running now (their scv alive), oldest first. */
export function listRunning(env: Env = process.env, table = systemTurnProcesses): RunningTurnRecord[] {
  const host = hostname();
  return runningHandles(env)
    .map((handle) => readRunning(handle, env))
    .filter((record): record is RunningTurnRecord => record !== undefined)
    .filter((record) => record.host === host && ownerAlive(record, table))
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}

/** Whether the turn of `handle` whose tag was `tag` has ended (its record gone or replaced). */
export function turnEnded(handle: string, tag: string, env: Env = process.env): boolean {
  return readRunning(handle, env)?.tag !== tag;
}

/** Whether a running record's scv is alive. */
export function turnOwnerAlive(record: RunningTurnRecord, table = systemTurnProcesses): boolean {
  return record.host !== hostname() || ownerAlive(record, table);
}

/** Reaps every turn whose scv died: kills what it left (matching start times or the tag), records it
 * `cancelled`. A reaped agent's own scv (a nested delegation) is reaped with it. Never throws;
 * returns the handles reaped. */
export async function reapOrphans(env: Env = process.env, table = systemTurnProcesses): Promise<string[]> {
  const host = hostname();
  const records = runningHandles(env)
    .map((handle) => readRunning(handle, env))
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

/** Reaps one turn if its scv is dead (or was just killed by the reaper); undefined when it is alive,
 * gone already, or another scv is reaping it. */
export async function reapHandle(
  handle: string,
  env: Env = process.env,
  table = systemTurnProcesses,
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
async function reapLocked(
  record: RunningTurnRecord,
  env: Env,
  table: TurnProcessTable,
): Promise<ProcessIdentity[]> {
  const victims = killLeftovers(record, table);
  if (record.tmp !== undefined && isTurnTemp(record.tmp, record.handle)) removeTurnTemp(record.tmp);
  const saved = readFinished(record.handle, env);
  if (saved?.tag !== record.tag) {
    // (A background runner that died after saving its result left the result to keep.)
    writeRecord(turnFile(record.handle, "done", env), cancelledTurn(record, env), true);
  }
  removeIfPresent(turnFile(record.handle, "running", env));
  removeIfPresent(turnFile(record.handle, "cancel", env));
  if (record.lock !== undefined) releaseDeadLock(record.handle, record.lock, env);
  return victims;
}

/** SIGKILLs the agent's group (when its leader is still the recorded process) and every process
 * carrying the turn's tag, a few rounds, in case one forks meanwhile. */
export function killLeftovers(record: RunningTurnRecord, table: TurnProcessTable): ProcessIdentity[] {
  const boot = bootId();
  if (record.boot !== undefined && boot !== undefined && record.boot !== boot) return [];
  const victims: ProcessIdentity[] = [];
  const agent = record.agentProcess;
  if (agent !== undefined && running(agent, table)) {
    victims.push(agent);
    table.kill(agent.pid, "SIGKILL", true);
  }
  for (let round = 0; round < 5; round += 1) {
    const tagged = taggedProcesses(record.tag, table).filter((found) => !table.zombie(found.pid));
    if (tagged.length === 0) break;
    for (const found of tagged) {
      victims.push(found);
      table.kill(found.pid, "SIGKILL", true);
    }
  }
  return victims;
}

/** The result of a turn whose scv died; the conversation (if it has a record that this turn had not
 * updated yet) is marked cancelled too. */
function cancelledTurn(record: RunningTurnRecord, env: Env): FinishedTurnRecord {
  const now = new Date();
  let conversation: string | null = null;
  let session: string | null = null;
  try {
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
  const result: TurnResult = {
    reply: "",
    status: "cancelled",
    agent: record.agent,
    conversation,
    session,
    usage: null,
    cost: null,
    duration: Math.max(0, now.getTime() - Date.parse(record.startedAt)),
    exitCode: EXIT.terminated,
    error: `the scv running this turn (pid ${record.scv.pid}) died, and a later scv stopped ${record.agent}`,
    hint:
      conversation === null
        ? "run the turn again"
        : `continue the conversation: scv delegate -c ${conversation} "…"`,
    fallbacks: [],
    notes: [],
    mode: null,
    badLines: 0,
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

export type KillOutcome = "stopped" | "reaped";

/** Stops the running turn `handle`: asks its scv (SIGUSR2 and a cancel file naming the turn's tag),
 * which ends the agent's group as on SIGTERM and records the turn; if the scv does not answer in
 * time, kills the agent directly, and a background turn's scv last. */
export async function killTurn(
  handle: string,
  env: Env = process.env,
  options: { table?: TurnProcessTable; graceMs?: number } = {},
): Promise<KillOutcome> {
  const table = options.table ?? systemTurnProcesses;
  const graceMs = options.graceMs ?? 3_000;
  const record = readRunning(handle, env);
  if (record === undefined) {
    throw new ScvError(
      "USAGE",
      readFinished(handle, env) === undefined
        ? `no running turn ${handle} — scv ps lists them`
        : `turn ${handle} has ended already — read its result: scv wait ${handle}`,
    );
  }
  if (record.host !== hostname()) {
    throw new ScvError("USAGE", `turn ${handle} runs on ${record.host} — stop it there`);
  }
  if (!ownerAlive(record, table)) {
    await reapHandle(handle, env, table);
    return "reaped";
  }
  const cancelFile = turnFile(handle, "cancel", env);
  writeAtomicSync(cancelFile, `${record.tag}\n`, { fsync: false });
  try {
    table.kill(record.scv.pid, "SIGUSR2", false);
    const ended = () => turnEnded(handle, record.tag, env);
    if (await until(ended, graceMs + 5_000)) return "stopped";
    // The scv did not answer; it sees its agent end when the agent is killed.
    killLeftovers(record, table);
    if (await until(ended, 5_000)) return "stopped";
    // A background turn's scv runs nothing else.
    if (record.background && running(record.scv, table)) {
      table.kill(record.scv.pid, "SIGKILL", false);
      await until(() => !running(record.scv, table), 5_000);
      await reapHandle(handle, env, table, true);
      return "reaped";
    }
  } finally {
    removeIfPresent(cancelFile);
  }
  throw new ScvError(
    "AGENT_FAILED",
    `could not stop ${handle}: its scv (pid ${record.scv.pid}) does not answer — end it with: kill ${record.scv.pid}`,
  );
}

/** Polls `done` every 50 ms for at most `withinMs`. */
export async function until(done: () => boolean, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (done()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
