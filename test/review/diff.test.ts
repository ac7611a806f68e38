// What a review reads, computed with git's CLI in throwaway repositories (their own HOME and git
// configuration: test/worktrees/repos.ts): each scope's files, their changes and patches as the real
// git writes them, the files a review leaves out as generated, and the user's index and files only
// ever read.

import { createHash } from "node:crypto";
import { chmodSync, readFileSync, symlinkSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { computeDiff, type DiffFile, type ReviewDiff } from "../../src/review/diff.js";
import { createWorktree } from "../../src/worktrees/create.js";
import { branchTip, recordTurn } from "../../src/worktrees/record-turn.js";
import { findRepository } from "../../src/worktrees/repo.js";
import { refused, sameSecondEdit, type World, world } from "../worktrees/repos.js";

function file(diff: ReviewDiff, path: string): DiffFile {
  const found = diff.files.find((each) => each.path === path);
  if (found === undefined)
    throw new Error(`${path} is not in the diff: ${diff.files.map((f) => f.path).join(", ")}`);
  return found;
}

/** What the user's repository holds that a review must not change: the index's bytes and git's view
 * of the tree. */
function userState(w: World): { index: string; status: string } {
  return {
    index: createHash("sha256")
      .update(readFileSync(join(w.repo, ".git", "index")))
      .digest("hex"),
    status: w.git(["status", "--porcelain=v1", "-z", "--untracked-files=all"]),
  };
}

function summary(diff: ReviewDiff) {
  return diff.files.map(({ path, from, status, added, removed, binary, generated }) => ({
    path,
    ...(from === undefined ? {} : { from }),
    status,
    added,
    removed,
    binary,
    ...(generated === undefined ? {} : { generated }),
  }));
}

describe("computeDiff", () => {
  it("reviews the working tree against HEAD by default: untracked files in, ignored ones out, the index untouched", async () => {
    using w = world();
    w.write("a.txt", "alpha\nbeta\n");
    w.write("new.txt", "one\ntwo\n");
    w.write("debug.log", "ignored\n");
    w.write("bin.dat", Buffer.from([0, 9, 9, 0]));
    w.git(["mv", "old-name.txt", "new-name.txt"]);
    w.git(["rm", "-q", "gone.txt"]);
    const lines = w.read("lines.txt").split("\n");
    lines[9] = "line ten, changed";
    w.write("lines.txt", lines.join("\n"));
    const before = userState(w);
    const diff = await computeDiff({ kind: "changes" }, { cwd: w.repo, env: w.env });
    expect(userState(w)).toEqual(before);
    const head = w.git(["rev-parse", "HEAD"]).trim();
    expect(diff).toMatchObject({ scope: "changes", root: w.repo, from: head });
    expect(diff.description).toBe(`the working tree's changes against HEAD (${head.slice(0, 10)})`);
    expect(summary(diff)).toEqual([
      { path: "a.txt", status: "modified", added: 1, removed: 0, binary: false },
      { path: "bin.dat", status: "modified", added: 0, removed: 0, binary: true },
      { path: "gone.txt", status: "deleted", added: 0, removed: 1, binary: false },
      { path: "lines.txt", status: "modified", added: 1, removed: 1, binary: false },
      { path: "new-name.txt", from: "old-name.txt", status: "renamed", added: 0, removed: 0, binary: false },
      { path: "new.txt", status: "added", added: 2, removed: 0, binary: false },
    ]);
    expect(file(diff, "a.txt").patch.replace(/^index \S+ /m, "index … ")).toBe(
      [
        "diff --git a/a.txt b/a.txt",
        "index … 100644",
        "--- a/a.txt",
        "+++ b/a.txt",
        "@@ -1 +1,2 @@",
        " alpha",
        "+beta",
      ].join("\n"),
    );
    // The hunk shows lines 7 to 13 of the new file; a deleted file's are its old lines.
    expect(file(diff, "lines.txt").lines).toEqual([{ start: 7, end: 13 }]);
    expect(file(diff, "gone.txt").lines).toEqual([{ start: 1, end: 1 }]);
    expect(file(diff, "new.txt").lines).toEqual([{ start: 1, end: 2 }]);
  });

  it("sees a change of the same size made in the second the index was written (racily clean)", async () => {
    using w = world();
    sameSecondEdit(w, "a.txt", "ALPHA\n");
    const diff = await computeDiff({ kind: "changes" }, { cwd: w.repo, env: w.env });
    expect(summary(diff)).toEqual([
      { path: "a.txt", status: "modified", added: 1, removed: 1, binary: false },
    ]);
  });

  it("reads the paths git quotes or spells with spaces, and a file become a link as one change", async () => {
    using w = world();
    w.write('we"ird\ttab.txt', "x\n");
    w.write("my bin.dat", Buffer.from([0, 1]));
    w.write("empty file.txt", "");
    w.write("é.txt", "e\n");
    w.git(["add", "-A"]);
    w.git(["commit", "-q", "-m", "names"]);
    w.write('we"ird\ttab.txt', "x\ny\n");
    w.write("my bin.dat", Buffer.from([0, 2]));
    w.write("é.txt", "e\né\n");
    chmodSync(join(w.repo, "empty file.txt"), 0o755);
    unlinkSync(join(w.repo, "a.txt"));
    symlinkSync("lines.txt", join(w.repo, "a.txt"));
    const diff = await computeDiff({ kind: "changes" }, { cwd: w.repo, env: w.env });
    expect(summary(diff)).toEqual([
      { path: "a.txt", status: "modified", added: 1, removed: 1, binary: false },
      { path: "empty file.txt", status: "modified", added: 0, removed: 0, binary: false },
      { path: "my bin.dat", status: "modified", added: 0, removed: 0, binary: true },
      { path: 'we"ird\ttab.txt', status: "modified", added: 1, removed: 0, binary: false },
      { path: "é.txt", status: "modified", added: 1, removed: 0, binary: false },
    ]);
    expect(file(diff, "a.txt").patch).toMatch(
      /deleted file mode 100644[\s\S]*\ndiff --git a\/a.txt b\/a.txt\nnew file mode 120000/,
    );
  });

  it("reviews only what is staged with --staged, from a copy of the index", async () => {
    using w = world();
    w.write("a.txt", "alpha\nstaged\n");
    w.git(["add", "a.txt"]);
    w.write("lines.txt", "not staged\n");
    w.write("untracked.txt", "not staged\n");
    const before = userState(w);
    const diff = await computeDiff({ kind: "staged" }, { cwd: w.repo, env: w.env });
    expect(userState(w)).toEqual(before);
    expect(summary(diff)).toEqual([
      { path: "a.txt", status: "modified", added: 1, removed: 0, binary: false },
    ]);
    expect(diff.description).toMatch(/^the staged changes against HEAD \([0-9a-f]{10}\)$/);
  });

  it("reviews the branch since its merge base with --base, not what the base did since", async () => {
    using w = world();
    w.git(["checkout", "-q", "-b", "feature"]);
    w.write("feature.txt", "feature work\n");
    w.git(["add", "-A"]);
    w.git(["commit", "-q", "-m", "feature"]);
    const fork = w.git(["merge-base", "main", "feature"]).trim();
    w.git(["checkout", "-q", "main"]);
    w.write("main-only.txt", "on main after the fork\n");
    w.git(["add", "-A"]);
    w.git(["commit", "-q", "-m", "main moves on"]);
    w.git(["checkout", "-q", "feature"]);
    w.write("a.txt", "alpha\nuncommitted\n");
    const diff = await computeDiff({ kind: "base", ref: "main" }, { cwd: join(w.repo), env: w.env });
    expect(diff.from).toBe(fork);
    expect(diff.files.map((each) => each.path)).toEqual(["a.txt", "feature.txt"]);
    expect(diff.description).toBe(`the changes since the merge base with main (${fork.slice(0, 10)})`);
  });

  it("reviews one commit against its parent, and a root commit against the empty tree", async () => {
    using w = world();
    w.write("a.txt", "alpha\nsecond\n");
    w.git(["commit", "-q", "-am", "second"]);
    w.write("a.txt", "not committed\n");
    const second = await computeDiff({ kind: "commit", ref: "HEAD" }, { cwd: w.repo, env: w.env });
    expect(summary(second)).toEqual([
      { path: "a.txt", status: "modified", added: 1, removed: 0, binary: false },
    ]);
    expect(second.to).toBe(w.git(["rev-parse", "HEAD"]).trim());
    const root = await computeDiff({ kind: "commit", ref: "HEAD~1" }, { cwd: w.repo, env: w.env });
    expect(root.files.every((each) => each.status === "added")).toBe(true);
    expect(root.files.map((each) => each.path)).toEqual([
      ".gitignore",
      "a.txt",
      "bin.dat",
      "gone.txt",
      "lines.txt",
      "old-name.txt",
    ]);
  });

  it("reviews a conversation's worktree branch against its base, run in the worktree", async () => {
    using w = world();
    const worktree = await createWorktree(await findRepository(w.repo, w.env), {
      handle: "codex-k3f9x2",
      env: w.env,
    });
    const since = await branchTip(worktree, w.env);
    w.write("a.txt", "alpha\nby the agent\n", worktree.dir);
    w.write("added.txt", "new\n", worktree.dir);
    await recordTurn(worktree, { agent: "codex", prompt: "p", since, env: w.env });
    w.write("a.txt", "the user's own change\n");
    const diff = await computeDiff({ kind: "worktree", worktree }, { cwd: "/nonexistent", env: w.env });
    expect(diff.root).toBe(worktree.dir);
    expect(diff.from).toBe(worktree.base);
    expect(summary(diff)).toEqual([
      { path: "a.txt", status: "modified", added: 1, removed: 0, binary: false },
      { path: "added.txt", status: "added", added: 1, removed: 0, binary: false },
    ]);
    expect(diff.description).toMatch(
      /^codex-k3f9x2's worktree branch scv\/codex-k3f9x2 against its base \([0-9a-f]{10}\.\.[0-9a-f]{10}\)$/,
    );
  });

  it("compares against the empty tree in a repository with no commit yet", async () => {
    using w = world({ empty: true });
    w.write("first.txt", "hello\n");
    const diff = await computeDiff({ kind: "changes" }, { cwd: w.repo, env: w.env });
    expect(summary(diff)).toEqual([
      { path: "first.txt", status: "added", added: 1, removed: 0, binary: false },
    ]);
    expect(diff.description).toBe(
      "the working tree's changes against HEAD (no commit yet: every file is new)",
    );
  });

  it("marks generated files: lockfiles, dist/, minified, and .gitattributes' linguist-generated either way", async () => {
    using w = world();
    w.write(".gitattributes", "schema/*.ts linguist-generated\ndist/keep.js -linguist-generated\n");
    w.write("package-lock.json", '{"lockfileVersion": 3}\n');
    w.write("web/dist/app.js", "console.log(1);\n");
    w.write("dist/keep.js", "kept\n");
    w.write("schema/types.ts", "export type A = 1;\n");
    w.write("vendor/lib.min.js", "x\n");
    w.write("vendor/bundle.js", `${"var a=1;".repeat(20)}\n`);
    w.write("src/code.js", "const a = 1;\n");
    const diff = await computeDiff({ kind: "changes" }, { cwd: w.repo, env: w.env });
    const generated = Object.fromEntries(diff.files.map((each) => [each.path, each.generated ?? null]));
    expect(generated).toEqual({
      ".gitattributes": null,
      "dist/keep.js": null,
      "package-lock.json": "lockfile",
      "schema/types.ts": "linguist-generated in .gitattributes",
      "src/code.js": null,
      "vendor/bundle.js": "minified",
      "vendor/lib.min.js": "minified",
      "web/dist/app.js": "under dist/",
    });
  });

  it("refuses, in one line, a scope that names nothing to review", async () => {
    using w = world();
    expect(
      (await refused(computeDiff({ kind: "base", ref: "nope" }, { cwd: w.repo, env: w.env }))).message,
    ).toBe(`--base 'nope' names no commit in ${w.repo} — give a branch, tag or commit`);
    expect(
      (await refused(computeDiff({ kind: "base", ref: "--output=x" }, { cwd: w.repo, env: w.env }))).code,
    ).toBe("USAGE");
    expect(
      (await refused(computeDiff({ kind: "commit", ref: "nope" }, { cwd: w.repo, env: w.env }))).message,
    ).toBe(`--commit 'nope' names no commit in ${w.repo} — give a commit`);
    w.git(["checkout", "-q", "--orphan", "other"]);
    w.git(["commit", "-q", "-m", "unrelated"]);
    expect(
      (await refused(computeDiff({ kind: "base", ref: "main" }, { cwd: w.repo, env: w.env }))).message,
    ).toBe(
      `'main' and HEAD share no history in ${w.repo}, so there is no merge base to review from — give another --base`,
    );
    expect((await refused(computeDiff({ kind: "changes" }, { cwd: w.dir, env: w.env }))).message).toMatch(
      /is not in a git repository/,
    );
  });
});
