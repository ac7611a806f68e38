// `scv diff`'s core: the branch's diff against its base on the terminal, through the user's pager
// and git's colours, as their own `git diff` shows it.

import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createWorktree } from "../../src/worktrees/create.js";
import { branchTip, recordTurn } from "../../src/worktrees/record-turn.js";
import { findRepository } from "../../src/worktrees/repo.js";
import { builtChild } from "../helpers/child.js";
import { world } from "./repos.js";

describe("showWorktreeDiff", () => {
  it("shows base..branch through the user's pager, in colour, on a terminal", async () => {
    using w = world();
    const worktree = await createWorktree(await findRepository(w.repo, w.env), {
      handle: "codex-k3f9x2",
      env: w.env,
    });
    const since = await branchTip(worktree, w.env);
    w.write("a.txt", "alpha\nadded by the agent\n", worktree.dir);
    await recordTurn(worktree, { agent: "codex", prompt: "p", since, env: w.env });
    // Uncommitted after the record: not part of the branch's diff.
    w.write("a.txt", "not recorded\n", worktree.dir);
    const out = execFileSync(
      "python3",
      [
        join("test", "helpers", "pty-run.py"),
        "",
        "--",
        process.execPath,
        await builtChild(join(import.meta.dirname, "show-diff-child.ts")),
        JSON.stringify(worktree),
      ],
      { env: { ...w.env, TERM: "xterm-256color", GIT_PAGER: "sed s/^/PAGED:/" }, encoding: "utf8" },
    );
    const { output, code } = JSON.parse(out) as { output: string; code: number };
    expect(code).toBe(0);
    const lines = output.split(/\r?\n/);
    expect(lines).toContain("PAGED:\u001b[32m+\u001b[m\u001b[32madded by the agent\u001b[m");
    expect(output).toContain("PAGED:\u001b[1mdiff --git a/a.txt b/a.txt\u001b[m");
    expect(output).not.toContain("not recorded");
  });
});
