// Cleaning up after agents and after scv: `scv agents gc` and `scv conversations rm --transcript`.
//
// Planning only reads. It walks each agent's transcript folder (its row's `conversationFiles`) and
// scv's conversation folder without following a symlink, and picks what may go:
//   - transcripts last written before the threshold whose session no conversation used within it names;
//   - conversation records not used within the threshold and not locked by a running turn;
//   - lock folders and temp files left by crashed runs;
//   - folders below the transcript folder that those removals empty.
// Removing re-checks every path just before it goes (still the same kind of entry, same mtime, its
// folder still its own real path), so a CLI writing meanwhile or a symlink swapped in is left alone,
// and the report is built from what was really removed.

import {
  lstatSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmdirSync,
  type Stats,
  unlinkSync,
} from "node:fs";
import { dirname, join, sep } from "node:path";
import * as z from "zod/mini";
import { ADAPTERS, type AdapterDescriptor } from "../adapters.js";
import { formatDuration } from "../duration.js";
import { ScvError } from "../errors.js";
import { conversationSchema, conversationsDir, HANDLE_PATTERN, lockConversation } from "./conversations.js";
import { agentHome, type Env, scvHome } from "./paths.js";
import { turnsDir } from "./turn-files.js";

const HOUR_MS = 3_600_000;
export const DEFAULT_OLDER_THAN_MS = 30 * 24 * HOUR_MS;
/** Anything written this recently is kept whatever the threshold: a CLI or a turn may still be writing it. */
export const RECENT_MS = HOUR_MS;
/** The smallest threshold gc accepts; a smaller one would only race running turns. */
export const MIN_OLDER_THAN_MS = RECENT_MS;
/** Transcript trees are a few levels deep (codex: `sessions/YYYY/MM/DD`); deeper is not a transcript. */
const MAX_DEPTH = 16;
/** A session id scv will look for in file names when the row has no resume pattern of its own. */
const SESSION_ID_SHAPE = /^[0-9A-Za-z][0-9A-Za-z_-]{7,127}$/;

export const GC_KINDS = ["transcript", "record", "lock", "temp", "folder", "result"] as const;
export type GcKind = (typeof GC_KINDS)[number];

/** One path gc would remove, as found when planning. */
export interface GcItem {
  readonly kind: GcKind;
  /** Absolute and real (no symlink on the way). */
  readonly path: string;
  readonly bytes: number;
  readonly mtimeMs: number;
  /** The conversation whose lock is held while this goes: an old record, and transcripts of its session. */
  readonly handle?: string;
}

/** A path left in place, and why. */
export interface GcNote {
  readonly path: string;
  readonly reason: string;
}

export interface AgentGcPlan {
  readonly agent: string;
  /** Why this agent's transcripts were not looked at; its conversation records still are. */
  readonly skipped?: string;
  readonly items: readonly GcItem[];
  /** What gc looked at and had to leave, worth telling (an unreadable or symlinked folder). */
  readonly notes: readonly GcNote[];
}

export interface GcPlan {
  readonly now: number;
  readonly olderThanMs: number;
  readonly agents: readonly AgentGcPlan[];
  /** What gc had to leave in scv's own conversation folder. */
  readonly notes: readonly GcNote[];
}

export interface AgentGcResult {
  readonly agent: string;
  readonly removed: readonly GcItem[];
  /** Planned but left: changed meanwhile, already gone, a turn running in its conversation. */
  readonly kept: readonly GcNote[];
  readonly failed: readonly GcNote[];
}

export interface GcOptions {
  readonly env?: Env;
  readonly now?: number;
  readonly olderThanMs?: number;
  /** One agent; every agent when absent. */
  readonly agent?: string;
  readonly adapters?: readonly AdapterDescriptor[];
}

// ---------------------------------------------------------------------------------------------
// Names

