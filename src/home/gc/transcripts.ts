// One conversation's transcripts, for `scv conversations rm --transcript`: found by its session id
// in the agent's transcript folder, and removed with the same checks as gc's.

import { join } from "node:path";
import type { AdapterDescriptor } from "../../adapters.js";
import { agentHome, type Env } from "../paths.js";
import { type GcItem, type GcNote, sessionOf, usableSessionId } from "./items.js";
import { FS_REMOVER, type Remover, realRoots, removeChecked } from "./remove.js";
import { allFiles, emptiedFolders, realFolder, scanTree } from "./scan.js";

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
