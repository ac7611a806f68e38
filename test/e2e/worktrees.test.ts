// `--worktree` through the built scv with fake agents that edit files: three agents edit the same
// file differently, each in its own worktree on its own branch, the user's tree untouched until
// `scv apply`; the comparison table and the results' worktree fields; apply of one, a conflict on
// another (the tree unchanged), `--commit`; best of N. `-c`, the refusals before any agent starts,
// setup, the config and conversations rm are worktrees-setup.test.ts.

import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { turnResultShape } from "../../src/json-shapes.js";
import { initRepo, useRepoLab } from "../helpers/git-repo.js";
import { agentCalls, conversationRecord, signIn } from "../helpers/scv.js";
import { fileHashes } from "../worktrees/repos.js";

const { lab, inRepo, git } = useRepoLab();

const results = (stdout: string) => z.array(turnResultShape()).parse(JSON.parse(stdout));

describe("scv delegate --worktree", () => {
  it("runs three agents editing the same file in worktrees of their own; the user's tree stays as it was", async () => {
    initRepo(lab.world);
    await signIn(lab.world, "claude");
    await signIn(lab.world, "codex");
    await signIn(lab.world, "pi");
    const before = fileHashes(lab.world.project);
    const run = await inRepo(
      [
        "delegate",
        "--worktree",
        "claude",
        "codex",
        "pi",
        "--check",
        "grep -q wrote notes.txt",
        "--json",
        "edit notes",
      ],
      { FAKE_AGENT_MODE: "write:notes.txt" },
    );
    expect(run.exitCode, run.stderr).toBe(0);
    const turns = results(run.stdout);
    expect(turns.map((turn) => turn.agent)).toEqual(["claude", "codex", "pi"]);
    for (const turn of turns) {
      const handle = turn.conversation ?? "";
      expect(turn.branch).toBe(`scv/${handle}`);
      expect(turn.worktree).toBe(join(lab.world.scvHome, "worktrees", repoFolder(), handle));
      expect(turn.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(turn.diffstat).toEqual({
        files: 1,
        added: 1,
        removed: 1,
        paths: [{ path: "notes.txt", from: null, added: 1, removed: 1 }],
      });
      expect(turn.check).toMatchObject({ command: "grep -q wrote notes.txt", status: "pass", exitCode: 0 });
      // The branch holds the agent's edit, its own; the commit is scv's, in the agent's name.
      expect(git(["show", `${turn.branch}:notes.txt`])).toBe(`${turn.agent} wrote this in ${handle}\n`);
      expect(git(["log", "-1", "--format=%an <%ae>|%s", turn.branch ?? ""]).trim()).toBe(
        `scv <${turn.agent}>|${handle}: edit notes`,
      );
      // The agent worked there, and its conversation keeps the worktree.
      expect(conversationRecord(lab.world, handle)).toMatchObject({
        cwd: turn.worktree,
        worktree: { branch: turn.branch, dir: turn.worktree, baseRef: "HEAD" },
        lastCheck: { status: "pass" },
      });
    }
    expect(new Set(agentCalls(lab.world).map((call) => call.cwd))).toEqual(
      new Set(turns.map((turn) => turn.worktree)),
    );
    // Nothing reached the user's tree, its index or its branch.
    expect(fileHashes(lab.world.project)).toEqual(before);
    expect(git(["status", "--porcelain"])).toBe("");
    expect(git(["log", "--oneline"]).trim().split("\n")).toHaveLength(1);
    // The table on stderr: one row each, the check passed.
    const rows = tableRows(run.stderr);
    expect(rows.map((row) => row.slice(0, 5))).toEqual(
      turns.map((turn) => [turn.agent, turn.conversation, "1", "+1/-1", expect.stringMatching(/^pass \d/)]),
    );
  });

  it("applies one attempt, refuses another over the user's changes, conflicts without writing, commits", async () => {
    initRepo(lab.world);
    await signIn(lab.world, "claude");
    await signIn(lab.world, "codex");
    const run = await inRepo(["delegate", "--worktree", "claude", "codex", "--json", "edit notes"], {
      FAKE_AGENT_MODE: "write:notes.txt",
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const [claude, codex] = results(run.stdout).map((turn) => turn.conversation ?? "");

    const applied = await inRepo(["apply", claude ?? ""]);
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect(applied.stderr).toContain(
      `scv: applied scv/${claude} to ${lab.world.project}: 1 file (notes.txt), uncommitted`,
    );
    expect(readFileSync(join(lab.world.project, "notes.txt"), "utf8")).toBe(
      `claude wrote this in ${claude}\n`,
    );
    expect(git(["status", "--porcelain"])).toBe(" M notes.txt\n");
    expect(conversationRecord(lab.world, claude ?? "")).toMatchObject({
      worktree: { applied: expect.any(String) },
    });

    // codex's edit of the same file: the user's uncommitted change is in its way.
    const refused = await inRepo(["apply", codex ?? ""]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(
      /^scv: your uncommitted changes in .* are in the way of scv\/codex-\w+ \(notes\.txt\)/,
    );
    expect(readFileSync(join(lab.world.project, "notes.txt"), "utf8")).toBe(
      `claude wrote this in ${claude}\n`,
    );

    // Committed instead: the next apply merges three-way against that commit, and conflicts.
    git(["checkout", "--", "notes.txt"]);
    const committed = await inRepo(["apply", "--commit", claude ?? ""]);
    expect(committed.exitCode, committed.stderr).toBe(0);
    expect(git(["log", "-1", "--format=%an <%ae>|%s"]).trim()).toBe(`scv <claude>|${claude}: edit notes`);
    expect(git(["status", "--porcelain"])).toBe("");
    const before = fileHashes(lab.world.project);
    const conflict = await inRepo(["apply", codex ?? ""]);
    // Refused, as over the user's changes: one line, exit 2, nothing touched.
    expect(conflict.exitCode).toBe(2);
    expect(conflict.stderr.trim().split("\n")).toHaveLength(1);
    expect(conflict.stderr).toContain(
      `scv: scv/${codex} conflicts with ${lab.world.project} in notes.txt — nothing was written`,
    );
    expect(fileHashes(lab.world.project)).toEqual(before);
    expect(git(["status", "--porcelain"])).toBe("");

    // --keep-conflicts leaves git's markers.
    const kept = await inRepo(["apply", "--keep-conflicts", codex ?? ""]);
    expect(kept.exitCode).toBe(1);
    expect(readFileSync(join(lab.world.project, "notes.txt"), "utf8")).toContain("<<<<<<<");
  });

  it("runs each target --n times and numbers the attempts in the table", async () => {
    initRepo(lab.world);
    await signIn(lab.world, "claude");
    const run = await inRepo(["delegate", "--worktree", "--n", "2", "claude", "claude:opus", "edit notes"], {
      FAKE_AGENT_MODE: "write:notes.txt",
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const labels = tableRows(run.stderr).map((row) => row[0]);
    expect(labels).toEqual(["claude #1", "claude #2", "claude #1", "claude #2"]);
    const handles = tableRows(run.stderr).map((row) => row[1]);
    expect(new Set(handles).size).toBe(4);
    expect(run.stderr).toMatch(/see one: scv diff claude-\w+ · take one: scv apply claude-\w+/);
  });
});

/** The `repo-id` folder under $SCV_HOME/worktrees (one repository per world). */
function repoFolder(): string {
  return execFileSync("ls", [join(lab.world.scvHome, "worktrees")], { encoding: "utf8" }).trim();
}

/** The comparison table's rows on stderr: the lines after its header, split on two spaces. */
function tableRows(stderr: string): string[][] {
  const lines = stderr.split("\n");
  const header = lines.findIndex((line) => line.startsWith("AGENT "));
  const rows: string[][] = [];
  for (const line of lines.slice(header + 1)) {
    if (line === "" || line.startsWith("see one:")) break;
    rows.push(line.split(/ {2,}/));
  }
  return rows;
}