/** What a file in scv's conversation folder is. Records are `<handle>.json`; proper-lockfile locks one
 * with a `<handle>.json.lock` folder; atomic.ts writes `<handle>.json.<32-bit number>` and
 * renames it over the record, so one still there means a crash mid-write. */
export function conversationEntry(
  name: string,
): { kind: "record" | "lock" | "temp"; handle: string } | undefined {
  const match = /^([^.]+)\.json(?:\.(lock|\d{1,10}))?$/.exec(name);
  const handle = match?.[1];
  if (match === null || handle === undefined || !HANDLE_PATTERN.test(handle)) return undefined;
  const suffix = match[2];
  return { kind: suffix === undefined ? "record" : suffix === "lock" ? "lock" : "temp", handle };
}

/** The agent a handle names: `claude-ai-k3f9x2` → `claude-ai`. */
export function handleAgent(handle: string): string {
  return handle.slice(0, handle.lastIndexOf("-"));
}

/** The session a transcript belongs to, among `sessions`. A transcript belongs to a session when its
 * name (without extension) or a folder between the transcript folder and it is the id, or ends with it
 * after a `-`, `_` or `.`: Claude Code and Qwen Code write `<id>.jsonl`, Codex `rollout-<time>-<id>.jsonl`,
 * pi `<time>_<id>.jsonl`, and Claude Code keeps a session's subagents in `<id>/subagents/`. */
export function sessionOf(
  names: readonly string[],
  sessions: ReadonlyMap<string, unknown>,
): string | undefined {
  for (const name of names) {
    if (sessions.has(name)) return name;
    for (let index = 0; index < name.length; index++) {
      const char = name[index];
      if (char !== "-" && char !== "_" && char !== ".") continue;
      const tail = name.slice(index + 1);
      if (sessions.has(tail)) return tail;
    }
  }
  return undefined;
}

/** A recorded session id gc may look for: the shape the row resumes with, so a damaged or odd value
 * (an empty string would end every name) never matches files it does not name. */
export function usableSessionId(entry: AdapterDescriptor | undefined, id: string | undefined): id is string {
  if (id === undefined) return false;
  const pattern = entry?.resume.kind === "supported" ? entry.resume.idPattern : SESSION_ID_SHAPE;
  return id.length >= 8 && pattern.test(id);
}

// ---------------------------------------------------------------------------------------------
// Reading the disk

type Folder =
  | { kind: "found"; path: string; mtimeMs: number }
  | { kind: "missing" }
  | { kind: "refused"; reason: string };

/** `base/relative` when it is a folder reached from the real `base` through no symlink. */
function realFolder(base: string, relative: string): Folder {
  let realBase: string;
  try {
    realBase = realpathSync(base);
  } catch {
    return { kind: "missing" };
  }
  const path = join(realBase, relative);
  let stats: Stats;
  let real: string;
  try {
    stats = lstatSync(path);
    real = realpathSync(path);
  } catch {
    // A dangling symlink on the way reads as missing to realpath; lstat found something: refuse it.
    return safeLstat(path)
      ? { kind: "refused", reason: "reached through a symlink — left alone" }
      : { kind: "missing" };
  }
  if (real !== path || !stats.isDirectory()) {
    return { kind: "refused", reason: "reached through a symlink or not a folder — left alone" };
  }
  return { kind: "found", path, mtimeMs: stats.mtimeMs };
}

