// The project a worktree is made from: the git repository containing a folder (`--cwd`), found by
// git itself (`rev-parse`), and the commit a worktree starts from (`HEAD` or `--base <ref>`). Each
// refusal is one line and exit 2, before any agent starts: not a git repository, a bare one, a
// folder inside `.git`, a base that names no commit, a repository with no commit yet.
//
// API: `findRepository(dir, env)` → `Repository`; `resolveBase(repo, base, env)` → the commit's
// sha; `repositoryId(commonDir)` (pure) names its folder in `$SCV_HOME/worktrees/`.

import { createHash } from "node:crypto";
import { realpathSync, statSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { ScvError } from "../errors.js";
import type { Env } from "../home/paths.js";
import { git, gitComplaint, gitLine } from "./git.js";

export interface Repository {
  /** The top level of the work tree that contains the folder: where the user's changes are, and
   * where `applyWorktree` brings a branch's changes by default. */
  readonly root: string;
  /** The repository's common git directory, absolute and real: one for all its worktrees. */
  readonly commonDir: string;
  /** `<name>-<8 hex>`: stable for the repository where it is (its common directory's real path),
   * the same from each of its worktrees; its folder under `$SCV_HOME/worktrees/`. */
  readonly id: string;
}

/** A folder name for the repository whose common git directory is `commonDir` (a real path): its
 * project's name, for people, and a hash of the path, so two `app` projects differ. Pure. */
export function repositoryId(commonDir: string): string {
  const project = basename(commonDir) === ".git" ? basename(dirname(commonDir)) : basename(commonDir);
  const name = project
    .replace(/\.git$/, "")
    .replace(/[^A-Za-z0-9._-]+/g, "_")
    .replace(/^[._]+/, "")
    .slice(0, 40);
  const hash = createHash("sha256").update(commonDir).digest("hex").slice(0, 8);
  return `${name === "" ? "repo" : name}-${hash}`;
}

/** The repository containing `dir`, or one line and exit 2 saying why there is none to use. */
export async function findRepository(dir: string, env: Env): Promise<Repository> {
  const folder = resolve(dir);
  if (statSync(folder, { throwIfNoEntry: false })?.isDirectory() !== true) {
    throw new ScvError("USAGE", `${folder} is not a folder — pass -C <a folder of a git repository>`);
  }
  const probe = await git(
    ["rev-parse", "--is-bare-repository", "--is-inside-work-tree", "--git-common-dir"],
    {
      cwd: folder,
      env,
    },
  );
  if (probe.code !== 0) {
    if (/not a git repository/i.test(probe.stderr)) {
      throw new ScvError(
        "USAGE",
        `${folder} is not in a git repository — a worktree needs one: run git init there (and commit once), or pass -C <a folder of a repository>`,
      );
    }
    throw new ScvError("USAGE", `cannot use the git repository at ${folder}: ${gitComplaint(probe.stderr)}`);
  }
  const [bare, inside, common] = probe.stdout.split("\n");
  if (bare === "true") {
    throw new ScvError(
      "USAGE",
      `${folder} is a bare git repository: it has no working tree to branch from — clone it, or pass -C <a checkout of it>`,
    );
  }
  if (inside !== "true" || common === undefined) {
    throw new ScvError(
      "USAGE",
      `${folder} is inside a git directory, not a working tree — pass -C <the checkout's own folder>`,
    );
  }
  const root = await gitLine(["rev-parse", "--show-toplevel"], { cwd: folder, env });
  const commonDir = realpathSync(resolve(folder, common));
  return { root, commonDir, id: repositoryId(commonDir) };
}

/** The commit `base` names in `repo` (default `HEAD`), as a full sha; one line and exit 2 when it
 * names none. */
export async function resolveBase(repo: Repository, base: string | undefined, env: Env): Promise<string> {
  const given = base ?? "HEAD";
  // Never an option to git: `--output=…` as a base.
  if (given === "" || given.startsWith("-")) {
    throw new ScvError("USAGE", `'${given}' is not a git revision — give a branch, tag or commit as --base`);
  }
  const run = await git(["rev-parse", "--verify", "--quiet", `${given}^{commit}`], { cwd: repo.root, env });
  const sha = run.stdout.trim();
  if (run.code === 0 && sha !== "") return sha;
  if (given === "HEAD") {
    throw new ScvError(
      "USAGE",
      `the repository at ${repo.root} has no commit yet, so a worktree has nothing to start from — commit once, then run scv again`,
    );
  }
  throw new ScvError(
    "USAGE",
    `--base '${given}' names no commit in ${repo.root} — give a branch, tag or commit (git log --oneline --all lists them)`,
  );
}
