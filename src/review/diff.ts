// What a review reads: the diff scv computes itself with git's CLI (through src/worktrees/git.ts, the
// one way scv runs git), for one of five scopes:
//
// - `changes` (the default): the working tree against `HEAD` — tracked and untracked files, ignored
//   ones left out — gathered in a temporary index (a copy of the user's), so the user's index is
//   only read;
// - `base`: the branch's changes since its merge base with a ref, the working tree's as above
//   included (in a clean checkout, exactly the commits since the merge base);
// - `staged`: the index against `HEAD`;
// - `commit`: one commit against its first parent;
// - `worktree`: a conversation's worktree branch against the base it was made from;
// - `job`: what a delegated turn changed in the working tree: against the tree scv took before it
//   ran (`snapshotTree`: a reviewed delegation's), or, with no such tree, the working tree's changes
//   against `HEAD` in the files it touched.
//
// Each scope is two trees compared with one `git diff`; whether a file is generated comes from
// .gitattributes as the compared tree has it (`check-attr --cached` on an index holding that tree)
// and from src/review/generated.ts. A repository with no commit yet compares against the empty tree.
//
// API: `computeDiff(scope, { cwd, env })` → `ReviewDiff`; `describeScope(scope)` (pure).

import { existsSync } from "node:fs";
import { join } from "node:path";
import { ScvError } from "../errors.js";
import type { Env } from "../home/paths.js";
import { repositoryFolder } from "../worktrees/diffstat.js";
import { git, gitLine, gitOk, nulSeparated } from "../worktrees/git.js";
import { SETTLED_DIFF_OPTIONS, withScratch } from "../worktrees/patch.js";
import { branchRef, type Worktree } from "../worktrees/record.js";
import { findRepository } from "../worktrees/repo.js";
import { scratchIndex } from "../worktrees/scratch-index.js";
import { addedLines, generatedAttribute, generatedReason } from "./generated.js";
import { type PatchFile, parsePatch } from "./patch-text.js";

export type ReviewScope =
  | { readonly kind: "changes" }
  | { readonly kind: "base"; readonly ref: string }
  | { readonly kind: "staged" }
  | { readonly kind: "commit"; readonly ref: string }
  | { readonly kind: "worktree"; readonly worktree: Worktree }
  | {
      readonly kind: "job";
      /** The job or conversation, for the description. */
      readonly job: string;
      /** The working tree as it was before the job (`snapshotTree`); absent: `HEAD`. */
      readonly from?: string;
      /** Only these files (paths from the top level); absent: every changed file. */
      readonly paths?: readonly string[];
    };

export interface DiffFile extends PatchFile {
  /** Why the file counts as generated (src/review/generated.ts); absent when it does not. */
  readonly generated?: string;
}

export interface ReviewDiff {
  /** What was compared, for people: "the working tree against HEAD (1a2b3c4)". */
  readonly description: string;
  readonly scope: ReviewScope["kind"];
  /** The folder a reviewer runs in and reads: the repository's top level, or the worktree's. */
  readonly root: string;
  /** The commit (or empty tree) compared from, and the commit or tree compared to. */
  readonly from: string;
  readonly to: string;
  readonly files: readonly DiffFile[];
}

export interface DiffOptions {
  /** A folder inside the repository (`--cwd`); unused for a worktree, which knows its own. */
  readonly cwd: string;
  readonly env: Env;
}

/** The patch as `worktrees/patch.ts` settles it, whatever the user's diff settings, with three lines
 * of context (not the user's `diff.context`). */
const DIFF_OPTIONS: readonly string[] = [...SETTLED_DIFF_OPTIONS, "--unified=3"];

/** What the scope compares, in words. Pure. */
export function describeScope(scope: ReviewScope): string {
  switch (scope.kind) {
    case "changes":
      return "the working tree's changes against HEAD";
    case "base":
      return `the changes since the merge base with ${scope.ref}`;
    case "staged":
      return "the staged changes against HEAD";
    case "commit":
      return `commit ${scope.ref}`;
    case "worktree":
      return `${scope.worktree.handle}'s worktree branch ${scope.worktree.branch} against its base`;
    case "job":
      return scope.from === undefined
        ? `the working tree's changes against HEAD in the files ${scope.job} touched`
        : `${scope.job}'s changes to the working tree`;
  }
}

