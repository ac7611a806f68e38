// `--worktree` through the built scv with fake agents that edit files: `-c` continuing in the
// worktree, the refusals before any agent starts, setup, `worktree = true` in the config, and
// conversations rm removing the worktree and its branch. The runs and apply are worktrees.test.ts.

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { turnResultShape } from "../../src/json-shapes.js";
import { initRepo, useRepoLab } from "../helpers/git-repo.js";
import { agentCalls, signIn } from "../helpers/scv.js";

const { lab, inRepo, git } = useRepoLab();

const results = (stdout: string) => z.array(turnResultShape()).parse(JSON.parse(stdout));

describe("scv delegate --worktree", () => {
  it("continues in the worktree with -c: the turn runs there and its own changes are recorded", async () => {
    initRepo(lab.world);
    await signIn(lab.world, "claude");
    const first = await inRepo(["delegate", "--worktree", "claude", "--json", "edit notes"], {
      FAKE_AGENT_MODE: "write:notes.txt",
    });
    expect(first.exitCode, first.stderr).toBe(0);
    const [turn] = results(`[${first.stdout}]`);
    const handle = turn?.conversation ?? "";
    const next = await inRepo(["delegate", "-c", handle, "--json", "add a second file"], {
      FAKE_AGENT_MODE: "write:docs/second.txt",
    });
    expect(next.exitCode, next.stderr).toBe(0);
    const [second] = results(`[${next.stdout}]`);
    expect(second).toMatchObject({
      worktree: turn?.worktree,
      branch: turn?.branch,
      diffstat: { files: 1, paths: [{ path: "docs/second.txt" }] },
    });
    expect(second?.commit).not.toBe(turn?.commit);
    expect(agentCalls(lab.world).map((call) => call.cwd)).toEqual([turn?.worktree, turn?.worktree]);
    expect(
      git(["log", "--format=%s", turn?.branch ?? ""])
        .trim()
        .split("\n"),
    ).toEqual([`${handle}: add a second file`, `${handle}: edit notes`, "initial"]);
    // scv diff shows the branch against its base: both turns.
    const diff = await inRepo(["diff", handle]);
    expect(diff.exitCode).toBe(0);
    expect(diff.stdout).toContain("+++ b/docs/second.txt");
    expect(diff.stdout).toContain("+claude wrote this in");
    // conversations show names it; compare shows its row.
    const show = await inRepo(["conversations", "show", handle]);
    expect(show.stdout).toMatch(new RegExp(`worktree +${turn?.worktree} — branch scv/${handle} from HEAD`));
    const compare = await inRepo(["compare", "--json", handle]);
    expect(JSON.parse(compare.stdout)).toEqual([
      expect.objectContaining({ agent: "claude", conversation: handle, files: 2, added: 2, removed: 1 }),
    ]);
  });

  it("refuses before any agent starts: not a repository, a bad base, a worktree option without one", async () => {
    await signIn(lab.world, "claude");
    const notRepo = await inRepo(["delegate", "--worktree", "claude", "hi"]);
    expect(notRepo.exitCode).toBe(2);
    expect(notRepo.stderr).toMatch(
      /^scv: .* is not in a git repository — a worktree needs one: run git init there/,
    );
    expect(notRepo.stderr.trim().split("\n")).toHaveLength(1);
    initRepo(lab.world);
    const badBase = await inRepo(["delegate", "--worktree", "--base", "nope", "claude", "codex", "hi"]);
    expect(badBase.exitCode).toBe(2);
    expect(badBase.stderr).toMatch(/^scv: --base 'nope' names no commit in /);
    const other = join(lab.world.root, "elsewhere");
    execFileSync("mkdir", ["-p", other]);
    const cwd = await inRepo(["delegate", "--worktree", "-C", other, "claude", "hi"]);
    expect(cwd.exitCode).toBe(2);
    expect(cwd.stderr).toContain(`${other} is not in a git repository`);
    const check = await inRepo(["delegate", "--check", "true", "claude", "hi"]);
    expect(check.exitCode).toBe(2);
    expect(check.stderr).toMatch(
      /^scv: --check works in a turn's own git worktree, and no turn here has one — add --worktree/,
    );
    const n = await inRepo(["delegate", "--n", "0", "claude", "hi"]);
    expect(n.exitCode).toBe(2);
    expect(agentCalls(lab.world)).toEqual([]);
    // Nothing was made.
    expect(existsSync(join(lab.world.scvHome, "worktrees"))).toBe(false);
    expect(git(["branch", "--list", "scv/*"])).toBe("");
  });

  it("sets a worktree up before its agent (what the setup changed is not the agent's), and a failed setup runs nothing", async () => {
    initRepo(lab.world);
    await signIn(lab.world, "claude");
    const run = await inRepo(
      [
        "delegate",
        "--worktree",
        "--setup",
        "echo setup >> notes.txt && mkdir -p build && touch build/x",
        "claude",
        "--json",
        "hi",
      ],
      { FAKE_AGENT_MODE: "write:agent.txt" },
    );
    expect(run.exitCode, run.stderr).toBe(0);
    const [turn] = results(`[${run.stdout}]`);
    expect(turn?.diffstat?.paths.map((file) => file.path)).toEqual(["agent.txt"]);
    expect(readFileSync(join(turn?.worktree ?? "", "notes.txt"), "utf8")).toBe("base\nsetup\n");
    const diff = await inRepo(["diff", turn?.conversation ?? ""]);
    expect(diff.stdout).not.toContain("setup");

    const failed = await inRepo([
      "delegate",
      "--worktree",
      "--setup",
      "echo broken >&2; exit 3",
      "claude",
      "hi",
    ]);
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr).toContain(
      "scv: the worktree's setup `echo broken >&2; exit 3` exited with 3: broken",
    );
    expect(agentCalls(lab.world)).toHaveLength(1);
    expect(git(["worktree", "list"]).trim().split("\n")).toHaveLength(2);
  });

  it("follows worktree = true in the config, and --no-worktree over it", async () => {
    initRepo(lab.world);
    await signIn(lab.world, "claude");
    const config = join(lab.world.root, "config.toml");
    writeFileSync(config, 'check = "exit 1"\n\n[defaults]\nworktree = true\n');
    const run = await inRepo(["delegate", "claude", "--json", "hi"], { SCV_CONFIG: config });
    expect(run.exitCode, run.stderr).toBe(0);
    const [turn] = results(`[${run.stdout}]`);
    expect(turn?.branch).toMatch(/^scv\/claude-/);
    expect(turn?.check).toMatchObject({ status: "fail", exitCode: 1 });
    const plain = await inRepo(["delegate", "--no-worktree", "claude", "--json", "hi"], {
      SCV_CONFIG: config,
    });
    expect(JSON.parse(plain.stdout).branch).toBeNull();
    expect(agentCalls(lab.world).at(-1)?.cwd).toBe(lab.world.project);
  });

  it("conversations rm removes the worktree and its branch", async () => {
    initRepo(lab.world);
    await signIn(lab.world, "claude");
    const run = await inRepo(["delegate", "--worktree", "claude", "--json", "edit"], {
      FAKE_AGENT_MODE: "write:notes.txt",
    });
    const turn = JSON.parse(run.stdout) as { conversation: string; worktree: string };
    const rm = await inRepo(["conversations", "rm", turn.conversation]);
    expect(rm.exitCode, rm.stderr).toBe(0);
    expect(rm.stderr).toMatch(
      new RegExp(
        `scv: removed worktree ${turn.worktree} and branch scv/${turn.conversation} — it held work neither merged nor applied: git branch scv/${turn.conversation} [0-9a-f]{12} brings it back`,
      ),
    );
    expect(existsSync(turn.worktree)).toBe(false);
    expect(git(["branch", "--list", "scv/*"])).toBe("");
    expect(git(["worktree", "list"]).trim().split("\n")).toHaveLength(1);
  });
});