function safeLstat(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function isEmptyFolder(path: string): boolean {
  try {
    return readdirSync(path).length === 0;
  } catch {
    return false;
  }
}

function errorCode(error: unknown): string {
  return (
    (error as NodeJS.ErrnoException | undefined)?.code ??
    (error instanceof Error ? error.message : String(error))
  );
}

interface TreeFile {
  readonly path: string;
  readonly bytes: number;
  readonly mtimeMs: number;
  /** The folders below the transcript folder, then the file's own name without its extension. */
  readonly names: readonly string[];
}

interface TreeFolder {
  readonly path: string;
  readonly mtimeMs: number;
  readonly files: TreeFile[];
  readonly folders: TreeFolder[];
  /** Entries gc never removes: other extensions, symlinks, sockets, what it could not read. */
  others: number;
}

/** The transcript folder's tree; never enters a symlink (lstat), keeps only `.<extension>` files. */
function scanTree(
  path: string,
  mtimeMs: number,
  extension: string,
  names: readonly string[],
  notes: GcNote[],
): TreeFolder {
  const folder: TreeFolder = { path, mtimeMs, files: [], folders: [], others: 0 };
  let entries: string[];
  try {
    entries = readdirSync(path).sort();
  } catch (error) {
    notes.push({ path, reason: `could not read it (${errorCode(error)})` });
    folder.others++;
    return folder;
  }
  const suffix = `.${extension}`;
  for (const name of entries) {
    const child = join(path, name);
    const stats = safeLstat(child);
    if (stats?.isDirectory() && names.length < MAX_DEPTH) {
      folder.folders.push(scanTree(child, stats.mtimeMs, extension, [...names, name], notes));
    } else if (stats?.isFile() && name.endsWith(suffix) && name.length > suffix.length) {
      const stem = name.slice(0, -suffix.length);
      folder.files.push({ path: child, bytes: stats.size, mtimeMs: stats.mtimeMs, names: [...names, stem] });
    } else {
      folder.others++;
    }
  }
  return folder;
}

function allFiles(folder: TreeFolder, into: TreeFile[] = []): TreeFile[] {
  into.push(...folder.files);
  for (const child of folder.folders) allFiles(child, into);
  return into;
}

/** Folders below `root` that removing `chosen` empties, deepest first. A folder written within the
 * last `RECENT_MS` stays even then: a CLI may have just created it for a file it is about to write. */
function emptiedFolders(root: TreeFolder, chosen: ReadonlySet<string>, recentCutoff: number): GcItem[] {
  const out: GcItem[] = [];
  const visit = (folder: TreeFolder): boolean => {
    let empties = folder.others === 0;
    let removesSomething = false;
    for (const child of folder.folders) {
      if (visit(child)) removesSomething = true;
      else empties = false;
    }
    for (const file of folder.files) {
      if (chosen.has(file.path)) removesSomething = true;
      else empties = false;
    }
    const goes = empties && removesSomething && folder.mtimeMs < recentCutoff;
    if (goes && folder !== root) {
      out.push({ kind: "folder", path: folder.path, bytes: 0, mtimeMs: folder.mtimeMs });
    }
    return goes;
  };
  visit(root);
  return out;
}

interface RecordFile {
  readonly handle: string;
  readonly agent: string;
  readonly path: string;
  readonly bytes: number;
  readonly mtimeMs: number;
  /** The later of its `updatedAt` and its mtime: a record counts as used when either says so. */
  readonly usedAt: number;
  readonly sessionId?: string;
}

interface ConversationScan {
  readonly records: RecordFile[];
  readonly locks: Map<string, { path: string; mtimeMs: number }>;
  readonly temps: { handle: string; path: string; bytes: number; mtimeMs: number }[];
  readonly notes: GcNote[];
}

function scanConversations(env: Env): ConversationScan {
  const scan: ConversationScan = { records: [], locks: new Map(), temps: [], notes: [] };
  const folder = realFolder(scvHome(env), "conversations");
  if (folder.kind === "refused") scan.notes.push({ path: conversationsDir(env), reason: folder.reason });
  if (folder.kind !== "found") return scan;
  let names: string[];
  try {
    names = readdirSync(folder.path).sort();
  } catch (error) {
    scan.notes.push({ path: folder.path, reason: `could not read it (${errorCode(error)})` });
    return scan;
  }
  for (const name of names) {
    const entry = conversationEntry(name);
    if (entry === undefined) continue;
    const path = join(folder.path, name);
    const stats = safeLstat(path);
    if (stats === undefined) continue;
    if (entry.kind === "lock") {
      // proper-lockfile's lock is an empty folder; one holding anything is not its, and stays.
      if (stats.isDirectory() && isEmptyFolder(path))
        scan.locks.set(entry.handle, { path, mtimeMs: stats.mtimeMs });
    } else if (!stats.isFile()) {
      // A symlink or anything else named like a record is not scv's: never read or removed.
    } else if (entry.kind === "temp") {
      scan.temps.push({ handle: entry.handle, path, bytes: stats.size, mtimeMs: stats.mtimeMs });
    } else {
      scan.records.push(readRecordFile(entry.handle, path, stats));
    }
  }
  return scan;
}

/** What gc needs of a record; a damaged one still counts, by its mtime and the agent its handle names. */
function readRecordFile(handle: string, path: string, stats: Stats): RecordFile {
  const base = { handle, agent: handleAgent(handle), path, bytes: stats.size, mtimeMs: stats.mtimeMs };
  let parsed: ReturnType<ReturnType<typeof conversationSchema>["safeParse"]> | undefined;
  try {
    parsed = conversationSchema().safeParse(JSON.parse(readFileSync(path, "utf8")));
  } catch {
    parsed = undefined;
  }
  if (!parsed?.success) return { ...base, usedAt: stats.mtimeMs };
  const updated = Date.parse(parsed.data.updatedAt);
  return {
    ...base,
    agent: parsed.data.agent,
    usedAt: Number.isNaN(updated) ? stats.mtimeMs : Math.max(updated, stats.mtimeMs),
    ...(parsed.data.sessionId === undefined ? {} : { sessionId: parsed.data.sessionId }),
  };
}

// ---------------------------------------------------------------------------------------------
// Planning

/** What `scv agents gc` would remove now. Reads only. */
export function planGc(options: GcOptions = {}): GcPlan {
  const env = options.env ?? process.env;
  const now = options.now ?? Date.now();
  const olderThanMs = options.olderThanMs ?? DEFAULT_OLDER_THAN_MS;
  if (!(olderThanMs >= MIN_OLDER_THAN_MS)) throw olderThanTooSmall(formatDuration(olderThanMs));
  const adapters = options.adapters ?? ADAPTERS;
  const byName = new Map(adapters.map((entry) => [entry.name, entry]));
  if (options.agent !== undefined && !byName.has(options.agent)) {
    throw new ScvError(
      "UNKNOWN_AGENT",
      `unknown agent '${options.agent}' — known: ${adapters.map((entry) => entry.name).join(", ")}`,
    );
  }

  const cutoff = now - olderThanMs;
  const recentCutoff = now - RECENT_MS;
  const scan = scanConversations(env);

  // Sessions of conversations used within the threshold (or with a turn running now) keep their
  // transcripts; sessions of records about to go are removed under that record's lock.
  const liveSessions = new Map<string, Map<string, string>>();
  const oldSessions = new Map<string, Map<string, string>>();
  const recordItems = new Map<string, GcItem[]>();
  const sessionsOf = (table: Map<string, Map<string, string>>, agent: string) => {
    const sessions = table.get(agent) ?? new Map<string, string>();
    table.set(agent, sessions);
    return sessions;
  };
  const push = (table: Map<string, GcItem[]>, agent: string, item: GcItem) => {
    const list = table.get(agent);
    if (list === undefined) table.set(agent, [item]);
    else list.push(item);
  };
  const isOld = (mtimeMs: number) => mtimeMs < cutoff && mtimeMs < recentCutoff;

  const oldRecords: { record: RecordFile; session: string | undefined }[] = [];
  for (const record of scan.records) {
    const lock = scan.locks.get(record.handle);
    const running = lock !== undefined && lock.mtimeMs >= recentCutoff;
    const { sessionId } = record;
    const session = usableSessionId(byName.get(record.agent), sessionId) ? sessionId : undefined;
    if (record.usedAt >= cutoff || running) {
      if (session !== undefined) sessionsOf(liveSessions, record.agent).set(session, record.handle);
    } else {
      oldRecords.push({ record, session });
    }
  }
  for (const { record, session } of oldRecords) {
    // A session a live record also names stays theirs.
    if (session !== undefined && !liveSessions.get(record.agent)?.has(session)) {
      sessionsOf(oldSessions, record.agent).set(session, record.handle);
    }
    push(recordItems, record.agent, {
      kind: "record",
      path: record.path,
      bytes: record.bytes,
      mtimeMs: record.mtimeMs,
      handle: record.handle,
    });
  }
  // Leftovers of crashed runs are never read again, so an hour is old enough whatever the threshold:
  // a running turn's lock is refreshed every few seconds, and a write finishes in milliseconds.
  for (const [handle, lock] of scan.locks) {
    if (lock.mtimeMs < recentCutoff)
      push(recordItems, handleAgent(handle), { kind: "lock", ...lock, bytes: 0 });
  }
  for (const temp of scan.temps) {
    if (temp.mtimeMs < recentCutoff) {
      push(recordItems, handleAgent(temp.handle), {
        kind: "temp",
        path: temp.path,
        bytes: temp.bytes,
        mtimeMs: temp.mtimeMs,
      });
    }
  }

  // Finished background turns' results and logs survive until read (`scv wait`) or aged out here;
  // a turn still running (its `<handle>.json`) keeps its files.
  for (const item of planTurnFiles(env, isOld)) push(recordItems, handleAgent(item.handle ?? ""), item);

  const selected =
    options.agent === undefined ? adapters : adapters.filter((entry) => entry.name === options.agent);
  const agents: AgentGcPlan[] = selected.map((entry) => {
    const transcripts = planTranscripts(entry, env, {
      isOld,
      recentCutoff,
      live: liveSessions.get(entry.name) ?? new Map(),
      old: oldSessions.get(entry.name) ?? new Map(),
    });
    const items = [...transcripts.items, ...(recordItems.get(entry.name) ?? [])];
    return transcripts.skipped === undefined
      ? { agent: entry.name, items, notes: transcripts.notes }
      : { agent: entry.name, skipped: transcripts.skipped, items, notes: transcripts.notes };
  });
  if (options.agent === undefined) {
    // Records of agents this scv no longer has in its table still age out.
    for (const [agent, items] of recordItems) {
      if (byName.has(agent)) continue;
      agents.push({ agent, skipped: "not an agent this scv knows", items, notes: [] });
    }
  }
  return { now, olderThanMs, agents, notes: scan.notes };
}

/** Unread results, logs and cancel marks of finished turns in `$SCV_HOME/turns`, old enough to go. */
function planTurnFiles(env: Env, isOld: (mtimeMs: number) => boolean): GcItem[] {
  const dir = turnsDir(env);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const items: GcItem[] = [];
  for (const name of names) {
    const match = /^([a-z][a-z0-9-]*)\.(done\.json|log|cancel)$/.exec(name);
    const handle = match?.[1];
    if (handle === undefined || !HANDLE_PATTERN.test(handle)) continue;
    if (names.includes(`${handle}.json`)) continue;
    const path = join(dir, name);
    const stats = safeLstat(path);
    if (stats === undefined || !stats.isFile() || !isOld(stats.mtimeMs)) continue;
    items.push({ kind: "result", path, bytes: stats.size, mtimeMs: stats.mtimeMs, handle });
  }
  return items;
}

function planTranscripts(
  entry: AdapterDescriptor,
  env: Env,
  rules: {
    isOld: (mtimeMs: number) => boolean;
    recentCutoff: number;
    live: ReadonlyMap<string, string>;
    old: ReadonlyMap<string, string>;
  },
): { skipped?: string; items: GcItem[]; notes: GcNote[] } {
  const files = entry.conversationFiles;
  if (files === null)
    return { skipped: "scv does not know where it keeps transcripts", items: [], notes: [] };
  const folder = realFolder(agentHome(entry.name, env), files.dir);
  if (folder.kind === "missing") return { items: [], notes: [] };
  if (folder.kind === "refused") {
    return {
      items: [],
      notes: [{ path: join(agentHome(entry.name, env), files.dir), reason: folder.reason }],
    };
  }
  const notes: GcNote[] = [];
  const tree = scanTree(folder.path, folder.mtimeMs, files.extension, [], notes);
  const items: GcItem[] = [];
  for (const file of allFiles(tree)) {
    if (!rules.isOld(file.mtimeMs)) continue;
    if (sessionOf(file.names, rules.live) !== undefined) continue;
    const session = sessionOf(file.names, rules.old);
    const handle = session === undefined ? undefined : rules.old.get(session);
    items.push({
      kind: "transcript",
      path: file.path,
      bytes: file.bytes,
      mtimeMs: file.mtimeMs,
      ...(handle === undefined ? {} : { handle }),
    });
  }
  items.sort((a, b) => a.path.localeCompare(b.path));
  const chosen = new Set(items.map((item) => item.path));
  return { items: [...items, ...emptiedFolders(tree, chosen, rules.recentCutoff)], notes };
}

export function olderThanTooSmall(text: string): ScvError {
  return new ScvError(
    "USAGE",
    `--older-than ${text} is below the 1h minimum: anything written in the last hour may still be in use — use 1h or more`,
  );
}

// ---------------------------------------------------------------------------------------------
// Removing

type Outcome = { kind: "removed" } | { kind: "kept"; reason: string } | { kind: "failed"; reason: string };

/** The calls that remove; tests pass failing ones to see how a failure is reported. */
export interface Remover {
  readonly unlink: (path: string) => void;
  readonly rmdir: (path: string) => void;
}

const FS_REMOVER: Remover = { unlink: unlinkSync, rmdir: rmdirSync };

/** The real paths of `paths` that exist: the only folders gc may remove anything below. */
function realRoots(...paths: string[]): string[] {
  return paths.flatMap((path) => {
    try {
      return [realpathSync(path)];
    } catch {
      return [];
    }
  });
}

/** Removes one planned path if it is still what the plan saw and really lies below one of `roots`. */
function removeChecked(item: GcItem, roots: readonly string[], remover: Remover): Outcome {
  const stats = safeLstat(item.path);
  if (stats === undefined) return { kind: "kept", reason: "already gone" };
  const folder = item.kind === "lock" || item.kind === "folder";
  if (folder ? !stats.isDirectory() : !stats.isFile()) {
    return { kind: "kept", reason: `no longer a plain ${folder ? "folder" : "file"}` };
  }
  // A folder's mtime moves as gc empties it; files and lock folders must be as planned.
  if (item.kind !== "folder" && (stats.mtimeMs !== item.mtimeMs || (!folder && stats.size !== item.bytes))) {
    return { kind: "kept", reason: "written since gc looked" };
  }
  const parent = dirname(item.path);
  let realParent: string;
  try {
    realParent = realpathSync(parent);
  } catch {
    return { kind: "kept", reason: "its folder is gone" };
  }
  if (realParent !== parent) return { kind: "kept", reason: "its folder is now reached through a symlink" };
  if (!roots.some((root) => realParent === root || realParent.startsWith(`${root}${sep}`))) {
    return { kind: "kept", reason: "outside the agent home and scv's conversations" };
  }
  try {
    if (folder) remover.rmdir(item.path);
    else remover.unlink(item.path);
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT") return { kind: "kept", reason: "already gone" };
    if (code === "ENOTEMPTY" || code === "EEXIST") return { kind: "kept", reason: "not empty" };
    return { kind: "failed", reason: code };
  }
  return { kind: "removed" };
}

/** Removes what `plan` lists, re-checking each path; an old record and its session's transcripts go
 * while gc holds that conversation's lock, so a turn starting on it meanwhile keeps both. */
export async function applyGc(
  plan: GcPlan,
  env: Env = process.env,
  remover: Remover = FS_REMOVER,
): Promise<AgentGcResult[]> {
  const results: AgentGcResult[] = [];
  for (const agent of plan.agents) {
    const removed: GcItem[] = [];
    const kept: GcNote[] = [...agent.notes];
    const failed: GcNote[] = [];
    const roots = realRoots(agentHome(agent.agent, env), conversationsDir(env), turnsDir(env));
    const run = (item: GcItem) => {
      const outcome = removeChecked(item, roots, remover);
      if (outcome.kind === "removed") removed.push(item);
      else (outcome.kind === "kept" ? kept : failed).push({ path: item.path, reason: outcome.reason });
    };
    const ofKind = (...kinds: GcKind[]) => agent.items.filter((item) => kinds.includes(item.kind));

    // Crashed runs' leftovers first, so a stale lock does not make its conversation look busy.
    for (const item of ofKind("lock", "temp")) run(item);

    const busy = new Map<string, string>();
    const releases: (() => Promise<void>)[] = [];
    try {
      for (const handle of new Set(
        agent.items.flatMap((item) => (item.handle === undefined ? [] : [item.handle])),
      )) {
        try {
          releases.push(await lockConversation(handle, env, 0));
        } catch (error) {
          busy.set(
            handle,
            error instanceof ScvError && error.code === "CONVERSATION_BUSY"
              ? `a turn of ${handle} is running`
              : `could not lock ${handle} (${errorCode(error)})`,
          );
        }
      }
      for (const item of ofKind("transcript", "record", "result")) {
        const reason = item.handle === undefined ? undefined : busy.get(item.handle);
        if (reason === undefined) run(item);
        else kept.push({ path: item.path, reason });
      }
    } finally {
      for (const release of releases) await release().catch(() => undefined);
    }
    for (const item of ofKind("folder")) run(item);
    results.push({ agent: agent.agent, removed, kept, failed });
  }
  return results;
}

// ---------------------------------------------------------------------------------------------
// One conversation's transcripts (`scv conversations rm --transcript`)

export type TranscriptSearch =
  | { kind: "found"; items: GcItem[]; dir: string }
  | { kind: "unknown"; reason: string };

/** The transcript files of `sessionId` in `entry`'s home, and the folders removing them empties. */
export function findTranscripts(
  entry: AdapterDescriptor,
  sessionId: string,
  env: Env = process.env,
): TranscriptSearch {
  const files = entry.conversationFiles;
  if (files === null)
    return { kind: "unknown", reason: `scv does not know where ${entry.product} keeps transcripts` };
  if (!usableSessionId(entry, sessionId)) {
    return {
      kind: "unknown",
      reason: `the recorded session id '${sessionId}' does not look like a ${entry.product} one`,
    };
  }
  const dir = join(agentHome(entry.name, env), files.dir);
  const folder = realFolder(agentHome(entry.name, env), files.dir);
  if (folder.kind === "missing") return { kind: "found", items: [], dir };
  if (folder.kind === "refused") return { kind: "unknown", reason: `${dir} is ${folder.reason}` };
  const tree = scanTree(folder.path, folder.mtimeMs, files.extension, [], []);
  const wanted = new Map([[sessionId, sessionId]]);
  const items: GcItem[] = allFiles(tree)
    .filter((file) => sessionOf(file.names, wanted) !== undefined)
    .map((file) => ({ kind: "transcript", path: file.path, bytes: file.bytes, mtimeMs: file.mtimeMs }));
  // The user asked for this session's files by name, so its folders go however recent.
  const chosen = new Set(items.map((item) => item.path));
  return { kind: "found", items: [...items, ...emptiedFolders(tree, chosen, Number.POSITIVE_INFINITY)], dir };
}

/** Removes what `findTranscripts` found in `entry`'s home, re-checking each path. */
export function removeTranscripts(
  entry: AdapterDescriptor,
  items: readonly GcItem[],
  env: Env = process.env,
  remover: Remover = FS_REMOVER,
): {
  removed: GcItem[];
  kept: GcNote[];
  failed: GcNote[];
} {
  const result = { removed: [] as GcItem[], kept: [] as GcNote[], failed: [] as GcNote[] };
  const roots = realRoots(agentHome(entry.name, env));
  for (const item of items) {
    const outcome = removeChecked(item, roots, remover);
    if (outcome.kind === "removed") result.removed.push(item);
    else
      (outcome.kind === "kept" ? result.kept : result.failed).push({
        path: item.path,
        reason: outcome.reason,
      });
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// The report (`scv agents gc --json` prints it as is; the table is rendered from it)

const countsSchema = z.object({
  transcripts: z.int().check(z.nonnegative()),
  records: z.int().check(z.nonnegative()),
  /** Lock folders and temp files left by crashed runs. */
  leftovers: z.int().check(z.nonnegative()),
  folders: z.int().check(z.nonnegative()),
  bytes: z.int().check(z.nonnegative()),
});

const noteSchema = z.object({ path: z.string(), reason: z.string() });

export const gcReportSchema = z.object({
  /** True when nothing was removed and `items` is what would go. */
  dryRun: z.boolean(),
  olderThan: z.string(),
  olderThanMs: z.int().check(z.positive()),
  /** What gc had to leave in scv's own conversation folder. */
  notes: z.array(noteSchema),
  agents: z.array(
    z.object({
      agent: z.string(),
      /** Why its transcripts were not looked at, or null. */
      skipped: z.nullable(z.string()),
      counts: countsSchema,
      items: z.array(
        z.object({
          kind: z.enum(GC_KINDS),
          path: z.string(),
          bytes: z.int().check(z.nonnegative()),
          modified: z.string(),
          handle: z.optional(z.string()),
        }),
      ),
      kept: z.array(noteSchema),
      failed: z.array(noteSchema),
    }),
  ),
  total: countsSchema,
});

export type GcReport = z.infer<typeof gcReportSchema>;
export type GcCounts = z.infer<typeof countsSchema>;

export function countItems(items: readonly GcItem[]): GcCounts {
  const counts: GcCounts = { transcripts: 0, records: 0, leftovers: 0, folders: 0, bytes: 0 };
  for (const item of items) {
    if (item.kind === "transcript") counts.transcripts++;
    else if (item.kind === "record") counts.records++;
    else if (item.kind === "folder") counts.folders++;
    else counts.leftovers++;
    counts.bytes += item.bytes;
  }
  return counts;
}

/** The report of a dry run (`results` absent: what would go) or of a run (what went). */
export function gcReport(plan: GcPlan, results?: readonly AgentGcResult[]): GcReport {
  const agents = plan.agents.map((agent) => {
    const result = results?.find((candidate) => candidate.agent === agent.agent);
    const items = result === undefined ? agent.items : result.removed;
    return {
      agent: agent.agent,
      skipped: agent.skipped ?? null,
      counts: countItems(items),
      items: items.map((item) => ({
        kind: item.kind,
        path: item.path,
        bytes: item.bytes,
        modified: new Date(item.mtimeMs).toISOString(),
        ...(item.handle === undefined ? {} : { handle: item.handle }),
      })),
      kept: [...(result === undefined ? agent.notes : result.kept)],
      failed: [...(result?.failed ?? [])],
    };
  });
  const total = countItems([]);
  for (const agent of agents) {
    for (const key of Object.keys(total) as (keyof GcCounts)[]) total[key] += agent.counts[key];
  }
  return {
    dryRun: results === undefined,
    olderThan: formatDuration(plan.olderThanMs),
    olderThanMs: plan.olderThanMs,
    notes: [...plan.notes],
    agents,
    total,
  };
}
