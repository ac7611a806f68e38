// Cleaning up after agents and after scv: `scv agents gc` (plan.ts, then remove.ts, then
// report.ts) and `scv conversations rm --transcript` (transcripts.ts). This module holds what they
// share: the kinds of path gc removes, its thresholds, and the names it reads (which conversation a
// file in scv's folder belongs to, which session a transcript belongs to).

import type { AdapterDescriptor } from "../../adapters.js";
import { HANDLE_PATTERN } from "../conversations.js";
import type { Env } from "../paths.js";

const HOUR_MS = 3_600_000;
export const DEFAULT_OLDER_THAN_MS = 30 * 24 * HOUR_MS;
/** Anything written this recently is kept whatever the threshold: a CLI or a turn may still be writing it. */
export const RECENT_MS = HOUR_MS;
/** The smallest threshold gc accepts; a smaller one would only race running turns. */
export const MIN_OLDER_THAN_MS = HOUR_MS;
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
  readonly env: Env;
  readonly now?: number;
  readonly olderThanMs?: number;
  /** One agent; every agent when absent. */
  readonly agent?: string;
  readonly adapters?: readonly AdapterDescriptor[];
}

/** What a file in scv's conversation folder is. Records are `<handle>.json`; proper-lockfile locks one
 * with a `<handle>.json.lock` folder; atomic.ts writes `<handle>.json.<pid>-<random>.tmp` (before it,
 * `<handle>.json.<32-bit number>`) and renames it over the record, so one still there is a write in
 * progress or a crash mid-write. */
export function conversationEntry(
  name: string,
): { kind: "record" | "lock" | "temp"; handle: string } | undefined {
  const match = /^([^.]+)\.json(?:\.(lock|\d{1,10}|\d{1,10}-[0-9a-z]{1,7}\.tmp))?$/.exec(name);
  const handle = match?.[1];
  if (match === null || handle === undefined || !HANDLE_PATTERN.test(handle)) return undefined;
  const suffix = match[2];
  return { kind: suffix === undefined ? "record" : suffix === "lock" ? "lock" : "temp", handle };
}

/** The agent a handle names: `my-agent-k3f9x2` → `my-agent`. */
export function handleAgent(handle: string): string {
  return handle.slice(0, handle.lastIndexOf("-"));
}

/** The session a transcript belongs to, among `sessions`. A transcript belongs to a session when its
 * name (without extension) or a folder between the transcript folder and it is the id, or ends with it
 * after a `-`, `_` or `.`: the CLIs write `<id>.jsonl`, `rollout-<time>-<id>.jsonl` or
 * `<time>_<id>.jsonl`, and one keeps a session's subagents in `<id>/subagents/`. */
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

/** `sessions` with each id's first `idPrefix` characters as a key too, for a CLI that names its
 * transcripts by them (the row's `conversationFiles.idPrefix`); `sessions` itself without one. */
export function withIdPrefixes<T>(
  sessions: ReadonlyMap<string, T>,
  idPrefix: number | undefined,
): ReadonlyMap<string, T> {
  if (idPrefix === undefined) return sessions;
  const all = new Map(sessions);
  for (const [id, value] of sessions)
    if (!all.has(id.slice(0, idPrefix))) all.set(id.slice(0, idPrefix), value);
  return all;
}

/** A recorded session id gc may look for: the shape the row resumes with, so a damaged or odd value
 * (an empty string would end every name) never matches files it does not name. */
export function usableSessionId(entry: AdapterDescriptor | undefined, id: string | undefined): id is string {
  if (id === undefined) return false;
  const pattern = entry?.resume.kind === "supported" ? entry.resume.idPattern : SESSION_ID_SHAPE;
  return id.length >= 8 && pattern.test(id);
}
