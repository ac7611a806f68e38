// worktree_links' paths: what the config may name (inside the repository, not .git), what a link
// is made for (only what the user's repository has), and that unlinking leaves what the agent put
// there instead.

import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { linkIgnored, linkPath, linkPathspecs, unlinkAll } from "../../src/worktrees/links.js";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function folders(): { repoRoot: string; dir: string } {
  const root = mkdtempSync(join(tmpdir(), "scv-links-"));
  roots.push(root);
  const repoRoot = join(root, "repo");
  const dir = join(root, "worktree");
  mkdirSync(repoRoot);
  mkdirSync(dir);
  return { repoRoot, dir };
}

describe("worktree_links", () => {
  it("takes a path inside the repository, and refuses one that leaves it, is absolute or is .git", () => {
    expect(linkPath("node_modules/")).toBe("node_modules");
    expect(linkPath("./packages/app/.env")).toBe("packages/app/.env");
    for (const bad of ["../x", "/etc", ".git", ".git/hooks", ".", "a/../../b"]) {
      expect(() => linkPath(bad), bad).toThrow(/is not a path inside the repository/);
    }
  });

  it("links what the repository has, skips what it lacks, and refuses a path the checkout has before linking any", () => {
    const where = folders();
    mkdirSync(join(where.repoRoot, "node_modules"));
    writeFileSync(join(where.repoRoot, "node_modules", "x.js"), "x\n");
    mkdirSync(join(where.repoRoot, "packages", "app"), { recursive: true });
    writeFileSync(join(where.repoRoot, "packages", "app", ".env"), "A=1\n");
    const made = linkIgnored(where, ["node_modules", "packages/app/.env", "missing"]);
    expect(made).toEqual({ linked: ["node_modules", "packages/app/.env"], missing: ["missing"] });
    expect(readFileSync(join(where.dir, "node_modules", "x.js"), "utf8")).toBe("x\n");
    expect(linkPathspecs({ links: [...made.linked] })).toEqual([
      ":(literal)node_modules",
      ":(literal)packages/app/.env",
    ]);

    const other = folders();
    writeFileSync(join(other.repoRoot, "tracked.txt"), "t\n");
    writeFileSync(join(other.dir, "tracked.txt"), "t\n");
    mkdirSync(join(other.repoRoot, "node_modules"));
    expect(() => linkIgnored(other, ["node_modules", "tracked.txt"])).toThrow(
      /tracked\.txt is in the checkout/,
    );
    expect(existsSync(join(other.dir, "node_modules"))).toBe(false);
  });

  it("unlinks only what is still a link: the folder it points at stays, and so does what replaced a link", () => {
    const where = folders();
    mkdirSync(join(where.repoRoot, "node_modules"));
    writeFileSync(join(where.repoRoot, "node_modules", "x.js"), "x\n");
    writeFileSync(join(where.repoRoot, ".env"), "A=1\n");
    linkIgnored(where, ["node_modules", ".env"]);
    rmSync(join(where.dir, ".env"));
    writeFileSync(join(where.dir, ".env"), "the agent's\n");
    unlinkAll({ dir: where.dir, links: ["node_modules", ".env"] });
    expect(existsSync(join(where.dir, "node_modules"))).toBe(false);
    expect(lstatSync(join(where.dir, ".env")).isFile()).toBe(true);
    expect(readFileSync(join(where.repoRoot, "node_modules", "x.js"), "utf8")).toBe("x\n");
  });
});
