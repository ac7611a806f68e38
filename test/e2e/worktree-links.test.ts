// What a fresh checkout lacks — the ignored node_modules, a .env — linked into each new worktree
// from the user's repository (`worktree_links` in scv's config): the agent and the check see them,
// the branch never holds them, and removing the worktree never removes what they point at. A path
// git tracks is refused before any agent starts.

import { existsSync, lstatSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { gitEnv, gitIn, initRepo } from "../helpers/git-repo.js";
import { useLab } from "../helpers/lab.js";
import { agentCalls, scv, signIn } from "../helpers/scv.js";

const lab = useLab();

const git = (args: readonly string[], cwd?: string) => gitIn(lab.world, args, cwd);

/** A repository whose .gitignore leaves out node_modules/ (a folder-only pattern, which a link of
 * that name would not match) and .env, both there in the user's tree. */
function repoWithIgnored(): void {
  initRepo(lab.world);
  const project = lab.world.project;
  writeFileSync(join(project, ".gitignore"), "*.log\nnode_modules/\n.env\n");
  git(["add", ".gitignore"]);
  git(["commit", "-q", "-m", "ignore"]);
  mkdirSync(join(project, "node_modules", "dep"), { recursive: true });
  writeFileSync(join(project, "node_modules", "dep", "index.js"), "module.exports = 1;\n");
  writeFileSync(join(project, ".env"), "TOKEN=canary-not-for-the-branch\n");
}

function configure(lines: string): Record<string, string> {
  const config = join(lab.world.root, "config.toml");
  writeFileSync(config, lines);
  return { ...gitEnv(lab.world), SCV_CONFIG: config };
}

describe("worktree_links", () => {
  it("links what git ignores into each worktree: the check sees it, the branch never holds it, rm leaves it", async () => {
    repoWithIgnored();
    await signIn(lab.world, "claude");
    const env = configure('worktree_links = ["node_modules", ".env", "vendor/cache"]\n');
    const run = await scv(
      lab.world,
      [
        "delegate",
        "--worktree",
        "claude",
        "--check",
        "test -f node_modules/dep/index.js && grep -q TOKEN .env",
        "--json",
        "edit notes",
      ],
      { env: { ...env, FAKE_AGENT_MODE: "write:notes.txt" } },
    );
    expect(run.exitCode, run.stderr).toBe(0);
    const turn = JSON.parse(run.stdout) as {
      conversation: string;
      worktree: string;
      branch: string;
      check: { status: string; tail: string[] };
      diffstat: { paths: { path: string }[] };
    };
    expect(turn.check.status, turn.check.tail.join("\n")).toBe("pass");
    // A link, to the user's own folder; one that is not there is said and skipped.
    expect(lstatSync(join(turn.worktree, "node_modules")).isSymbolicLink()).toBe(true);
    expect(run.stderr).toContain(`vendor/cache is not in ${lab.world.project} — not linked`);
    // The turn's commit holds the agent's edit only.
    expect(turn.diffstat.paths.map((each) => each.path)).toEqual(["notes.txt"]);
    expect(git(["ls-tree", "-r", "--name-only", turn.branch]).split("\n")).not.toContain("node_modules");
    expect(git(["ls-tree", "-r", "--name-only", turn.branch])).not.toContain(".env");

    // -c: a second turn there commits nothing of the links either.
    const next = await scv(lab.world, ["delegate", "-c", turn.conversation, "--json", "more"], {
      env: { ...env, FAKE_AGENT_MODE: "write:more.txt" },
    });
    expect(next.exitCode, next.stderr).toBe(0);
    expect((JSON.parse(next.stdout) as { diffstat: { paths: { path: string }[] } }).diffstat.paths).toEqual([
      expect.objectContaining({ path: "more.txt" }),
    ]);

    const removed = await scv(lab.world, ["conversations", "rm", turn.conversation], { env });
    expect(removed.exitCode, removed.stderr).toBe(0);
    expect(existsSync(turn.worktree)).toBe(false);
    // What the links pointed at is the user's, and stays.
    expect(readFileSync(join(lab.world.project, "node_modules", "dep", "index.js"), "utf8")).toBe(
      "module.exports = 1;\n",
    );
    expect(existsSync(join(lab.world.project, ".env"))).toBe(true);
  });

  it("refuses a path git tracks, or one outside the repository, before any agent starts", async () => {
    repoWithIgnored();
    await signIn(lab.world, "claude");
    const tracked = await scv(lab.world, ["delegate", "--worktree", "claude", "hi"], {
      env: configure('worktree_links = ["notes.txt"]\n'),
    });
    expect(tracked.exitCode).toBe(2);
    expect(tracked.stderr).toMatch(
      /^scv: worktree_links: notes\.txt is in the checkout \(git tracks it, or --with-changes carried it\)/,
    );
    expect(tracked.stderr.trim().split("\n")).toHaveLength(1);
    const outside = await scv(lab.world, ["delegate", "--worktree", "claude", "hi"], {
      env: configure('worktree_links = ["../elsewhere"]\n'),
    });
    expect(outside.exitCode).toBe(2);
    expect(outside.stderr).toContain("worktree_links: '../elsewhere'");
    expect(agentCalls(lab.world)).toEqual([]);
    expect(git(["branch", "--list", "scv/*"])).toBe("");
  });
});
