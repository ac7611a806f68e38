// Planning `scv agents gc`. Planning only reads. It walks each agent's transcript folder (its row's
// `conversationFiles`) and scv's conversation folder without following a symlink, and picks what
// may go:
//   - transcripts last written before the threshold whose session no conversation used within it names;
//   - conversation records not used within the threshold and not locked by a running turn;
//   - lock folders and temp files left by crashed runs (of records, results, and key stores: a key
//     written by an scv killed mid-write stays in the clear beside its store's file);
//   - folders below the transcript folder that those removals empty.

import { readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { type AdapterDescriptor, allAdapters } from "../../adapters.js";
import { formatDuration } from "../../duration.js";
import { ScvError } from "../../errors.js";
import { agentHomes } from "../account-homes.js";
import { pidExists, temporaryWriter } from "../atomic.js";
import { HANDLE_PATTERN } from "../conversations.js";
import type { Env } from "../paths.js";
import { turnsDir } from "../turn-files.js";
import {
  type AgentGcPlan,
  DEFAULT_OLDER_THAN_MS,
  type GcItem,
  type GcNote,
  type GcOptions,
  type GcPlan,
  handleAgent,
  MIN_OLDER_THAN_MS,
  RECENT_MS,
  sessionOf,
  usableSessionId,
  withIdPrefixes,
} from "./items.js";
import {
  allFiles,
  emptiedFolders,
  errorCode,
  type RecordFile,
  realFolder,
  safeLstat,
  scanConversations,
  scanTree,
} from "./scan.js";
import { sessionFolderItems } from "./transcripts.js";

/** What `scv agents gc` would remove now. Reads only. */
export function planGc(options: GcOptions): GcPlan {
  const env = options.env;
  const now = options.now ?? Date.now();
  const olderThanMs = options.olderThanMs ?? DEFAULT_OLDER_THAN_MS;
  if (!(olderThanMs >= MIN_OLDER_THAN_MS)) throw olderThanTooSmall(formatDuration(olderThanMs));
  const adapters = options.adapters ?? allAdapters();
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
    if (temp.mtimeMs < recentCutoff || writerGone(temp.path)) {
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
  const isLeftover = (mtimeMs: number) => mtimeMs < recentCutoff;
  for (const item of planTurnFiles(env, isOld, isLeftover))
    push(recordItems, handleAgent(item.handle ?? ""), item);

  const selected =
    options.agent === undefined ? adapters : adapters.filter((entry) => entry.name === options.agent);
  const agents: AgentGcPlan[] = selected.map((entry) => {
    const rules = {
      isOld,
      recentCutoff,
      live: liveSessions.get(entry.name) ?? new Map(),
      old: oldSessions.get(entry.name) ?? new Map(),
    };
    // Every account's home: the default one and each named account's (agents/<agent>@<account>).
    const homes = agentHomes(entry.name, env);
    const each = homes.map((home) => planTranscripts(entry, home, rules));
    const transcripts = {
      items: each.flatMap((one) => one.items),
      notes: each.flatMap((one) => one.notes),
      // Why transcripts are skipped is the row's (where its CLI keeps them), the same in every home.
      skipped: each[0]?.skipped,
    };
    const items = [
      ...transcripts.items,
      ...(recordItems.get(entry.name) ?? []),
      ...homes.flatMap((home) => planKeyTemporaries(entry, home)),
    ];
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

/** Temporary files beside the agent's credential files whose writer is gone: a key store's write
 * that its scv never finished holds the key. */
function planKeyTemporaries(entry: AdapterDescriptor, home: string): GcItem[] {
  const items = new Map<string, GcItem>();
  for (const file of entry.credentialFiles) {
    const folder = realFolder(home, dirname(file));
    if (folder.kind !== "found") continue;
    let names: string[];
    try {
      names = readdirSync(folder.path);
    } catch {
      continue;
    }
    for (const name of names) {
      if (!name.startsWith(`${basename(file)}.`) || temporaryWriter(name) === undefined) continue;
      const path = join(folder.path, name);
      const stats = safeLstat(path);
      if (stats?.isFile() && writerGone(path))
        items.set(path, { kind: "temp", path, bytes: stats.size, mtimeMs: stats.mtimeMs });
    }
  }
  return [...items.values()];
}

/** Whether the scv that wrote the temporary file at `path` is gone (home/atomic.ts names it). */
function writerGone(path: string): boolean {
  const pid = temporaryWriter(path);
  return pid !== undefined && pid !== process.pid && !pidExists(pid);
}

/** Unread results, logs and cancel marks of finished turns in `$SCV_HOME/turns`, old enough to go,
 * and the temporary files of writes whose scv was killed. A job's other files with no result beside
 * them and no turn of theirs running (the log of a launch that failed, a cancel mark or a question
 * its turn's end missed) are nobody's: an hour old, they go whatever the threshold. */
function planTurnFiles(
  env: Env,
  isOld: (mtimeMs: number) => boolean,
  isLeftover: (mtimeMs: number) => boolean,
): GcItem[] {
  const dir = turnsDir(env);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const items: GcItem[] = [];
  for (const name of names) {
    // `<job>.done.json`, `<job>.log`, `<job>.reserve`, `<job>.ask.json`, `<job>.answer.json`,
    // `<job>.questions.json`, `<job>.task.json`, `<job>.events` and `<job>.events.1` (a job
    // is `<handle>.<8 characters>`), and
    // `<handle>.cancel`; the `<handle>.done.json` and `<handle>.log` of scvs before jobs, too.
    const path = join(dir, name);
    // A write its scv never finished (SIGKILLed): as soon as that scv is gone, whatever the threshold.
    const temporary =
      /^([a-z][a-z0-9-]*?)(?:\.[0-9a-z]{8})?\.(?:json|done\.json|ask\.json|answer\.json|questions\.json|task\.json)\.\d+-[0-9a-z]+\.tmp$/.exec(
        name,
      );
    if (temporary?.[1] !== undefined && HANDLE_PATTERN.test(temporary[1])) {
      const stats = safeLstat(path);
      if (stats?.isFile() && writerGone(path)) {
        items.push({ kind: "temp", path, bytes: stats.size, mtimeMs: stats.mtimeMs, handle: temporary[1] });
      }
      continue;
    }
    const match =
      /^([a-z][a-z0-9-]*?)(?:\.[0-9a-z]{8})?\.(done\.json|log|cancel|reserve|ask\.json|answer\.json|questions\.json|task\.json|events|events\.1)$/.exec(
        name,
      );
    const handle = match?.[1];
    if (handle === undefined || !HANDLE_PATTERN.test(handle)) continue;
    if (names.includes(`${handle}.json`)) continue;
    const stats = safeLstat(path);
    if (stats === undefined || !stats.isFile()) continue;
    const result = `${name.slice(0, name.length - (match?.[2]?.length ?? 0))}done.json`;
    const orphan = match?.[2] !== "done.json" && !names.includes(result);
    if (!(orphan ? isLeftover(stats.mtimeMs) : isOld(stats.mtimeMs))) continue;
    items.push({ kind: "result", path, bytes: stats.size, mtimeMs: stats.mtimeMs, handle });
  }
  return items;
}

interface TranscriptRules {
  readonly isOld: (mtimeMs: number) => boolean;
  readonly recentCutoff: number;
  /** Sessions of conversations used within the threshold, by session id. */
  readonly live: ReadonlyMap<string, string>;
  /** Sessions of the records gc removes: id → handle. */
  readonly old: ReadonlyMap<string, string>;
}

function planTranscripts(
  entry: AdapterDescriptor,
  home: string,
  rules: TranscriptRules,
): { skipped?: string; items: GcItem[]; notes: GcNote[] } {
  const files = entry.conversationFiles;
  if (files === null) {
    const sessionPath = entry.resume.kind === "supported" ? entry.resume.sessionPath : undefined;
    if (sessionPath?.endsWith("/{session}"))
      return planSessionFolders(entry, dirname(sessionPath), home, rules);
    return { skipped: "scv does not know where it keeps transcripts", items: [], notes: [] };
  }
  const folder = realFolder(home, files.dir);
  if (folder.kind === "missing") return { items: [], notes: [] };
  if (folder.kind === "refused") {
    return { items: [], notes: [{ path: join(home, files.dir), reason: folder.reason }] };
  }
  const notes: GcNote[] = [];
  const tree = scanTree(folder.path, folder.mtimeMs, files.extension, [], notes);
  const items: GcItem[] = [];
  const live = withIdPrefixes(rules.live, files.idPrefix);
  const old = withIdPrefixes(rules.old, files.idPrefix);
  for (const file of allFiles(tree)) {
    if (!rules.isOld(file.mtimeMs)) continue;
    if (sessionOf(file.names, live) !== undefined) continue;
    const session = sessionOf(file.names, old);
    const handle = session === undefined ? undefined : old.get(session);
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

/** For a CLI that keeps each session in a folder of its own below `relative` (its row's
 * `session-state/<id>/`): a session's whole folder goes when nothing in it was written within the
 * threshold and no conversation used within it names the session. Half a session is never left. */
function planSessionFolders(
  entry: AdapterDescriptor,
  relative: string,
  home: string,
  rules: TranscriptRules,
): { items: GcItem[]; notes: GcNote[] } {
  const parent = realFolder(home, relative);
  if (parent.kind === "missing") return { items: [], notes: [] };
  if (parent.kind === "refused")
    return { items: [], notes: [{ path: join(home, relative), reason: parent.reason }] };
  let names: string[] = [];
  try {
    names = readdirSync(parent.path).sort();
  } catch (error) {
    return { items: [], notes: [{ path: parent.path, reason: `unreadable (${errorCode(error)})` }] };
  }
  const items: GcItem[] = [];
  for (const session of names) {
    if (!usableSessionId(entry, session) || rules.live.has(session)) continue;
    const path = join(parent.path, session);
    const stats = safeLstat(path);
    if (stats === undefined || !stats.isDirectory()) continue;
    const inside = sessionFolderItems(path, stats.mtimeMs);
    if (!inside.every((item) => rules.isOld(item.mtimeMs))) continue;
    const handle = rules.old.get(session);
    items.push(...inside.map((item) => (handle === undefined ? item : { ...item, handle })));
  }
  return { items, notes: [] };
}

export function olderThanTooSmall(text: string): ScvError {
  return new ScvError(
    "USAGE",
    `--older-than ${text} is below the 1h minimum: anything written in the last hour may still be in use — use 1h or more`,
  );
}