function short(sha: string): string {
  return sha.slice(0, 10);
}

/** A revision the user named, never read as an option by git. */
function checkedRevision(ref: string, flag: string): string {
  if (ref === "" || ref.startsWith("-")) {
    throw new ScvError("USAGE", `'${ref}' is not a git revision — give a branch, tag or commit to ${flag}`);
  }
  return ref;
}

async function commitOf(cwd: string, env: Env, ref: string): Promise<string | undefined> {
  const run = await git(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { cwd, env });
  const sha = run.stdout.trim();
  return run.code === 0 && sha !== "" ? sha : undefined;
}

async function emptyTree(cwd: string, env: Env): Promise<string> {
  return gitLine(["hash-object", "-t", "tree", "--stdin"], { cwd, env, input: "" });
}

/** HEAD's commit, or the empty tree in a repository with no commit yet; and the words for it. */
async function headOrEmpty(cwd: string, env: Env): Promise<{ from: string; said: string }> {
  const head = await commitOf(cwd, env, "HEAD");
  if (head !== undefined) return { from: head, said: short(head) };
  return { from: await emptyTree(cwd, env), said: "no commit yet: every file is new" };
}

/** The two sides and the index holding the second (for .gitattributes), made in `scratch`. */
interface Sides {
  readonly cwd: string;
  readonly root: string;
  readonly from: string;
  readonly to: string;
  readonly index: string;
  readonly description: string;
}

async function workingTree(cwd: string, env: Env, scratch: string): Promise<{ tree: string; index: string }> {
  const index = await scratchIndex(cwd, env, scratch);
  await gitOk(["add", "-A", "--", "."], { cwd, env, index });
  return { tree: await gitLine(["write-tree"], { cwd, env, index }), index };
}

/** The working tree as a tree object (tracked and untracked files, ignored ones left out), taken
 * before a delegated turn so that its changes can be reviewed after it; the user's index is only
 * read. Throws one line (exit 2) outside a repository. */
export async function snapshotTree(cwd: string, env: Env): Promise<string> {
  const repo = await findRepository(cwd, env);
  return withScratch(async (scratch) => (await workingTree(repo.root, env, scratch)).tree);
}

async function indexHolding(cwd: string, env: Env, scratch: string, treeish: string): Promise<string> {
  const index = join(scratch, "index");
  await gitOk(["read-tree", treeish], { cwd, env, index });
  return index;
}

