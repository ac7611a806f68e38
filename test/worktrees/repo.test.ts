// Finding the project a worktree is made from, and each refusal as one line with exit 2.

import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT } from "../../src/errors.js";
import { GIT_MISSING, gitArgv, gitComplaint, gitEnvironment } from "../../src/worktrees/git.js";
import { findRepository, repositoryId, resolveBase } from "../../src/worktrees/repo.js";
import { refused, world } from "./repos.js";

describe("findRepository", () => {
  it("finds the top level and common directory from a subfolder, with a stable id", async () => {
    using w = world();
    mkdirSync(join(w.repo, "src", "deep"), { recursive: true });
    const repo = await findRepository(join(w.repo, "src", "deep"), w.env);
    expect(repo.root).toBe(w.repo);
    expect(repo.commonDir).toBe(join(w.repo, ".git"));
    expect(repo.id).toMatch(/^project-[0-9a-f]{8}$/);
    expect((await findRepository(w.repo, w.env)).id).toBe(repo.id);
  });

  it("gives a linked worktree its own top level and the repository's id", async () => {
    using w = world();
    const linked = join(w.dir, "linked");
    w.git(["worktree", "add", "-q", linked, "-b", "other"]);
    const main = await findRepository(w.repo, w.env);
    const other = await findRepository(linked, w.env);
    expect(other.root).toBe(linked);
    expect(other.commonDir).toBe(main.commonDir);
    expect(other.id).toBe(main.id);
  });

  it("refuses a folder outside any repository", async () => {
    using w = world();
    const outside = join(w.dir, "home");
    const error = await refused(findRepository(outside, { ...w.env, GIT_CEILING_DIRECTORIES: w.dir }));
    expect(error.exitCode).toBe(EXIT.usage);
    expect(error.message).toBe(
      `${outside} is not in a git repository — a worktree needs one: run git init there (and commit once), or pass -C <a folder of a repository>`,
    );
  });

  it("refuses a bare repository, the inside of .git, and a folder that is not there", async () => {
    using w = world();
    const bare = join(w.dir, "bare.git");
    w.git(["clone", "-q", "--bare", w.repo, bare], w.dir);
    expect((await refused(findRepository(bare, w.env))).message).toBe(
      `${bare} is a bare git repository: it has no working tree to branch from — clone it, or pass -C <a checkout of it>`,
    );
    const inside = join(w.repo, ".git");
    expect((await refused(findRepository(inside, w.env))).message).toMatch(/is inside a git directory/);
    const missing = join(w.dir, "nowhere");
    const error = await refused(findRepository(missing, w.env));
    expect(error.exitCode).toBe(EXIT.usage);
    expect(error.message).toBe(`${missing} is not a folder — pass -C <a folder of a git repository>`);
  });

  it("says what to install when git is missing", async () => {
    using w = world();
    // A PATH holding everything but git: node is not needed, only the folder.
    const empty = join(w.dir, "no-git-bin");
    mkdirSync(empty);
    symlinkSync("/bin/sh", join(empty, "sh"));
    const error = await refused(findRepository(w.repo, { ...w.env, PATH: empty }));
    expect(error.exitCode).toBe(EXIT.usage);
    expect(error.message).toBe(GIT_MISSING);
  });

  it("ignores a GIT_DIR it inherited: the folder decides", async () => {
    using w = world();
    const other = world();
    try {
      const repo = await findRepository(w.repo, { ...w.env, GIT_DIR: join(other.repo, ".git") });
      expect(repo.root).toBe(w.repo);
    } finally {
      other[Symbol.dispose]();
    }
  });
});

describe("resolveBase", () => {
  it("resolves HEAD, a branch, a tag and a short sha to the full commit", async () => {
    using w = world();
    const repo = await findRepository(w.repo, w.env);
    const head = w.git(["rev-parse", "HEAD"]).trim();
    w.git(["tag", "-a", "v1", "-m", "v1"]);
    w.git(["branch", "feature"]);
    expect(await resolveBase(repo, undefined, w.env)).toBe(head);
    expect(await resolveBase(repo, "feature", w.env)).toBe(head);
    expect(await resolveBase(repo, "v1", w.env)).toBe(head);
    expect(await resolveBase(repo, head.slice(0, 8), w.env)).toBe(head);
  });

  it("refuses a base that names no commit, an option, and a repository without a commit", async () => {
    using w = world();
    const repo = await findRepository(w.repo, w.env);
    const error = await refused(resolveBase(repo, "no-such-branch", w.env));
    expect(error.exitCode).toBe(EXIT.usage);
    expect(error.message).toBe(
      `--base 'no-such-branch' names no commit in ${w.repo} — give a branch, tag or commit (git log --oneline --all lists them)`,
    );
    expect((await refused(resolveBase(repo, "--output=/tmp/x", w.env))).message).toMatch(
      /is not a git revision/,
    );
    using empty = world({ empty: true });
    const unborn = await findRepository(empty.repo, empty.env);
    expect((await refused(resolveBase(unborn, undefined, empty.env))).message).toMatch(/has no commit yet/);
  });
});

describe("pure parts", () => {
  it("names a repository by its project and a hash of its path", () => {
    expect(repositoryId("/home/u/app/.git")).toMatch(/^app-[0-9a-f]{8}$/);
    expect(repositoryId("/srv/git/app.git")).toMatch(/^app-[0-9a-f]{8}$/);
    expect(repositoryId("/home/u/app/.git")).not.toBe(repositoryId("/home/v/app/.git"));
    expect(repositoryId("/x/we ird:na*me/.git")).toMatch(/^we_ird_na_me-[0-9a-f]{8}$/);
    expect(repositoryId("/x/.../.git")).toMatch(/^repo-[0-9a-f]{8}$/);
  });

  it("runs git without the locating variables, hooks or signing", () => {
    const env = gitEnvironment({ GIT_DIR: "/x", GIT_INDEX_FILE: "/y", GIT_WORK_TREE: "/z", PATH: "/bin" });
    expect(env).toEqual({ PATH: "/bin", GIT_TERMINAL_PROMPT: "0", GIT_OPTIONAL_LOCKS: "0" });
    expect(gitEnvironment({}, { index: "/tmp/i", literalPaths: true })).toMatchObject({
      GIT_INDEX_FILE: "/tmp/i",
      GIT_LITERAL_PATHSPECS: "1",
    });
    expect(gitArgv(["status"])).toEqual([
      "-c",
      "core.hooksPath=/dev/null",
      "-c",
      "commit.gpgsign=false",
      "status",
    ]);
    expect(gitComplaint("warning: x\nfatal: not a git repository\n")).toBe("not a git repository");
  });
});
