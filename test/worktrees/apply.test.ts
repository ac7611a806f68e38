// Applying a branch to the user's tree: three-way onto a tree that moved on; a conflict leaves the
// tree byte-identical (status, every file, the index file); --keep-conflicts; --commit; refusals
// when the user's uncommitted work is in the way.

import { execFileSync } from "node:child_process";
import { chmodSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT } from "../../src/errors.js";
import { applyWorktree } from "../../src/worktrees/apply.js";
import { createWorktree } from "../../src/worktrees/create.js";
import { GIT_TOO_OLD } from "../../src/worktrees/patch.js";
import type { Worktree } from "../../src/worktrees/record.js";
import { branchTip, recordTurn } from "../../src/worktrees/record-turn.js";
import { findRepository } from "../../src/worktrees/repo.js";
import { fileHashes, refused, type World, world } from "./repos.js";

const HANDLE = "codex-k3f9x2";

/** A worktree whose branch holds one turn made by `work`. */
async function turn(
  w: World,
  work: (dir: string) => void,
  options: { withChanges?: boolean } = {},
): Promise<Worktree> {
  const repo = await findRepository(w.repo, w.env);
  const worktree = await createWorktree(repo, { handle: HANDLE, env: w.env, ...options });
  const since = await branchTip(worktree, w.env);
  work(worktree.dir);
  await recordTurn(worktree, { agent: "codex", prompt: "do it", since, env: w.env });
  return worktree;
}

/** Everything a user could see of their tree: status, every file's bytes, the index file. */
function snapshot(w: World) {
  return {
    status: w.git(["--no-optional-locks", "status", "--porcelain", "--untracked-files=all"]),
    files: fileHashes(w.repo),
    index: readFileSync(join(w.repo, ".git", "index")).toString("base64"),
    head: w.git(["rev-parse", "HEAD"]),
  };
}

const edit = (w: World, path: string, from: string, to: string, root = w.repo) =>
  w.write(path, w.read(path, root).replace(from, to), root);

