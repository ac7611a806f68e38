// Removing a conversation's worktree and branch: never while a turn of it runs, never losing what
// was left uncommitted, gc keeping unmerged work unless forced, and `git worktree prune` after.

import { existsSync, rmSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EXIT, ScvError } from "../../src/errors.js";
import { applyWorktree } from "../../src/worktrees/apply.js";
import { createWorktree } from "../../src/worktrees/create.js";
import type { Worktree } from "../../src/worktrees/record.js";
import { branchTip, recordTurn } from "../../src/worktrees/record-turn.js";
import { holdsUnmergedWork, removeWorktree } from "../../src/worktrees/remove-worktree.js";
import { findRepository } from "../../src/worktrees/repo.js";
import { type World, world } from "./repos.js";

const HANDLE = "codex-k3f9x2";

async function made(w: World): Promise<Worktree> {
  return createWorktree(await findRepository(w.repo, w.env), { handle: HANDLE, env: w.env });
}

const branches = (w: World) => w.git(["branch", "--list", `scv/${HANDLE}`]);
const registered = (w: World, worktree: Worktree) =>
  w.git(["worktree", "list", "--porcelain"]).includes(worktree.dir);

describe("removeWorktree", () => {
  it("refuses while a turn of it runs, and removes nothing", async () => {
    using w = world();
    const worktree = await made(w);
    const error = await removeWorktree(worktree, { env: w.env, isRunning: async () => true }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ScvError);
    expect((error as ScvError).exitCode).toBe(EXIT.usage);
    expect((error as ScvError).message).toBe(
      `a turn of ${HANDLE} is running in its worktree — wait for it (scv wait ${HANDLE}) or stop it (scv kill ${HANDLE}), then remove it`,
    );
    expect(existsSync(worktree.dir)).toBe(true);
    expect(branches(w)).not.toBe("");
  });

  it("removes an unchanged worktree and its branch, and prunes", async () => {
    using w = world();
    const worktree = await made(w);
    expect(await holdsUnmergedWork(worktree, { env: w.env })).toBe(false);
    const outcome = await removeWorktree(worktree, {
      env: w.env,
      onlyIfMerged: true,
      isRunning: () => false,
    });
    expect(outcome).toEqual({ kind: "removed", saved: null, unmerged: false });
    expect(existsSync(worktree.dir)).toBe(false);
    expect(branches(w)).toBe("");
    expect(registered(w, worktree)).toBe(false);
  });

  it("gc keeps unmerged work, including what a killed turn left uncommitted, until forced", async () => {
    using w = world();
    const worktree = await made(w);
    // A turn whose scv died: written, never recorded; and an ignored build output.
    w.write("half.txt", "written before the kill\n", worktree.dir);
    w.write("build.log", "ignored\n", worktree.dir);
    const kept = await removeWorktree(worktree, { env: w.env, onlyIfMerged: true });
    expect(kept.kind).toBe("kept");
    expect(kept.saved).toMatch(/^[0-9a-f]{40}$/);
    expect(w.git(["show", `scv/${HANDLE}:half.txt`])).toBe("written before the kill\n");
    expect(w.git(["log", "-1", "--format=%s", `scv/${HANDLE}`]).trim()).toBe(
      `${HANDLE}: changes left in its worktree`,
    );
    expect(existsSync(worktree.dir)).toBe(true);
    expect(await holdsUnmergedWork(worktree, { env: w.env })).toBe(true);
    const forced = await removeWorktree(worktree, { env: w.env, onlyIfMerged: true, force: true });
    expect(forced).toEqual({ kind: "removed", saved: null, unmerged: true });
    expect(existsSync(worktree.dir)).toBe(false);
    expect(branches(w)).toBe("");
  });

  it("counts work as merged once in the base, once applied, or once committed into HEAD", async () => {
    using w = world();
    const worktree = await made(w);
    const since = await branchTip(worktree, w.env);
    w.write("feature.txt", "feature\n", worktree.dir);
    const { tip } = await recordTurn(worktree, { agent: "codex", prompt: "p", since, env: w.env });
    expect(await holdsUnmergedWork(worktree, { env: w.env })).toBe(true);
    // Applied (uncommitted) and recorded as such by the caller.
    expect(await holdsUnmergedWork(worktree, { env: w.env, applied: tip })).toBe(false);
    // Applied with a commit: the content is in HEAD.
    await applyWorktree(worktree, { env: w.env, commit: { message: "apply\n", agent: "codex" } });
    expect(await holdsUnmergedWork(worktree, { env: w.env })).toBe(false);
    w.git(["reset", "-q", "--hard", "HEAD^"]);
    expect(await holdsUnmergedWork(worktree, { env: w.env })).toBe(true);
    // Merged into the base branch.
    w.git(["merge", "-q", "--no-edit", `scv/${HANDLE}`]);
    expect(await holdsUnmergedWork(worktree, { env: w.env })).toBe(false);
    expect((await removeWorktree(worktree, { env: w.env, onlyIfMerged: true })).kind).toBe("removed");
  });

  it("removes the branch and the repository's record when the folder is already gone", async () => {
    using w = world();
    const worktree = await made(w);
    rmSync(worktree.dir, { recursive: true });
    const outcome = await removeWorktree(worktree, { env: w.env });
    expect(outcome).toEqual({ kind: "removed", saved: null, unmerged: false });
    expect(branches(w)).toBe("");
    expect(registered(w, worktree)).toBe(false);
  });

  it("says in one line that the repository is gone, never that git is missing", async () => {
    using w = world();
    const worktree = await made(w);
    rmSync(worktree.dir, { recursive: true });
    rmSync(w.repo, { recursive: true });
    const error = await removeWorktree(worktree, { env: w.env }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScvError);
    expect((error as ScvError).message).toBe(
      `${worktree.dir} is gone, so git cannot run there — check the path`,
    );
  });
});
