// Changes between two commits as git's own binary patch, merged three-way into a temporary index
// (`GIT_INDEX_FILE`): the user's index and files are never touched while a merge is worked out, so
// a conflict leaves nothing half-written. Carrying the user's changes onto another base and
// applying a branch to the user's tree both go through here. Temporary files live in a private
// scratch folder (mkdtemp, 0700) removed afterwards.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ScvError } from "../errors.js";
import type { Env } from "../home/paths.js";
import { git, gitFailed, gitLine, gitOk, nulSeparated } from "./git.js";

/** A scratch folder for one operation, removed whatever happens. */
export async function withScratch<T>(use: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "scv-worktree-"));
  try {
    return await use(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Options that make `git diff` print the same patch whatever the user's diff settings (noprefix,
 * external diff drivers, textconv, colour, relative), renames found. */
export const SETTLED_DIFF_OPTIONS: readonly string[] = [
  "-M",
  "--no-color",
  "--no-ext-diff",
  "--no-textconv",
  "--no-relative",
  "--src-prefix=a/",
  "--dst-prefix=b/",
  "--submodule=short",
];

/** And a patch `git apply` reads back exactly. */
const PATCH_OPTIONS: readonly string[] = ["--binary", "--full-index", ...SETTLED_DIFF_OPTIONS];

/** Writes the patch from `from` to `to` (commits or trees) into `file` (never through a pipe: a
 * file in another encoding stays its bytes). */
export async function writePatch(
  cwd: string,
  env: Env,
  from: string,
  to: string,
  file: string,
): Promise<void> {
  await gitOk(["diff", ...PATCH_OPTIONS, `--output=${file}`, from, to, "--"], { cwd, env });
}

/** The paths a change between two commits touches, both sides of a rename. */
export async function touchedPaths(cwd: string, env: Env, from: string, to: string): Promise<string[]> {
  const out = await gitOk(["diff", "--name-only", "-z", "--no-renames", "--no-relative", from, to, "--"], {
    cwd,
    env,
  });
  return nulSeparated(out);
}

/** Whether two commits or trees hold the same files. */
export async function sameTree(cwd: string, env: Env, a: string, b: string): Promise<boolean> {
  const trees = await gitOk(["rev-parse", `${a}^{tree}`, `${b}^{tree}`], { cwd, env });
  const [left, right] = trees.trim().split("\n");
  return left === right;
}

/** The oldest git whose `apply` merges three-way into an index alone. */
export const GIT_TOO_OLD =
  "this git is too old for scv's worktrees (git apply cannot merge three-way into an index before git 2.32) — install git 2.32 or later";

export type IndexMerge =
  | { readonly kind: "clean"; readonly tree: string }
  | { readonly kind: "conflicts"; readonly paths: readonly string[] };

/** Applies `patch` three-way to the temporary `index` (already holding what it applies onto),
 * in the work tree `cwd` without touching it: the tree it makes, or the paths in conflict. */
export async function mergeIntoIndex(
  cwd: string,
  env: Env,
  index: string,
  patch: string,
): Promise<IndexMerge> {
  const run = await git(["apply", "--cached", "--3way", "--whitespace=nowarn", patch], { cwd, env, index });
  // Before git 2.32: "--cached and --3way cannot be used together".
  if (/cannot be used together/.test(run.stderr)) throw new ScvError("USAGE", GIT_TOO_OLD);
  if (run.code === 0) return { kind: "clean", tree: await gitLine(["write-tree"], { cwd, env, index }) };
  const unmerged = nulSeparated(await gitOk(["ls-files", "-u", "-z"], { cwd, env, index }));
  // `<mode> <sha> <stage>\t<path>`, one line per stage.
  const paths = [...new Set(unmerged.map((entry) => entry.slice(entry.indexOf("\t") + 1)))];
  if (paths.length === 0) throw gitFailed(["apply"], cwd, run);
  return { kind: "conflicts", paths };
}

/** A commit of `tree` on `parent`, unsigned and without hooks: plumbing, so nothing of the user's
 * commit configuration applies. */
export async function commitTree(
  cwd: string,
  env: Env,
  { tree, parent, message, identities }: NewCommit,
): Promise<string> {
  return gitLine(["commit-tree", "--no-gpg-sign", tree, "-p", parent, "-F", "-"], {
    cwd,
    env,
    input: message,
    extraEnv: identityEnvironment(identities),
  });
}

/** A commit to make: its tree, its one parent, its message and who wrote it. */
interface NewCommit {
  readonly tree: string;
  readonly parent: string;
  readonly message: string;
  readonly identities: CommitIdentities;
}

export interface GitIdentity {
  readonly name: string;
  readonly email: string;
}

export interface CommitIdentities {
  readonly author: GitIdentity;
  /** Absent: git's own (the user's configured identity). */
  readonly committer?: GitIdentity;
}

/** One identity as author and committer both. */
export function both(identity: GitIdentity): CommitIdentities {
  return { author: identity, committer: identity };
}

/** Author and committer as git's variables. Pure. */
function identityEnvironment({ author, committer }: CommitIdentities): Record<string, string> {
  return {
    GIT_AUTHOR_NAME: author.name,
    GIT_AUTHOR_EMAIL: author.email,
    ...(committer === undefined
      ? {}
      : { GIT_COMMITTER_NAME: committer.name, GIT_COMMITTER_EMAIL: committer.email }),
  };
}
