// Making a conversation's worktree: where, with what permissions, from which base, what is refused,
// and the user's uncommitted changes carried in (tracked, untracked, binary, renamed, deleted; never
// ignored files).

import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT } from "../../src/errors.js";
import { createWorktree } from "../../src/worktrees/create.js";
import { findRepository } from "../../src/worktrees/repo.js";
import { fileHashes, refused, sameSecondEdit, world } from "./repos.js";

const HANDLE = "codex-k3f9x2";

describe("createWorktree", () => {
  it("makes scv/<handle> from HEAD in $SCV_HOME/worktrees/<repo-id>/<handle>, 0700, without running hooks", async () => {
    using w = world();
    // A post-checkout hook that would leave a mark: `git worktree add` runs it.
    w.write(".git/hooks/post-checkout", `#!/bin/sh\ntouch ${join(w.dir, "hook-ran")}\n`);
    chmodSync(join(w.repo, ".git/hooks/post-checkout"), 0o755);
    const repo = await findRepository(w.repo, w.env);
    const head = w.git(["rev-parse", "HEAD"]).trim();
    const made = await createWorktree(repo, { handle: HANDLE, env: w.env, now: () => new Date(0) });
    const expected = join(w.env.SCV_HOME as string, "worktrees", repo.id, HANDLE);
    expect(made).toEqual({
      handle: HANDLE,
      repoRoot: w.repo,
      commonDir: join(w.repo, ".git"),
      repoId: repo.id,
      dir: expected,
      branch: `scv/${HANDLE}`,
      baseRef: "HEAD",
      forkedFrom: head,
      base: head,
      carried: false,
      createdAt: "1970-01-01T00:00:00.000Z",
    });
    for (const folder of [
      join(w.env.SCV_HOME as string, "worktrees"),
      join(w.env.SCV_HOME as string, "worktrees", repo.id),
      expected,
    ]) {
      expect(lstatSync(folder).mode & 0o777).toBe(0o700);
    }
    expect(w.git(["rev-parse", `scv/${HANDLE}`]).trim()).toBe(head);
    expect(w.git(["rev-parse", "--abbrev-ref", "HEAD"], expected).trim()).toBe(`scv/${HANDLE}`);
    expect(w.read("a.txt", expected)).toBe("alpha\n");
    expect(existsSync(join(w.dir, "hook-ran"))).toBe(false);
    // The user's tree is as it was.
    expect(w.git(["status", "--porcelain"])).toBe("");
  });

  it("starts from a given base, and refuses one that names nothing before making anything", async () => {
    using w = world();
    const first = w.git(["rev-parse", "HEAD"]).trim();
    w.git(["tag", "v1"]);
    w.write("a.txt", "beta\n");
    w.git(["commit", "-qam", "second"]);
    const repo = await findRepository(w.repo, w.env);
    const made = await createWorktree(repo, { handle: HANDLE, base: "v1", env: w.env });
    expect(made.baseRef).toBe("v1");
    expect(made.base).toBe(first);
    expect(w.read("a.txt", made.dir)).toBe("alpha\n");
    const error = await refused(createWorktree(repo, { handle: "claude-aaaaaa", base: "nope", env: w.env }));
    expect(error.exitCode).toBe(EXIT.usage);
    expect(existsSync(join(w.env.SCV_HOME as string, "worktrees", repo.id, "claude-aaaaaa"))).toBe(false);
    expect(w.git(["branch", "--list", "scv/claude-aaaaaa"])).toBe("");
  });

  it("refuses a bad handle, a branch that exists, and a folder already there", async () => {
    using w = world();
    const repo = await findRepository(w.repo, w.env);
    expect((await refused(createWorktree(repo, { handle: "../x", env: w.env }))).exitCode).toBe(EXIT.usage);
    w.git(["branch", `scv/${HANDLE}`]);
    expect((await refused(createWorktree(repo, { handle: HANDLE, env: w.env }))).message).toBe(
      `the branch scv/${HANDLE} already exists in ${w.repo} — remove it (git branch -D scv/${HANDLE}) or continue that conversation`,
    );
    const taken = join(w.env.SCV_HOME as string, "worktrees", repo.id, "gemini-bbbbbb");
    mkdirSync(taken, { recursive: true });
    expect((await refused(createWorktree(repo, { handle: "gemini-bbbbbb", env: w.env }))).message).toMatch(
      /already exists, so scv will not make gemini-bbbbbb's worktree there/,
    );
    expect(w.git(["branch", "--list", "scv/gemini-bbbbbb"])).toBe("");
  });

  it("refuses a symbolic link or another user's folder on the way", async () => {
    using w = world();
    const repo = await findRepository(w.repo, w.env);
    const home = w.env.SCV_HOME as string;
    mkdirSync(home, { recursive: true });
    const elsewhere = join(w.dir, "elsewhere");
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(home, "worktrees"));
    expect((await refused(createWorktree(repo, { handle: HANDLE, env: w.env }))).message).toMatch(
      /worktrees is a symbolic link, and scv never follows one inside its home/,
    );
    expect(w.git(["branch", "--list", `scv/${HANDLE}`])).toBe("");
    if (process.getuid?.() !== 0) return;
    using v = world();
    const other = await findRepository(v.repo, v.env);
    const folder = join(v.env.SCV_HOME as string, "worktrees", other.id);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    chownSync(folder, 12345, 12345);
    expect((await refused(createWorktree(other, { handle: HANDLE, env: v.env }))).message).toBe(
      `${folder} belongs to another user, so scv will not put a worktree there — remove it (or set worktree_dir to a folder you own) and run scv again`,
    );
  });

  it("makes the worktrees of a best-of-N fan-out at once, each on its own branch", async () => {
    using w = world();
    w.write("a.txt", "uncommitted\n");
    const repo = await findRepository(w.repo, w.env);
    const handles = ["codex-aaaaa1", "codex-aaaaa2", "claude-aaaaa3", "claude-aaaaa4"];
    const made = await Promise.all(
      handles.map((handle) => createWorktree(repo, { handle, withChanges: true, env: w.env })),
    );
    expect(new Set(made.map((each) => each.dir)).size).toBe(4);
    for (const each of made) expect(w.read("a.txt", each.dir)).toBe("uncommitted\n");
    expect(w.git(["branch", "--list", "scv/*"]).trim().split("\n")).toHaveLength(4);
  });

  it("puts it under worktree_dir, relative to the repository, when the config says so", async () => {
    using w = world();
    const repo = await findRepository(w.repo, w.env);
    const made = await createWorktree(repo, { handle: HANDLE, worktreeDir: ".worktrees", env: w.env });
    expect(made.dir).toBe(join(w.repo, ".worktrees", HANDLE));
    expect(lstatSync(made.dir).mode & 0o777).toBe(0o700);
    expect(w.read("a.txt", made.dir)).toBe("alpha\n");
  });
});