describe("applyWorktree", () => {
  it("applies onto a tree that moved on, uncommitted, and leaves the user's index alone", async () => {
    using w = world();
    const worktree = await turn(w, (dir) => {
      edit(w, "lines.txt", "line 2\n", "line 2, agent\n", dir);
      w.write("added/new.txt", "new\n", dir);
      rmSync(join(dir, "gone.txt"));
      w.write("bin.dat", Buffer.from([5, 0, 6]), dir);
    });
    // The user moved on: a commit touching the same file further down, and another file.
    edit(w, "lines.txt", "line 29\n", "line 29, user\n");
    w.write("a.txt", "alpha, user\n");
    w.git(["commit", "-qam", "user moved on"]);
    // And has unrelated uncommitted work, staged and not.
    w.write("mine.txt", "mine\n");
    w.write("a.txt", "alpha, user, uncommitted\n");
    const index = readFileSync(join(w.repo, ".git", "index"));
    const outcome = await applyWorktree(worktree, { env: w.env });
    expect(outcome).toEqual({
      kind: "applied",
      tip: w.git(["rev-parse", `scv/${HANDLE}`]).trim(),
      paths: ["added/new.txt", "bin.dat", "gone.txt", "lines.txt"],
      commit: null,
    });
    const lines = w.read("lines.txt");
    expect(lines).toContain("line 2, agent\n");
    expect(lines).toContain("line 29, user\n");
    expect(w.read("added/new.txt")).toBe("new\n");
    expect(readFileSync(join(w.repo, "bin.dat"))).toEqual(Buffer.from([5, 0, 6]));
    expect(() => w.read("gone.txt")).toThrow();
    expect(w.read("a.txt")).toBe("alpha, user, uncommitted\n");
    expect(w.read("mine.txt")).toBe("mine\n");
    expect(readFileSync(join(w.repo, ".git", "index")).equals(index)).toBe(true);
  });

  it("leaves the tree byte-identical on a conflict, and lists it", async () => {
    using w = world();
    const worktree = await turn(w, (dir) => {
      edit(w, "lines.txt", "line 5\n", "line 5, agent\n", dir);
      w.write("clean.txt", "would apply\n", dir);
    });
    edit(w, "lines.txt", "line 5\n", "line 5, user\n");
    w.git(["commit", "-qam", "conflicting"]);
    w.write("untracked.txt", "the user's\n");
    w.write("a.txt", "alpha, uncommitted\n");
    const before = snapshot(w);
    const outcome = await applyWorktree(worktree, { env: w.env });
    expect(outcome).toMatchObject({ kind: "conflicts", paths: ["lines.txt"], kept: false });
    expect(snapshot(w)).toEqual(before);
  });

  it("leaves git's conflict markers and unmerged entries with keepConflicts", async () => {
    using w = world();
    const worktree = await turn(w, (dir) => edit(w, "lines.txt", "line 5\n", "line 5, agent\n", dir));
    edit(w, "lines.txt", "line 5\n", "line 5, user\n");
    w.git(["commit", "-qam", "conflicting"]);
    const outcome = await applyWorktree(worktree, { env: w.env, keepConflicts: true });
    expect(outcome).toMatchObject({ kind: "conflicts", paths: ["lines.txt"], kept: true });
    expect(w.read("lines.txt")).toMatch(
      /<<<<<<< ours\nline 5, user\n=======\nline 5, agent\n>>>>>>> theirs\n/,
    );
    expect(w.git(["status", "--porcelain"])).toContain("UU lines.txt");
  });

  it("commits on the user's branch with commit, as scv <agent> committed by the user, without their hooks", async () => {
    using w = world();
    const worktree = await turn(w, (dir) => {
      edit(w, "lines.txt", "line 2\n", "line 2, agent\n", dir);
      w.write("added.txt", "added\n", dir);
      rmSync(join(dir, "gone.txt"));
    });
    w.write("a.txt", "alpha, uncommitted\n");
    w.write("staged.txt", "staged\n");
    w.git(["add", "staged.txt"]);
    w.write(".git/hooks/pre-commit", "#!/bin/sh\nexit 1\n");
    const head = w.git(["rev-parse", "HEAD"]).trim();
    const outcome = await applyWorktree(worktree, {
      env: w.env,
      commit: { message: `${HANDLE}: do it\n`, agent: "codex" },
    });
    expect(outcome.kind).toBe("applied");
    const commit = outcome.kind === "applied" ? outcome.commit : null;
    expect(w.git(["rev-parse", "HEAD"]).trim()).toBe(commit);
    expect(w.git(["rev-parse", "main"]).trim()).toBe(commit);
    expect(w.git(["rev-parse", "HEAD^"]).trim()).toBe(head);
    expect(w.git(["log", "-1", "--format=%an <%ae>|%cn <%ce>|%s"]).trim()).toBe(
      `scv <codex>|Test User <test@example.com>|${HANDLE}: do it`,
    );
    expect(w.git(["show", "--name-status", "--format=", "HEAD"]).trim().split("\n").sort()).toEqual([
      "A\tadded.txt",
      "D\tgone.txt",
      "M\tlines.txt",
    ]);
    // The user's own work stays as it was: uncommitted, and staged.
    expect(w.git(["status", "--porcelain"]).split("\n").filter(Boolean).sort()).toEqual([
      " M a.txt",
      "A  staged.txt",
    ]);
  });

  it("refuses, writing nothing, when the user's uncommitted changes are in the way", async () => {
    using w = world();
    const worktree = await turn(w, (dir) => {
      edit(w, "lines.txt", "line 2\n", "line 2, agent\n", dir);
      w.write("new.txt", "the agent's\n", dir);
    });
    edit(w, "lines.txt", "line 20\n", "line 20, uncommitted\n");
    let before = snapshot(w);
    const error = await refused(applyWorktree(worktree, { env: w.env }));
    expect(error.exitCode).toBe(EXIT.usage);
    expect(error.message).toBe(
      `your uncommitted changes in ${w.repo} are in the way of scv/${HANDLE} (lines.txt) — commit or stash them, then run scv apply again`,
    );
    expect(snapshot(w)).toEqual(before);
    // An untracked file, or an ignored one, where the change adds a file.
    w.git(["checkout", "--", "lines.txt"]);
    w.write("new.txt", "the user's\n");
    expect((await refused(applyWorktree(worktree, { env: w.env }))).message).toMatch(/\(new\.txt\)/);
    rmSync(join(w.repo, "new.txt"));
    w.write(".gitignore", "*.log\nnew.txt\n");
    w.git(["commit", "-qam", "ignore new.txt"]);
    w.write("new.txt", "ignored, but the user's\n");
    before = snapshot(w);
    expect((await refused(applyWorktree(worktree, { env: w.env }))).message).toMatch(/\(new\.txt\)/);
    expect(snapshot(w)).toEqual(before);
  });

  it("refuses a file of the user's where the change puts a folder", async () => {
    using w = world();
    const worktree = await turn(w, (dir) => w.write("tools/run.sh", "echo\n", dir));
    w.write("tools", "a file of the user's\n");
    expect((await refused(applyWorktree(worktree, { env: w.env }))).message).toMatch(/\(tools\)/);
    expect(w.read("tools")).toBe("a file of the user's\n");
  });

  it("follows a rename onto a file the user changed since, and turns a file into a folder", async () => {
    using w = world();
    const worktree = await turn(w, (dir) => {
      w.write("renamed.txt", `${w.read("old-name.txt", dir)}one more line\n`, dir);
      rmSync(join(dir, "old-name.txt"));
      rmSync(join(dir, "gone.txt"));
      w.write("gone.txt/inside.txt", "a folder now\n", dir);
    });
    w.write("old-name.txt", `first line by the user\n${w.read("old-name.txt")}`);
    w.git(["commit", "-qam", "user edits the file the agent renames"]);
    const outcome = await applyWorktree(worktree, { env: w.env });
    expect(outcome.kind).toBe("applied");
    expect(w.read("renamed.txt")).toMatch(/^first line by the user\n[\s\S]*one more line\n$/);
    expect(() => w.read("old-name.txt")).toThrow();
    expect(w.read("gone.txt/inside.txt")).toBe("a folder now\n");
  });

  it("applies over the user's carried changes, which are exactly the branch's base", async () => {
    using w = world();
    edit(w, "lines.txt", "line 1\n", "line 1, work in progress\n");
    w.write("wip.txt", "untracked work\n");
    const worktree = await turn(
      w,
      (dir) => {
        edit(w, "lines.txt", "line 3\n", "line 3, agent\n", dir);
        w.write("wip.txt", "untracked work, finished by the agent\n", dir);
      },
      { withChanges: true },
    );
    const outcome = await applyWorktree(worktree, { env: w.env });
    expect(outcome.kind).toBe("applied");
    expect(w.read("lines.txt")).toContain("line 1, work in progress\nline 2\nline 3, agent\n");
    expect(w.read("wip.txt")).toBe("untracked work, finished by the agent\n");
  });

  it("has nothing to do for a branch without changes", async () => {
    using w = world();
    const worktree = await turn(w, () => {});
    expect(await applyWorktree(worktree, { env: w.env })).toEqual({
      kind: "nothing",
      tip: w.git(["rev-parse", "HEAD"]).trim(),
    });
  });

  it("says in one line that a git older than 2.32 cannot apply", async () => {
    using w = world();
    const worktree = await turn(w, (dir) => w.write("new.txt", "new\n", dir));
    // git 2.31's answer to `apply --cached --3way`, from a git that otherwise is this one.
    const bin = join(w.dir, "old-git");
    const real = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
    w.write(
      "git",
      `#!/bin/sh\ncase "$*" in *"--cached --3way"*) echo "error: --cached and --3way cannot be used together." >&2; exit 128;; esac\nexec ${real} "$@"\n`,
      bin,
    );
    chmodSync(join(bin, "git"), 0o755);
    const error = await refused(applyWorktree(worktree, { env: { ...w.env, PATH: `${bin}:${w.env.PATH}` } }));
    expect(error.exitCode).toBe(EXIT.usage);
    expect(error.message).toBe(GIT_TOO_OLD);
    expect(() => w.read("new.txt")).toThrow();
  });
});