async function sides(scope: ReviewScope, options: DiffOptions, scratch: string): Promise<Sides> {
  const { env } = options;
  if (scope.kind === "worktree") {
    const { worktree } = scope;
    const cwd = repositoryFolder(worktree);
    const to = await gitLine(["rev-parse", "--verify", `${branchRef(worktree)}^{commit}`], { cwd, env });
    const root = existsSync(worktree.dir) ? worktree.dir : cwd;
    const index = await indexHolding(cwd, env, scratch, to);
    const description = `${describeScope(scope)} (${short(worktree.base)}..${short(to)})`;
    return { cwd, root, from: worktree.base, to, index, description };
  }
  const repo = await findRepository(options.cwd, env);
  const cwd = repo.root;
  switch (scope.kind) {
    case "changes": {
      const { from, said } = await headOrEmpty(cwd, env);
      const { tree, index } = await workingTree(cwd, env, scratch);
      return { cwd, root: cwd, from, to: tree, index, description: `${describeScope(scope)} (${said})` };
    }
    case "base": {
      const ref = checkedRevision(scope.ref, "--base");
      if ((await commitOf(cwd, env, ref)) === undefined) {
        throw new ScvError(
          "USAGE",
          `--base '${ref}' names no commit in ${cwd} — give a branch, tag or commit`,
        );
      }
      const run = await git(["merge-base", ref, "HEAD"], { cwd, env });
      const from = run.stdout.trim();
      if (run.code !== 0 || from === "") {
        throw new ScvError(
          "USAGE",
          `'${ref}' and HEAD share no history in ${cwd}, so there is no merge base to review from — give another --base`,
        );
      }
      const { tree, index } = await workingTree(cwd, env, scratch);
      return {
        cwd,
        root: cwd,
        from,
        to: tree,
        index,
        description: `${describeScope(scope)} (${short(from)})`,
      };
    }
    case "staged": {
      const { from, said } = await headOrEmpty(cwd, env);
      // A copy: write-tree may refresh the cache tree of the index it reads.
      const index = await scratchIndex(cwd, env, scratch);
      const written = await git(["write-tree"], { cwd, env, index });
      if (written.code !== 0) {
        throw new ScvError(
          "USAGE",
          `the index in ${cwd} has unresolved conflicts, so there is no staged change to review — resolve them, or review the working tree`,
        );
      }
      const to = written.stdout.trim();
      return { cwd, root: cwd, from, to, index, description: `${describeScope(scope)} (${said})` };
    }
    case "job": {
      const start = scope.from === undefined ? await headOrEmpty(cwd, env) : undefined;
      const from = scope.from ?? start?.from ?? "";
      const { tree, index } = await workingTree(cwd, env, scratch);
      const said = start?.said ?? `${short(from)}..${short(tree)}`;
      return { cwd, root: cwd, from, to: tree, index, description: `${describeScope(scope)} (${said})` };
    }
    case "commit": {
      const ref = checkedRevision(scope.ref, "--commit");
      const to = await commitOf(cwd, env, ref);
      if (to === undefined) {
        throw new ScvError("USAGE", `--commit '${ref}' names no commit in ${cwd} — give a commit`);
      }
      const from = (await commitOf(cwd, env, `${to}^1`)) ?? (await emptyTree(cwd, env));
      const index = await indexHolding(cwd, env, scratch, to);
      return { cwd, root: cwd, from, to, index, description: `commit ${short(to)}` };
    }
  }
}

/** `linguist-generated` for each path, as the index `index` holds .gitattributes. */
async function generatedAttributes(
  sides: Sides,
  env: Env,
  paths: readonly string[],
): Promise<Map<string, string>> {
  if (paths.length === 0) return new Map();
  const out = await gitOk(["check-attr", "--cached", "-z", "--stdin", "linguist-generated"], {
    cwd: sides.cwd,
    env,
    index: sides.index,
    input: paths.map((path) => `${path}\0`).join(""),
  });
  const fields = nulSeparated(out);
  const values = new Map<string, string>();
  for (let i = 0; i + 2 < fields.length; i += 3) values.set(fields[i] ?? "", fields[i + 2] ?? "");
  return values;
}

/** The diff of `scope`, file by file. Throws one line (exit 2) for a scope that names nothing to
 * review: not a repository, a ref that names no commit, no merge base. */
export async function computeDiff(scope: ReviewScope, options: DiffOptions): Promise<ReviewDiff> {
  const { env } = options;
  return withScratch(async (scratch) => {
    const both = await sides(scope, options, scratch);
    const patch = await gitOk(
      ["-c", "core.quotePath=false", "diff", ...DIFF_OPTIONS, both.from, both.to, "--"],
      {
        cwd: both.cwd,
        env,
      },
    );
    const only = scope.kind === "job" && scope.paths !== undefined ? new Set(scope.paths) : undefined;
    const parsed = parsePatch(patch).filter(
      (file) => only === undefined || only.has(file.path) || (file.from !== undefined && only.has(file.from)),
    );
    const attributes = await generatedAttributes(
      both,
      env,
      parsed.map((file) => file.path),
    );
    const files = parsed.map((file): DiffFile => {
      const reason = generatedReason({
        path: file.path,
        attribute: generatedAttribute(attributes.get(file.path) ?? "unspecified"),
        addedLines: file.binary ? [] : addedLines(file.patch),
      });
      return reason === undefined ? file : { ...file, generated: reason };
    });
    return {
      description: both.description,
      scope: scope.kind,
      root: both.root,
      from: both.from,
      to: both.to,
      files,
    };
  });
}
