// One conversation's transcripts, for `scv conversations rm --transcript`: found by its session id
// in the agent's transcript folder, and removed with the same checks as gc's.

import { readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { AdapterDescriptor } from "../../adapters.js";
import { agentHome, type Env } from "../paths.js";
import { FS_REMOVER, type Remover, realRoots, removeChecked } from "./gc-remove.js";
import { type GcItem, type GcNote, sessionOf, usableSessionId, withIdPrefixes } from "./items.js";
import { allFiles, emptiedFolders, realFolder, safeLstat, scanTree } from "./scan.js";

/** `folder`: the session's own folder, removed whole (`dir` is that folder). */
export type TranscriptSearch =
  | { kind: "found"; items: GcItem[]; dir: string; folder?: boolean }
  | { kind: "unknown"; reason: string };

/** The transcript files of `sessionId` in `entry`'s home, and the folders removing them empties; for
 * a CLI that keeps each session in a folder of its own (the row's `sessionPath`), that whole folder. */
export function findTranscripts(
  entry: AdapterDescriptor,
  sessionId: string,
  env: Env,
  account?: string,
): TranscriptSearch {
  const files = entry.conversationFiles;
  const sessionPath = entry.resume.kind === "supported" ? entry.resume.sessionPath : undefined;
  if (files === null && sessionPath === undefined)
    return { kind: "unknown", reason: `scv does not know where ${entry.product} keeps transcripts` };
  if (!usableSessionId(entry, sessionId)) {
    return {
      kind: "unknown",
      reason: `the recorded session id '${sessionId}' does not look like a ${entry.product} one`,
    };
  }
  if (files === null)
    return findSessionFolder(entry, (sessionPath ?? "").replace("{session}", sessionId), env, account);
  const dir = join(agentHome(entry.name, env, account), files.dir);
  const folder = realFolder(agentHome(entry.name, env, account), files.dir);
  if (folder.kind === "missing") return { kind: "found", items: [], dir };
  if (folder.kind === "refused") return { kind: "unknown", reason: `${dir} is ${folder.reason}` };
  const tree = scanTree(folder.path, folder.mtimeMs, files.extension, [], []);
  const wanted = withIdPrefixes(new Map([[sessionId, sessionId]]), files.idPrefix);
  const items: GcItem[] = allFiles(tree)
    .filter((file) => sessionOf(file.names, wanted) !== undefined)
    .map((file) => ({ kind: "transcript", path: file.path, bytes: file.bytes, mtimeMs: file.mtimeMs }));
  // The user asked for this session's files by name, so its folders go however recent.
  const chosen = new Set(items.map((item) => item.path));
  return { kind: "found", items: [...items, ...emptiedFolders(tree, chosen, Number.POSITIVE_INFINITY)], dir };
}

/** A session's whole folder, `relative` to the agent home: every plain file below it, then its
 * folders deepest first. Its parent is reached through no link, it is no link itself, and nothing
 * below it is followed: a link, socket or deeper folder inside stays, and with it the folders above. */
function findSessionFolder(
  entry: AdapterDescriptor,
  relative: string,
  env: Env,
  account: string | undefined,
): TranscriptSearch {
  const home = agentHome(entry.name, env, account);
  const dir = join(home, relative);
  const parent = realFolder(home, dirname(relative));
  if (parent.kind === "missing") return { kind: "found", items: [], dir, folder: true };
  if (parent.kind === "refused") return { kind: "unknown", reason: `${dirname(dir)} is ${parent.reason}` };
  const path = join(parent.path, basename(relative));
  const stats = safeLstat(path);
  if (stats === undefined) return { kind: "found", items: [], dir: path, folder: true };
  if (!stats.isDirectory()) {
    return { kind: "unknown", reason: `${path} is a link or not a folder — left alone` };
  }
  return { kind: "found", items: sessionFolderItems(path, stats.mtimeMs), dir: path, folder: true };
}

/** Every plain file below a session's folder `path`, then its folders deepest first (the folder
 * itself last), without following a link: a link, socket or deeper folder inside stays, and with it
 * the folders above it (their removal fails as "not empty"). */
export function sessionFolderItems(path: string, mtimeMs: number): GcItem[] {
  const files: GcItem[] = [];
  const folders: GcItem[] = [];
  const walk = (folder: string, folderMtimeMs: number, depth: number) => {
    let names: string[] = [];
    try {
      names = readdirSync(folder).sort();
    } catch {
      // Unreadable: left, and its removal fails as "not empty".
    }
    for (const name of names) {
      const child = join(folder, name);
      const each = safeLstat(child);
      if (each?.isFile()) {
        files.push({ kind: "transcript", path: child, bytes: each.size, mtimeMs: each.mtimeMs });
      } else if (each?.isDirectory() && depth < MAX_SESSION_DEPTH) {
        walk(child, each.mtimeMs, depth + 1);
      }
    }
    folders.push({ kind: "folder", path: folder, bytes: 0, mtimeMs: folderMtimeMs });
  };
  walk(path, mtimeMs, 0);
  return [...files, ...folders];
}

/** How deep a session's folder is walked; what lies deeper stays, and the folders above it. */
const MAX_SESSION_DEPTH = 8;

/** Removes what `findTranscripts` found in `entry`'s home, re-checking each path. */
export function removeTranscripts(
  entry: AdapterDescriptor,
  items: readonly GcItem[],
  env: Env,
  remover: Remover = FS_REMOVER,
  account?: string,
): {
  removed: GcItem[];
  kept: GcNote[];
  failed: GcNote[];
} {
  const result = { removed: [] as GcItem[], kept: [] as GcNote[], failed: [] as GcNote[] };
  const roots = realRoots(agentHome(entry.name, env, account));
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
