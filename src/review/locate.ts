// A finding placed against the diff it reviews: its path made the diff's (a reviewer may write
// `./src/a.ts`, `b/src/a.ts`, or the absolute path in the tree it read), then whether it is inside
// the diff — on lines a hunk shows (or the file as a whole), in a changed file but on lines no hunk
// shows, or in a file the diff does not change at all. A finding outside is kept and marked, never
// dropped: a reviewer who read the tree may be right about a line the change relies on.
//
// API: `placeFinding(finding, files, root)` → `PlacedFinding`. Pure.

import { isAbsolute, relative } from "node:path";
import type { LineRange } from "./patch-text.js";
import type { Finding } from "./schema.js";

/** `diff`: on lines a hunk shows, or the whole of a changed file; `file`: a changed file, lines no
 * hunk shows; `elsewhere`: a file the diff does not change. */
type FindingScope = "diff" | "file" | "elsewhere";

export interface PlacedFinding extends Finding {
  readonly scope: FindingScope;
}

/** What placing needs of a changed file. */
export interface ChangedFile {
  readonly path: string;
  readonly lines: readonly LineRange[];
}

/** `path` as the diff names it, where one of its spellings names a changed file; else cleaned up. */
function diffPath(path: string, files: ReadonlyMap<string, ChangedFile>, root: string): string {
  const trimmed = path.trim().replaceAll("\\", "/");
  const spellings = [trimmed];
  if (isAbsolute(trimmed)) spellings.push(relative(root, trimmed));
  const plain = trimmed.replace(/^(\.\/)+/, "");
  spellings.push(plain);
  if (/^[ab]\//.test(plain)) spellings.push(plain.slice(2));
  return spellings.find((spelling) => files.has(spelling)) ?? plain;
}

function overlaps(range: LineRange, start: number, end: number): boolean {
  return range.start <= end && start <= range.end;
}

/** The finding with the diff's path and its scope. Pure. */
export function placeFinding(
  finding: Finding,
  files: ReadonlyMap<string, ChangedFile>,
  root: string,
): PlacedFinding {
  const path = diffPath(finding.file, files, root);
  const changed = files.get(path);
  const placed = { ...finding, file: path };
  if (changed === undefined) return { ...placed, scope: "elsewhere" };
  if (finding.line === undefined) return { ...placed, scope: "diff" };
  const start = finding.line;
  const end = finding.endLine ?? start;
  const inside = changed.lines.some((range) => overlaps(range, start, end));
  return { ...placed, scope: inside ? "diff" : "file" };
}

/** The changed files by path, for `placeFinding`. Pure. */
export function changedFiles(files: readonly ChangedFile[]): Map<string, ChangedFile> {
  return new Map(files.map((file) => [file.path, file]));
}
