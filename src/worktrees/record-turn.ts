// After a turn: everything in the worktree (tracked and untracked, not ignored) committed on its
// branch, so nothing the agent wrote is lost even when the folder goes. Plumbing (`add -A`,
// `write-tree`, `commit-tree`, `update-ref` with the old tip checked), so no hook of the user's
// runs, no signing is asked for, no identity of the user's is needed (author and committer are
// `scv <agent>`), and the commit lands on `scv/<handle>` even if the agent switched the worktree to
// another branch. Nothing changed: no commit. A commit the agent made itself counts as the turn's.
//
// API: `branchTip(worktree, env)` before the turn; `recordTurn(worktree, { agent, prompt, since,
// env })` after it → `TurnChanges` (files, added, removed, commit).

import { existsSync } from "node:fs";
import { ScvError } from "../errors.js";
import type { Env } from "../home/paths.js";
import { type DiffStat, diffStat, repositoryFolder } from "./diffstat.js";
import { gitLine, gitOk } from "./git.js";
import { linkPathspecs } from "./links.js";
import { both, commitTree, type GitIdentity } from "./patch.js";
import { branchRef, type Worktree } from "./record.js";

export interface TurnChanges extends DiffStat {
  /** The commit scv made of the turn's changes; null when nothing was left uncommitted. */
  readonly commit: string | null;
  /** The branch's tip afterwards. */
  readonly tip: string;
}

export interface RecordOptions {
  /** The agent's name: the commit's author is `scv <agent>`. */
  readonly agent: string;
  /** The turn's prompt: its first line is the commit's subject. */
  readonly prompt: string;
  /** The branch's tip before the turn (`branchTip`); the diffstat counts from there. Default: the
   * tip when recording, so only what was left uncommitted counts. */
  readonly since?: string;
  /** Instead of the turn's message: why changes are saved (before a removal). */
  readonly message?: string;
  readonly env: Env;
}

/** The identity of an agent's commits: `scv <agent>`. */
export function agentIdentity(agent: string): GitIdentity {
  return { name: "scv", email: agent };
}

/** The branch's tip now. */
export async function branchTip(worktree: Worktree, env: Env): Promise<string> {
  return gitLine(["rev-parse", "--verify", "--quiet", branchRef(worktree)], {
    cwd: repositoryFolder(worktree),
    env,
  });
}

const SUBJECT_LENGTH = 72;

/** The commit message: the conversation and the prompt's first line (control characters dropped,
 * cut to a subject's length), then the rest of the story. Pure. */
export function turnMessage(handle: string, agent: string, prompt: string): string {
  const first =
    prompt
      .split("\n")
      .map((line) => line.replace(/\p{Cc}+/gu, " ").trim())
      .find((line) => line !== "") ?? "(no prompt)";
  const cut = first.length > SUBJECT_LENGTH ? `${first.slice(0, SUBJECT_LENGTH - 1)}…` : first;
  return `${handle}: ${cut}\n\nA turn of scv conversation ${handle} (agent ${agent}), recorded by scv.\n`;
}

/** Commits what the worktree holds on its branch; throws (one line, saying where the changes are)
 * when it cannot: they stay in the folder. */
export async function recordTurn(worktree: Worktree, options: RecordOptions): Promise<TurnChanges> {
  const { env } = options;
  const cwd = worktree.dir;
  if (!existsSync(cwd)) {
    throw new ScvError(
      "IO",
      `${worktree.handle}'s worktree ${cwd} is gone, so this turn's changes could not be recorded — its branch ${worktree.branch} keeps the earlier turns`,
    );
  }
  const saving = (error: unknown) =>
    new ScvError(
      "IO",
      `could not record ${worktree.handle}'s changes on ${worktree.branch} (${error instanceof Error ? error.message : String(error)}) — they are still in ${cwd}`,
      { cause: error },
    );
  try {
    const ref = branchRef(worktree);
    const [parent = "", parentTree = ""] = (await gitOk(["rev-parse", ref, `${ref}^{tree}`], { cwd, env }))
      .trim()
      .split("\n");
    await gitOk(["add", "-A"], { cwd, env });
    // The links from the user's repository are not the branch's (links.ts).
    const links = linkPathspecs(worktree);
    if (links.length > 0)
      await gitOk(["rm", "--cached", "-r", "-q", "--ignore-unmatch", "--", ...links], { cwd, env });
    const tree = await gitLine(["write-tree"], { cwd, env });
    const before = options.since ?? parent;
    let commit: string | null = null;
    if (tree !== parentTree) {
      const message = options.message ?? turnMessage(worktree.handle, options.agent, options.prompt);
      commit = await commitTree(cwd, env, {
        tree,
        parent,
        message,
        identities: both(agentIdentity(options.agent)),
      });
      await gitOk(["update-ref", "-m", `scv: ${worktree.handle}`, branchRef(worktree), commit, parent], {
        cwd,
        env,
      });
    }
    const tip = commit ?? parent;
    return { ...(await diffStat(cwd, env, before, tip)), commit, tip };
  } catch (error) {
    // git missing is its own line; anything else leaves the changes where they are.
    if (error instanceof ScvError && error.code === "USAGE") throw error;
    throw saving(error);
  }
}
