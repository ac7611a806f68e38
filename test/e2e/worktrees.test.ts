// `--worktree` through the built scv with fake agents that edit files: three agents edit the same
// file differently, each in its own worktree on its own branch, the user's tree untouched until
// `scv apply`; the comparison table and the results' worktree fields; apply of one, a conflict on
// another (the tree unchanged), `--commit`; `-c` continuing in the worktree; the refusals before any
// agent starts; setup; best of N; conversations show and rm.

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { turnResultShape } from "../../src/json-shapes.js";
import { gitIn, initRepo, scvInRepo } from "../helpers/git-repo.js";
import { useLab } from "../helpers/lab.js";
import { agentCalls, conversationRecord, signIn } from "../helpers/scv.js";
import { fileHashes } from "../worktrees/repos.js";

const lab = useLab();

/** scv in the world's project, a git repository with `notes.txt` committed. */
const inRepo = (args: readonly string[], env: Record<string, string> = {}) => scvInRepo(lab.world, args, env);

const git = (args: readonly string[], cwd?: string) => gitIn(lab.world, args, cwd);

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
