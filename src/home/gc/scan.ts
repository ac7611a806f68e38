// Reading the disk for gc: folders reached through no symlink, the transcript folder's tree, and
// scv's conversation folder. Never follows a symlink, and reads only.

import { lstatSync, readdirSync, realpathSync, type Stats } from "node:fs";
import { join } from "node:path";
import { conversationSchema, conversationsDir } from "../conversations.js";
import { type Env, scvHome } from "../paths.js";
import { readStateText, SMALL_STATE_BYTES } from "../state-file.js";
import { conversationEntry, type GcItem, type GcNote, handleAgent } from "./items.js";

/** Transcript trees are a few levels deep (`sessions/YYYY/MM/DD`); deeper is not a transcript. */
const MAX_DEPTH = 16;

export type Folder =
  | { kind: "found"; path: string; mtimeMs: number }
  | { kind: "missing" }
  | { kind: "refused"; reason: string };

/** `base/relative` when it is a folder reached from the real `base` through no symlink. */
export function realFolder(base: string, relative: string): Folder {
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

export function safeLstat(path: string): Stats | undefined {
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

export function errorCode(error: unknown): string {
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
export function scanTree(
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

export function allFiles(folder: TreeFolder, into: TreeFile[] = []): TreeFile[] {
  into.push(...folder.files);
  for (const child of folder.folders) allFiles(child, into);
  return into;
}

/** Folders below `root` that removing `chosen` empties, deepest first. A folder written within the
 * last `RECENT_MS` stays even then: a CLI may have just created it for a file it is about to write. */
export function emptiedFolders(
  root: TreeFolder,
  chosen: ReadonlySet<string>,
  recentCutoff: number,
): GcItem[] {
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

export interface RecordFile {
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

export function scanConversations(env: Env): ConversationScan {
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
    const text = readStateText(path, { maxBytes: SMALL_STATE_BYTES });
    parsed = text === undefined ? undefined : conversationSchema().safeParse(JSON.parse(text));
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
