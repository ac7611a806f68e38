// Recording a turn: everything the agent left in its worktree committed on scv/<handle>, whatever
// the user's hooks, signing and identity settings say; the diffstat; no commit when nothing changed.

import { chmodSync, existsSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ScvError } from "../../src/errors.js";
import { createWorktree } from "../../src/worktrees/create.js";
import { parseNumstat, worktreeDiffStat } from "../../src/worktrees/diffstat.js";
import { branchTip, recordTurn, turnMessage } from "../../src/worktrees/record-turn.js";
import { findRepository } from "../../src/worktrees/repo.js";
import { world } from "./repos.js";

const HANDLE = "codex-k3f9x2";

async function made(w: ReturnType<typeof world>) {
  return createWorktree(await findRepository(w.repo, w.env), { handle: HANDLE, env: w.env });
}

const HOOKS = ["pre-commit", "commit-msg", "post-commit", "post-index-change", "reference-transaction"];

/** The user's repository made hostile to a plain `git commit`: hooks that fail, signing that fails,
 * no identity that git may guess. */
function hostile(w: ReturnType<typeof world>): void {
  for (const hook of HOOKS) {
    w.write(`.git/hooks/${hook}`, `#!/bin/sh\ntouch ${join(w.dir, `ran-${hook}`)}\nexit 1\n`);
    chmodSync(join(w.repo, ".git", "hooks", hook), 0o755);
  }
  w.git(["config", "commit.gpgsign", "true"]);
  w.git(["config", "gpg.program", "false"]);
  w.git(["config", "user.useConfigOnly", "true"]);
}

describe("recordTurn", () => {
  it("commits the turn's changes on the branch as scv <agent>, with the conversation and the prompt's first line", async () => {
    using w = world();
    const worktree = await made(w);
    hostile(w);
    w.git(["config", "--global", "--unset", "user.email"]);
    const since = await branchTip(worktree, w.env);
    // An agent's work: an edit, a new file, a deletion, a binary change, a rename, an ignored file.
    w.write("a.txt", "alpha\nmore\n", worktree.dir);
    w.write("src/new.ts", "export const x = 1;\n", worktree.dir);
    rmSync(join(worktree.dir, "gone.txt"));
    w.write("bin.dat", Buffer.from([1, 2, 3, 0, 4]), worktree.dir);
    renameSync(join(worktree.dir, "old-name.txt"), join(worktree.dir, "renamed.txt"));
    w.write("build.log", "ignored\n", worktree.dir);
    const changes = await recordTurn(worktree, {
      agent: "codex",
      prompt: "\nfix the flaky test\nin test/a.test.ts\n",
      since,
      env: w.env,
    });
    expect(changes.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(changes.tip).toBe(changes.commit);
    expect(w.git(["rev-parse", `scv/${HANDLE}`]).trim()).toBe(changes.commit);
    expect(w.git(["log", "-1", "--format=%an <%ae>|%cn <%ce>|%s", `scv/${HANDLE}`]).trim()).toBe(
      `scv <codex>|scv <codex>|${HANDLE}: fix the flaky test`,
    );
    expect(w.git(["cat-file", "commit", changes.commit as string])).not.toContain("gpgsig");
    for (const hook of HOOKS) {
      expect(existsSync(join(w.dir, `ran-${hook}`)), hook).toBe(false);
    }
    expect(changes.files).toBe(5);
    expect(changes.added).toBe(2);
    expect(changes.removed).toBe(1);
    expect(changes.paths).toContainEqual({ path: "bin.dat", added: null, removed: null });
    expect(changes.paths).toContainEqual({ path: "renamed.txt", from: "old-name.txt", added: 0, removed: 0 });
    expect(w.git(["status", "--porcelain"], worktree.dir)).toBe("");
    expect(w.git(["show", "--name-only", "--format=", `scv/${HANDLE}`]).split("\n")).not.toContain(
      "build.log",
    );
    expect(await worktreeDiffStat(worktree, w.env)).toMatchObject({ files: 5, added: 2, removed: 1 });
  });

  it("makes no commit when nothing changed, and counts a commit the agent made itself", async () => {
    using w = world();
    const worktree = await made(w);
    const since = await branchTip(worktree, w.env);
    const nothing = await recordTurn(worktree, { agent: "claude", prompt: "look around", since, env: w.env });
    expect(nothing).toEqual({ files: 0, added: 0, removed: 0, paths: [], commit: null, tip: since });
    w.write("a.txt", "alpha\nby the agent\n", worktree.dir);
    w.git(["commit", "-qam", "agent's own"], worktree.dir);
    const own = await recordTurn(worktree, { agent: "claude", prompt: "commit it", since, env: w.env });
    expect(own.commit).toBeNull();
    expect(own).toMatchObject({ files: 1, added: 1, removed: 0 });
    expect(own.tip).toBe(w.git(["rev-parse", "HEAD"], worktree.dir).trim());
  });

  it("records on scv/<handle> even when the agent switched the worktree to another branch", async () => {
    using w = world();
    const worktree = await made(w);
    const since = await branchTip(worktree, w.env);
    w.git(["switch", "-q", "-c", "elsewhere"], worktree.dir);
    w.write("a.txt", "written on another branch\n", worktree.dir);
    const changes = await recordTurn(worktree, { agent: "gemini", prompt: "p", since, env: w.env });
    expect(changes.commit).not.toBeNull();
    expect(w.git(["show", `scv/${HANDLE}:a.txt`])).toBe("written on another branch\n");
  });

  it("says where the changes are when its folder is gone", async () => {
    using w = world();
    const worktree = await made(w);
    rmSync(worktree.dir, { recursive: true });
    const error = await recordTurn(worktree, { agent: "codex", prompt: "p", env: w.env }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ScvError);
    expect((error as ScvError).message).toBe(
      `${HANDLE}'s worktree ${worktree.dir} is gone, so this turn's changes could not be recorded — its branch scv/${HANDLE} keeps the earlier turns`,
    );
  });
});

describe("pure parts", () => {
  it("reads numstat -z output: plain, binary and renamed entries", () => {
    const text = "3\t1\ta.txt\0-\t-\tbin.dat\0" + "0\t2\t\0old name.txt\0new\tname.txt\0";
    expect(parseNumstat(text)).toEqual({
      files: 3,
      added: 3,
      removed: 3,
      paths: [
        { path: "a.txt", added: 3, removed: 1 },
        { path: "bin.dat", added: null, removed: null },
        { path: "new\tname.txt", from: "old name.txt", added: 0, removed: 2 },
      ],
    });
    expect(parseNumstat("")).toEqual({ files: 0, added: 0, removed: 0, paths: [] });
  });

  it("writes the message from the prompt's first line, cut and without control characters", () => {
    expect(turnMessage("codex-k3f9x2", "codex", "  \n\tfix it\u001b[31m now\nmore")).toBe(
      "codex-k3f9x2: fix it [31m now\n\nA turn of scv conversation codex-k3f9x2 (agent codex), recorded by scv.\n",
    );
    const subject = turnMessage("h-aaaaaa", "a", "x".repeat(200)).split("\n")[0] ?? "";
    expect(subject).toBe(`h-aaaaaa: ${"x".repeat(71)}…`);
    expect(turnMessage("h-aaaaaa", "a", "").split("\n")[0]).toBe("h-aaaaaa: (no prompt)");
  });
});
