// `scv apply`: a branch's changes (its base → its tip) brought into the user's work tree three-way,
// so a tree that moved on still takes them where it can. The merge is worked out first in a
// temporary index (`git apply --cached --3way` onto HEAD plus the user's state of the touched
// paths: patch.ts); only a clean result is written, with `git checkout-index` from that index, so a
// conflict leaves the tree, its index and every file exactly as they were — unless `keepConflicts`,
// which runs git's own `git apply --3way` in the tree (markers, unmerged entries). Written changes
// are left uncommitted (new files untracked), as `git apply` leaves them; `commit` makes one commit
// on the user's current branch instead (author `scv <agent>`, committer the user).
//
// Refused, one line, before anything is written: uncommitted changes of the user's in a path the
// change touches (a path whose content is exactly the branch's base is not in the way: the changes
// carried in with `--with-changes`), a file in the way of one it adds, a merge or rebase under way
// (for `commit`).
//
// API: `applyWorktree(worktree, { env, into?, keepConflicts?, commit? })` → `ApplyOutcome`.

import { existsSync, lstatSync, rmdirSync, unlinkSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ScvError } from "../errors.js";
import type { Env } from "../home/paths.js";
import { git, gitFailed, gitOk, nulSeparated } from "./git.js";
import {
  commitTree,
  type GitIdentity,
  mergeIntoIndex,
  sameTree,
  touchedPaths,
  withScratch,
  writePatch,
} from "./patch.js";
import type { Worktree } from "./record.js";
import { agentIdentity, branchTip } from "./record-turn.js";
import { findRepository } from "./repo.js";

export interface ApplyOptions {
  readonly env: Env;
  /** The work tree the changes go into: by default the one the worktree was made from. */
  readonly into?: string;
  /** On conflict, leave git's conflict markers and unmerged entries in the tree. */
  readonly keepConflicts?: boolean;
  /** Commit the changes on the user's current branch (HEAD) instead of leaving them uncommitted. */
  readonly commit?: { readonly message: string; readonly agent: string };
}

export type ApplyOutcome =
  /** The branch holds no change against its base. */
  | { readonly kind: "nothing"; readonly tip: string }
  | {
      readonly kind: "applied";
      /** The branch's tip that was applied (record it: gc counts it as applied). */
      readonly tip: string;
      /** Every path written or removed. */
      readonly paths: readonly string[];
      /** With `commit`: the commit made on the user's branch. */
      readonly commit: string | null;
    }
  | {
      readonly kind: "conflicts";
      readonly tip: string;
      /** The paths in conflict. */
      readonly paths: readonly string[];
      /** Whether they were left in the tree (`keepConflicts`); otherwise nothing was written. */
      readonly kept: boolean;
    };

const listed = (paths: readonly string[]) => paths.slice(0, 3).join(", ") + (paths.length > 3 ? ", …" : "");

/** The user's paths with uncommitted changes: staged, unstaged or untracked (not ignored). */
async function dirtyPaths(cwd: string, env: Env): Promise<Set<string>> {
  const out = await gitOk(
    ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames", "--ignore-submodules=none"],
    { cwd, env },
  );
  // `XY <path>`.
  return new Set(nulSeparated(out).map((entry) => entry.slice(3)));
}

/** `<mode> <sha>` of each path in a tree-ish or an index listing. */
function entries(lines: readonly string[], pick: (fields: string[]) => string): Map<string, string> {
  const found = new Map<string, string>();
  for (const line of lines) {
    const tab = line.indexOf("\t");
    found.set(line.slice(tab + 1), pick(line.slice(0, tab).split(" ")));
  }
  return found;
}

/** Whether a path is below another (`a/b` below `a`). */
const below = (path: string, folder: string) => path.startsWith(`${folder}/`);

/** Paths the change touches that the user's uncommitted work is in the way of. `index` holds HEAD
 * plus the user's state of the dirty touched paths. */