describe("createWorktree withChanges", () => {
  /** Modified (text and binary), renamed, deleted, untracked and ignored files in the user's tree. */
  function dirty(w: ReturnType<typeof world>): void {
    w.write("a.txt", "alpha, edited\n");
    w.write("bin.dat", Buffer.from([9, 8, 7, 0, 255, 0]));
    w.git(["mv", "old-name.txt", "new-name.txt"]);
    w.git(["rm", "-q", "gone.txt"]);
    w.write("untracked/new.txt", "brand new\n");
    w.write("debug.log", "ignored\n");
    w.write("staged.txt", "staged only\n");
    w.git(["add", "staged.txt"]);
  }

  it("carries tracked and untracked changes, not ignored files, as one commit on the base", async () => {
    using w = world();
    dirty(w);
    const before = { status: w.git(["status", "--porcelain"]), files: fileHashes(w.repo) };
    const index = readFileSync(join(w.repo, ".git", "index"));
    const repo = await findRepository(w.repo, w.env);
    const head = w.git(["rev-parse", "HEAD"]).trim();
    const made = await createWorktree(repo, { handle: HANDLE, withChanges: true, env: w.env });
    expect(made.carried).toBe(true);
    expect(made.forkedFrom).toBe(head);
    expect(made.base).not.toBe(head);
    expect(w.git(["rev-parse", `${made.base}^`]).trim()).toBe(head);
    expect(w.git(["log", "-1", "--format=%an <%ae>", made.base]).trim()).toBe("scv <scv>");
    const inside = fileHashes(made.dir);
    for (const path of ["a.txt", "bin.dat", "new-name.txt", "untracked/new.txt", "staged.txt", "lines.txt"]) {
      expect(inside[path], path).toBe(before.files[path]);
    }
    expect(inside["old-name.txt"]).toBeUndefined();
    expect(inside["gone.txt"]).toBeUndefined();
    expect(inside["debug.log"]).toBeUndefined();
    expect(w.git(["status", "--porcelain"], made.dir)).toBe("");
    // The user's tree, index included, is untouched.
    expect(w.git(["status", "--porcelain"])).toBe(before.status);
    expect(fileHashes(w.repo)).toEqual(before.files);
    expect(readFileSync(join(w.repo, ".git", "index")).equals(index)).toBe(true);
  });

  it("carries a change of the same size made in the second the index was written (racily clean)", async () => {
    using w = world();
    sameSecondEdit(w, "a.txt", "ALPHA\n");
    const made = await createWorktree(await findRepository(w.repo, w.env), {
      handle: HANDLE,
      withChanges: true,
      env: w.env,
    });
    expect(made.carried).toBe(true);
    expect(w.read("a.txt", made.dir)).toBe("ALPHA\n");
  });

  it("starts from the base itself when there is nothing to carry", async () => {
    using w = world();
    w.write("debug.log", "ignored only\n");
    const repo = await findRepository(w.repo, w.env);
    const made = await createWorktree(repo, { handle: HANDLE, withChanges: true, env: w.env });
    expect(made.carried).toBe(false);
    expect(made.base).toBe(made.forkedFrom);
  });

  it("moves the changes onto another base three-way, and refuses them when they conflict there", async () => {
    using w = world();
    const first = w.git(["rev-parse", "HEAD"]).trim();
    w.write("lines.txt", w.read("lines.txt").replace("line 30", "line 30, later"));
    w.git(["commit", "-qam", "later"]);
    // Uncommitted: an edit at the top of lines.txt, which also applies on the first commit.
    w.write("lines.txt", w.read("lines.txt").replace("line 1\n", "line 1, mine\n"));
    w.write("extra.txt", "extra\n");
    const repo = await findRepository(w.repo, w.env);
    const made = await createWorktree(repo, { handle: HANDLE, base: first, withChanges: true, env: w.env });
    expect(made.forkedFrom).toBe(first);
    const lines = w.read("lines.txt", made.dir);
    expect(lines).toContain("line 1, mine\n");
    expect(lines).not.toContain("line 30, later");
    expect(w.read("extra.txt", made.dir)).toBe("extra\n");
    // An edit of the very line the base changed does not apply there.
    w.write("lines.txt", w.read("lines.txt").replace("line 30, later", "line 30, mine"));
    const error = await refused(
      createWorktree(repo, { handle: "claude-cccccc", base: first, withChanges: true, env: w.env }),
    );
    expect(error.exitCode).toBe(EXIT.usage);
    expect(error.message).toBe(
      "your uncommitted changes do not apply on the base (conflicts in lines.txt) — commit or stash them, or start from HEAD",
    );
    expect(w.git(["branch", "--list", "scv/claude-cccccc"])).toBe("");
  });

  it("does not carry a worktree folder inside the repository", async () => {
    using w = world();
    const repo = await findRepository(w.repo, w.env);
    await createWorktree(repo, { handle: HANDLE, worktreeDir: "trees", env: w.env });
    writeFileSync(join(w.repo, "a.txt"), "changed\n");
    const made = await createWorktree(repo, {
      handle: "claude-dddddd",
      worktreeDir: "trees",
      withChanges: true,
      env: w.env,
    });
    expect(w.git(["ls-tree", "-r", "--name-only", made.base]).split("\n")).not.toContain(`trees/${HANDLE}`);
    expect(w.read("a.txt", made.dir)).toBe("changed\n");
  });
});
