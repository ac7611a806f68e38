// What `scv review --job <job|handle>` reviews: a delegated turn's changes. A conversation with a
// worktree of its own has them on its branch (`scv/<handle>`, against the base it was made from).
// Without one, its changes are mixed into the user's working tree, and scv keeps no copy of what the
// tree was before each turn (taking one costs every turn a pass over the tree): the files it touched
// are taken to be the working tree's changed files last modified while its turns ran (from the job's
// own result while it is kept, else its conversation's turns in the usage log). A file the user
// edited meanwhile counts too, and a file it deleted cannot be told apart: the review's description
// says which files these are.
//
// API: `jobChanges(ref, env)` → `JobChanges`.

import { lstatSync } from "node:fs";
import { join } from "node:path";
import { ScvError } from "../errors.js";
import { type ConversationRecord, readConversation } from "../home/conversations.js";
import type { Env } from "../home/paths.js";
import { readFinished } from "../home/turn-records.js";
import { readUsage } from "../home/usage-log.js";
import type { ReviewScope } from "../review/diff.js";
import { gitOk, nulSeparated } from "../worktrees/git.js";
import { type Worktree, worktreeSchema } from "../worktrees/record.js";
import { findRepository } from "../worktrees/repo.js";
import { parseTurnRef } from "./handle.js";

export interface JobChanges {
  readonly scope: ReviewScope;
  /** Where the job's agent worked. */
  readonly cwd: string;
  /** The job's agent and model: `auto` keeps its family out of the reviewers. */
  readonly author: { readonly agent: string; readonly model?: string };
}

/** A file changed in the same second as a turn's start or end counts as the turn's. */
const SLACK_MS = 1_000;
/** Turns older than this before the conversation's record are not looked for in the usage log. */
const LOOK_BACK_MS = 24 * 60 * 60 * 1000;

interface Window {
  readonly from: number;
  readonly to: number;
}

/** The changes of the job or conversation `ref`. Throws one line (exit 2) for a ref that names
 * nothing, or a conversation whose turns scv has no times for. */
export async function jobChanges(ref: string, env: Env): Promise<JobChanges> {
  const turn = parseTurnRef(ref);
  const record = readConversation(turn.handle, env);
  const author = { agent: record.agent, ...(record.model === undefined ? {} : { model: record.model }) };
  const worktree = worktreeOf(record);
  if (worktree !== undefined) return { scope: { kind: "worktree", worktree }, cwd: record.cwd, author };
  const windows = turnWindows(turn.kind === "job" ? turn.job : undefined, record, env);
  if (windows.length === 0) {
    throw new ScvError(
      "USAGE",
      `${ref} ran in no worktree, and scv has no record of when its turns ran, so its changes cannot be told from the rest of the working tree — review the working tree instead: scv review -C ${record.cwd}`,
    );
  }
  const paths = await touchedDuring(record.cwd, env, windows);
  return { scope: { kind: "job", job: ref, paths }, cwd: record.cwd, author };
}

/** The conversation's worktree, where its record has one. */
export function worktreeOf(record: ConversationRecord | undefined): Worktree | undefined {
  const value = (record as Record<string, unknown> | undefined)?.worktree;
  if (value === undefined) return undefined;
  const parsed = worktreeSchema().safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** When the job ran (its kept result), else when each of the conversation's turns ran. */
function turnWindows(job: string | undefined, record: ConversationRecord, env: Env): Window[] {
  const finished = job === undefined ? undefined : readFinished(job, env);
  if (finished !== undefined) {
    return [{ from: Date.parse(finished.startedAt) - SLACK_MS, to: Date.parse(finished.endedAt) + SLACK_MS }];
  }
  const since = new Date(Date.parse(record.createdAt) - LOOK_BACK_MS);
  return readUsage(since, new Date(), env)
    .entries.filter((entry) => entry.conversation === record.handle)
    .map((entry) => {
      const from = Date.parse(entry.startedAt);
      return { from: from - SLACK_MS, to: from + entry.durationMs + SLACK_MS };
    })
    .filter((window) => Number.isFinite(window.from) && Number.isFinite(window.to));
}

/** The working tree's changed files (untracked ones too, ignored ones not), from the top level,
 * whose modification time falls in one of `windows`. */
async function touchedDuring(cwd: string, env: Env, windows: readonly Window[]): Promise<string[]> {
  const repo = await findRepository(cwd, env);
  const status = await gitOk(["status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames"], {
    cwd: repo.root,
    env,
  });
  const paths = nulSeparated(status)
    .filter((entry) => entry.length > 3)
    .map((entry) => entry.slice(3));
  return paths.filter((path) => {
    const stat = lstatSync(join(repo.root, path), { throwIfNoEntry: false });
    if (stat === undefined) return false;
    const at = stat.mtimeMs;
    return windows.some((window) => at >= window.from && at <= window.to);
  });
}