async function inTheWay(
  { cwd, env, index }: { readonly cwd: string; readonly env: Env; readonly index: string },
  worktree: Worktree,
  touched: readonly string[],
  dirty: ReadonlySet<string>,
): Promise<string[]> {
  const blocked = new Set<string>();
  const changed = touched.filter((path) => dirty.has(path));
  if (changed.length > 0) {
    await gitOk(["add", "-A", "--", ...changed], { cwd, env, index, literalPaths: true });
    const mine = entries(
      nulSeparated(
        await gitOk(["ls-files", "-s", "-z", "--", ...changed], { cwd, env, index, literalPaths: true }),
      ),
      ([mode, sha]) => `${mode} ${sha}`,
    );
    const theirs = entries(
      nulSeparated(
        await gitOk(["ls-tree", "-z", worktree.base, "--", ...changed], { cwd, env, literalPaths: true }),
      ),
      ([mode, , sha]) => `${mode} ${sha}`,
    );
    for (const path of changed) if (mine.get(path) !== theirs.get(path)) blocked.add(path);
  }
  // A file of the user's where the change puts a folder, or inside a folder where it puts a file.
  for (const path of dirty) {
    if (touched.some((each) => below(each, path) || below(path, each))) blocked.add(path);
  }
  return [...blocked];
}

/** Files not tracked at HEAD (ignored ones too) where the change adds a file, or where it needs a
 * folder: never overwritten. `replaced`: tracked files the change removes (a file becoming a folder). */
function occupied(
  cwd: string,
  added: readonly string[],
  dirty: ReadonlySet<string>,
  replaced: ReadonlySet<string>,
): string[] {
  const blocked = new Set<string>();
  for (const path of added) {
    if (dirty.has(path)) continue;
    const parts = path.split("/");
    for (let depth = 1; depth <= parts.length; depth += 1) {
      const prefix = parts.slice(0, depth).join("/");
      const stats = lstatSync(join(cwd, prefix), { throwIfNoEntry: false });
      if (stats === undefined) break;
      // A tracked file the change removes first: nothing of the user's is below it.
      if (depth < parts.length && replaced.has(prefix)) break;
      if (depth < parts.length && stats.isDirectory()) continue;
      if (!dirty.has(prefix)) blocked.add(prefix);
      break;
    }
  }
  return [...blocked];
}

