// How much changed between two commits, from `git diff --numstat -z` (renames followed): files,
// lines added and removed, per file too. A binary file counts as a file with no lines. Also the
// branch's diff shown to a person: `git diff <base> <branch>` on the terminal, through the user's
// pager and colour settings as their own `git diff` would show it.
//
// API: `parseNumstat(text)` (pure), `diffStat(cwd, env, from, to)`, `worktreeDiffStat(worktree,
// env)` (the branch against its base), `showWorktreeDiff(worktree, env, paths?)` → git's exit code.

import { existsSync } from "node:fs";
import type { Env } from "../home/paths.js";
import { gitOk, gitOnTerminal } from "./git.js";
import { branchRef, type Worktree } from "./record.js";

interface FileStat {
  /** The path after the change. */
  readonly path: string;
  /** The path before, for a rename or copy. */
  readonly from?: string;
  /** Lines added and removed; null for a binary file. */
  readonly added: number | null;
  readonly removed: number | null;
}

export interface DiffStat {
  readonly files: number;
  readonly added: number;
  readonly removed: number;
  readonly paths: readonly FileStat[];
}

const NO_CHANGES: DiffStat = { files: 0, added: 0, removed: 0, paths: [] };

function count(text: string): number | null {
  return text === "-" ? null : Number(text);
}

/** `git diff --numstat -z` output: `<added>\t<removed>\t<path>\0`, or for a rename or copy
 * `<added>\t<removed>\t\0<from>\0<to>\0`; `-` counts for a binary file. Pure. */
export function parseNumstat(text: string): DiffStat {
  const fields = text.split("\0");
  const paths: FileStat[] = [];
  for (let i = 0; i < fields.length; i += 1) {
    const head = fields[i] ?? "";
    if (head === "") continue;
    const [added = "", removed = "", path = ""] = head.split("\t");
    const stat = { added: count(added), removed: count(removed) };
    if (path !== "") {
      paths.push({ path, ...stat });
      continue;
    }
    const from = fields[i + 1] ?? "";
    const to = fields[i + 2] ?? "";
    i += 2;
    paths.push({ path: to, from, ...stat });
  }
  return {
    files: paths.length,
    added: paths.reduce((sum, file) => sum + (file.added ?? 0), 0),
    removed: paths.reduce((sum, file) => sum + (file.removed ?? 0), 0),
    paths,
  };
}

/** The diffstat from `from` to `to` (commits, trees), in the repository at `cwd`. */
export async function diffStat(cwd: string, env: Env, from: string, to: string): Promise<DiffStat> {
  if (from === to) return NO_CHANGES;
  const out = await gitOk(
    [
      "diff",
      "--numstat",
      "-z",
      "-M",
      "--no-color",
      "--no-ext-diff",
      "--no-textconv",
      "--no-relative",
      from,
      to,
      "--",
    ],
    { cwd, env },
  );
  return parseNumstat(out);
}

/** A folder git can run in for this worktree's repository: the user's tree, else its git
 * directory (the tree moved), else the worktree. */
export function repositoryFolder(worktree: Worktree): string {
  return [worktree.repoRoot, worktree.commonDir].find((folder) => existsSync(folder)) ?? worktree.dir;
}

/** What the branch holds against its base. */
export async function worktreeDiffStat(worktree: Worktree, env: Env): Promise<DiffStat> {
  return diffStat(repositoryFolder(worktree), env, worktree.base, branchRef(worktree));
}

/** `git diff <base> scv/<handle> [-- paths]` on the terminal (pager, colours: the user's settings). */
export async function showWorktreeDiff(
  worktree: Worktree,
  env: Env,
  paths: readonly string[] = [],
): Promise<number> {
  return gitOnTerminal(["diff", worktree.base, branchRef(worktree), "--", ...paths], {
    cwd: repositoryFolder(worktree),
    env,
  });
}
