// git's unified diff read file by file: each `diff --git` section's paths, what happened to the file
// (added, deleted, renamed, …), its lines added and removed counted from its hunks, whether it is
// binary, and which of its lines the hunks show (for placing a finding inside the diff or not).
// Reading one `git diff` is all a review needs: no second call whose order would have to match.
//
// The patch is git's with fixed options (src/review/diff.ts): `a/` and `b/` prefixes, paths quoted
// only where git must (core.quotePath off), no colour, renames detected.
//
// API: `parsePatch(text)` → `PatchFile[]`, `unquotePath(text)`. Pure.

type FileStatus = "added" | "deleted" | "modified" | "renamed" | "copied";

/** Lines `start` to `end` (inclusive, from 1). */
export interface LineRange {
  readonly start: number;
  readonly end: number;
}

export interface PatchFile {
  /** The path after the change (before it, for a deleted file). */
  readonly path: string;
  /** The path before a rename or copy. */
  readonly from?: string;
  readonly status: FileStatus;
  /** Lines added and removed; 0 for a binary file. */
  readonly added: number;
  readonly removed: number;
  readonly binary: boolean;
  /** The lines the hunks show, in the file after the change (before it, for a deleted file). */
  readonly lines: readonly LineRange[];
  /** The section, from its `diff --git` line. */
  readonly patch: string;
}

const ESCAPES: Readonly<Record<string, number>> = {
  a: 7,
  b: 8,
  t: 9,
  n: 10,
  v: 11,
  f: 12,
  r: 13,
  '"': 34,
  "\\": 92,
};

/** A path as git writes it in a header: as is, or C-quoted (`"a\\tb"`, octal bytes `\\303\\251`). */
function unquotePath(text: string): string {
  if (!text.startsWith('"') || !text.endsWith('"') || text.length < 2) return text;
  const bytes: number[] = [];
  const body = text.slice(1, -1);
  for (let i = 0; i < body.length; i += 1) {
    const char = body[i] ?? "";
    if (char !== "\\") {
      bytes.push(...Buffer.from(char, "utf8"));
      continue;
    }
    const next = body[i + 1] ?? "";
    if (/[0-7]/.test(next)) {
      bytes.push(Number.parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      bytes.push(ESCAPES[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** `a/x` or `"a/x"` without its prefix. */
function stripPrefix(text: string, prefix: "a/" | "b/"): string {
  const path = unquotePath(text);
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

/** The path of a `diff --git a/P b/P` header, for a section that names it nowhere else (a binary
 * file, a mode change, an empty file): both names are the same there, as a rename has its own
 * lines. */
function headerPath(header: string): string {
  const rest = header.slice("diff --git ".length);
  if (rest.startsWith('"')) {
    const end = rest.search(/(?<!\\)" /);
    return stripPrefix(rest.slice(0, end + 1), "a/");
  }
  const length = (rest.length - " b/".length - "a/".length) / 2;
  return rest.slice("a/".length, "a/".length + length);
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

interface Counted {
  added: number;
  removed: number;
  lines: LineRange[];
  oldLines: LineRange[];
}

/** Counts the hunk lines of one section (its lines from the first `@@`). */
function countHunks(lines: readonly string[], start: number): Counted {
  const counted: Counted = { added: 0, removed: 0, lines: [], oldLines: [] };
  let i = start;
  while (i < lines.length) {
    const match = HUNK.exec(lines[i] ?? "");
    i += 1;
    if (match === null) continue;
    const oldStart = Number(match[1]);
    const oldCount = match[2] === undefined ? 1 : Number(match[2]);
    const newStart = Number(match[3]);
    const newCount = match[4] === undefined ? 1 : Number(match[4]);
    // An empty side is the line after which the hunk applies: keep that place.
    counted.lines.push({ start: Math.max(1, newStart), end: Math.max(1, newStart + newCount - 1) });
    counted.oldLines.push({ start: Math.max(1, oldStart), end: Math.max(1, oldStart + oldCount - 1) });
    let oldLeft = oldCount;
    let newLeft = newCount;
    while (i < lines.length && (oldLeft > 0 || newLeft > 0)) {
      const line = lines[i] ?? "";
      i += 1;
      if (line.startsWith("+")) {
        counted.added += 1;
        newLeft -= 1;
      } else if (line.startsWith("-")) {
        counted.removed += 1;
        oldLeft -= 1;
      } else if (line.startsWith("\\")) {
        // "\ No newline at end of file"
      } else {
        oldLeft -= 1;
        newLeft -= 1;
      }
    }
  }
  return counted;
}

function parseSection(section: string): PatchFile {
  const lines = section.split("\n");
  let status: FileStatus = "modified";
  let from: string | undefined;
  let renamedTo: string | undefined;
  let minus: string | undefined;
  let plus: string | undefined;
  let binary = false;
  let i = 1;
  for (; i < lines.length; i += 1) {
    const line = lines[i] ?? "";
    if (line.startsWith("@@")) break;
    if (line.startsWith("new file mode")) status = "added";
    else if (line.startsWith("deleted file mode")) status = "deleted";
    else if (line.startsWith("rename from ")) {
      status = "renamed";
      from = unquotePath(line.slice("rename from ".length));
    } else if (line.startsWith("rename to ")) renamedTo = unquotePath(line.slice("rename to ".length));
    else if (line.startsWith("copy from ")) {
      status = "copied";
      from = unquotePath(line.slice("copy from ".length));
    } else if (line.startsWith("copy to ")) renamedTo = unquotePath(line.slice("copy to ".length));
    else if (line.startsWith("--- ")) minus = line.slice(4);
    else if (line.startsWith("+++ ")) plus = line.slice(4);
    else if (line.startsWith("Binary files ") || line === "GIT binary patch") binary = true;
  }
  const counted = countHunks(lines, i);
  const path =
    renamedTo ??
    (plus !== undefined && plus !== "/dev/null" ? stripPrefix(plus, "b/") : undefined) ??
    (minus !== undefined && minus !== "/dev/null" ? stripPrefix(minus, "a/") : undefined) ??
    headerPath(lines[0] ?? "");
  return {
    path,
    ...(from === undefined ? {} : { from }),
    status,
    added: counted.added,
    removed: counted.removed,
    binary,
    lines: status === "deleted" ? counted.oldLines : counted.lines,
    patch: section,
  };
}

/** A file whose type changed (a file become a link), which git writes as its deletion then its
 * addition: one modified file, both sections its patch. */
function typeChange(deleted: PatchFile, added: PatchFile): PatchFile {
  return {
    ...added,
    status: "modified",
    added: deleted.added + added.added,
    removed: deleted.removed + added.removed,
    binary: deleted.binary || added.binary,
    patch: `${deleted.patch}\n${added.patch}`,
  };
}

/** Each file of a `git diff` patch, in its order. Pure. */
export function parsePatch(text: string): PatchFile[] {
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  if (body === "") return [];
  const starts: number[] = [];
  const header = /^diff --git /gm;
  for (let match = header.exec(body); match !== null; match = header.exec(body)) starts.push(match.index);
  const files: PatchFile[] = [];
  for (const [n, start] of starts.entries()) {
    const file = parseSection(body.slice(start, starts[n + 1]).replace(/\n$/, ""));
    const previous = files.at(-1);
    if (previous?.path === file.path && previous.status === "deleted" && file.status === "added") {
      files[files.length - 1] = typeChange(previous, file);
    } else files.push(file);
  }
  return files;
}