/** Refuses `commit` while git is in the middle of something in that tree. */
async function refuseBusyTree(cwd: string, env: Env): Promise<void> {
  const states = ["MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "rebase-merge", "rebase-apply"];
  const paths = (
    await gitOk(["rev-parse", ...states.flatMap((state) => ["--git-path", state])], { cwd, env })
  )
    .trim()
    .split("\n");
  const busy = states.find((_, i) => existsSync(resolve(cwd, paths[i] ?? "")));
  if (busy !== undefined) {
    throw new ScvError(
      "USAGE",
      `${cwd} is in the middle of a ${busy.startsWith("rebase") ? "rebase" : "merge or cherry-pick"} — finish it first (git status says how), or apply without --commit`,
    );
  }
}

/** Removes a file the change deletes, and the folders it leaves empty (up to the tree's top). */
function removeFile(root: string, path: string): void {
  const full = join(root, path);
  const stats = lstatSync(full, { throwIfNoEntry: false });
  if (stats === undefined || stats.isDirectory()) return;
  unlinkSync(full);
  for (let folder = dirname(full); folder.startsWith(`${root}/`); folder = dirname(folder)) {
    try {
      rmdirSync(folder);
    } catch {
      return;
    }
  }
}

/** The user's own identity when git has one, else none (the commit is then `scv`'s too). */
async function userIdentity(cwd: string, env: Env): Promise<GitIdentity | undefined> {
  const run = await git(["var", "GIT_COMMITTER_IDENT"], { cwd, env });
  const match = /^(.*) <([^>]*)>/.exec(run.stdout);
  return run.code === 0 && match !== null ? { name: match[1] ?? "", email: match[2] ?? "" } : undefined;
}

export async function applyWorktree(worktree: Worktree, options: ApplyOptions): Promise<ApplyOutcome> {
  const { env } = options;
  const target = await findRepository(options.into ?? worktree.repoRoot, env);
  if (target.commonDir !== worktree.commonDir) {
    throw new ScvError(
      "USAGE",
      `${target.root} is not a checkout of the repository ${worktree.handle} worked in (${worktree.repoRoot}) — run scv apply there`,
    );
  }
  const cwd = target.root;
  const tip = await branchTip(worktree, env);
  if (await sameTree(cwd, env, worktree.base, tip)) return { kind: "nothing", tip };
  const head = (await git(["rev-parse", "--verify", "--quiet", "HEAD"], { cwd, env })).stdout.trim();
  if (head === "") throw new ScvError("USAGE", `${cwd} has no commit to apply onto — commit once first`);
  if (options.commit !== undefined) await refuseBusyTree(cwd, env);
  const touched = await touchedPaths(cwd, env, worktree.base, tip);
  if (touched.length === 0) return { kind: "nothing", tip };
  const dirty = await dirtyPaths(cwd, env);
  return withScratch(async (scratch) => {
    const index = join(scratch, "index");
    const patch = join(scratch, "branch.patch");
    await gitOk(["read-tree", head], { cwd, env, index });
    const atHead = new Set(
      nulSeparated(
        await gitOk(["ls-files", "-z", "--", ...touched], { cwd, env, index, literalPaths: true }),
      ),
    );
    const blocked = [
      ...(await inTheWay({ cwd, env, index }, worktree, touched, dirty)),
      ...occupied(
        cwd,
        touched.filter((path) => !atHead.has(path)),
        dirty,
        new Set(touched.filter((path) => atHead.has(path))),
      ),
    ];
    if (blocked.length > 0) {
      throw new ScvError(
        "USAGE",
        `your uncommitted changes in ${cwd} are in the way of ${worktree.branch} (${listed(blocked)}) — commit or stash them, then run scv apply again`,
      );
    }
    await writePatch(cwd, env, worktree.base, tip, patch);
    const merged = await mergeIntoIndex(cwd, env, index, patch);
    if (merged.kind === "conflicts") {
      if (!options.keepConflicts) return { kind: "conflicts", tip, paths: merged.paths, kept: false };
      const args = ["apply", "--3way", "--whitespace=nowarn", patch];
      const run = await git(args, { cwd, env });
      // Exit 1 both for conflicts left in the tree and for a refusal that wrote nothing (a path
      // whose index differs from its file): the unmerged entries tell which.
      const unmerged = await gitOk(["ls-files", "-u", "-z"], { cwd, env });
      if (unmerged === "") throw gitFailed(args, cwd, run);
      return { kind: "conflicts", tip, paths: merged.paths, kept: true };
    }
    let commit: string | null = null;
    if (options.commit !== undefined) {
      const committer = await userIdentity(cwd, env);
      const author = agentIdentity(options.commit.agent);
      commit = await commitTree(cwd, env, {
        tree: merged.tree,
        parent: head,
        message: options.commit.message,
        identities: { author, committer: committer ?? author },
      });
    }
    const result = new Set(
      nulSeparated(
        await gitOk(["ls-files", "-z", "--", ...touched], { cwd, env, index, literalPaths: true }),
      ),
    );
    // Deletions first: a file the change turns into a folder goes before the folder's files come.
    for (const path of touched) if (!result.has(path)) removeFile(cwd, path);
    const written = touched.filter((path) => result.has(path));
    if (written.length > 0) {
      await gitOk(["checkout-index", "-f", "-q", "-z", "--stdin"], {
        cwd,
        env,
        index,
        input: `${written.join("\0")}\0`,
      });
    }
    if (commit !== null) {
      await gitOk(["update-ref", "-m", `scv apply ${worktree.handle}`, "HEAD", commit, head], { cwd, env });
      // The user's index takes the committed state of the paths written; the rest stays as it was.
      await gitOk(["reset", "-q", "--pathspec-from-file=-", "--pathspec-file-nul"], {
        cwd,
        env,
        literalPaths: true,
        input: `${touched.join("\0")}\0`,
      });
    }
    return { kind: "applied", tip, paths: touched, commit };
  });
}
