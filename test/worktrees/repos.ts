// Throwaway git repositories for src/worktrees/'s tests: a temporary folder with its own HOME,
// SCV_HOME and git configuration (GIT_CONFIG_GLOBAL, GIT_CONFIG_NOSYSTEM), so the machine's git
// settings never leak in. The tests' own git commands run here with execFileSync; scv's run through
// src/worktrees/ with `env`.

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { expect } from "vitest";
import { ScvError } from "../../src/errors.js";

export interface World {
  readonly dir: string;
  /** The repository's top level (a real path). */
  readonly repo: string;
  readonly env: Record<string, string>;
  /** Runs git in `cwd` (default: the repository), returns stdout. */
  git(args: readonly string[], cwd?: string): string;
  /** Writes a file in the repository (folders made). */
  write(path: string, content: string | Buffer, root?: string): void;
  read(path: string, root?: string): string;
  [Symbol.dispose](): void;
}

/** A repository with one commit (`a.txt`, `lines.txt`, `bin.dat`, `old-name.txt`, `gone.txt`,
 * `.gitignore` ignoring `*.log`), on `main`. */
export function world(options: { readonly empty?: boolean } = {}): World {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "scv-wt-")));
  const globalConfig = join(dir, "gitconfig");
  writeFileSync(
    globalConfig,
    "[user]\n\tname = Test User\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n",
  );
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: join(dir, "home"),
    SCV_HOME: join(dir, "scv-home"),
    GIT_CONFIG_GLOBAL: globalConfig,
    GIT_CONFIG_NOSYSTEM: "1",
    LANG: "C",
  };
  mkdirSync(env.HOME as string);
  const repo = join(dir, "project");
  mkdirSync(repo);
  const git = (args: readonly string[], cwd = repo) =>
    execFileSync("git", args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const write = (path: string, content: string | Buffer, root = repo) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  };
  git(["init", "-q"]);
  if (!options.empty) {
    write("a.txt", "alpha\n");
    write("lines.txt", `${Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n")}\n`);
    write("bin.dat", Buffer.from([0, 1, 2, 3, 255, 254, 0, 10, 13]));
    write("old-name.txt", "a file that will be renamed, long enough for rename detection\n".repeat(4));
    write("gone.txt", "to be deleted\n");
    write(".gitignore", "*.log\n");
    git(["add", "-A"]);
    git(["commit", "-q", "-m", "initial"]);
  }
  return {
    dir,
    repo,
    env,
    git,
    write,
    read: (path, root = repo) => readFileSync(join(root, path), "utf8"),
    [Symbol.dispose]: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Rewrites `path` (committed, unchanged) with `content` of the same size, as git would find it had
 * the change been made in the second the index was written: the file keeps the modification time
 * the index records for it (an hour ago), and the index is stamped with that time too. Only git's
 * racy-clean check (the index's own time against the entry's) then tells the file may have
 * changed: git itself sees it; a copy of the index stamped now would not. */
export function sameSecondEdit(w: World, path: string, content: string): void {
  const file = join(w.repo, path);
  if (statSync(file).size !== Buffer.byteLength(content))
    throw new Error("sameSecondEdit needs content of the same size");
  w.git(["config", "core.trustctime", "false"]);
  const then = new Date(Date.now() - 3600_000);
  utimesSync(file, then, then);
  w.git(["update-index", "--refresh", "-q"]);
  writeFileSync(file, content);
  utimesSync(file, then, then);
  utimesSync(join(w.repo, ".git", "index"), then, then);
  // diff-files reads the index as status would, and never rewrites it.
  if (!w.git(["diff-files", "--name-only"]).includes(path))
    throw new Error(`git does not see ${path} changed`);
}

/** Every file below `root` (`.git` left out) with its content's hash: a tree's exact state. */
export function fileHashes(root: string): Record<string, string> {
  const hashes: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const full = join(folder, name);
      if (name === ".git") continue;
      const stats = lstatSync(full);
      if (stats.isDirectory()) walk(full);
      else hashes[relative(root, full)] = createHash("sha256").update(readFileSync(full)).digest("hex");
    }
  };
  walk(root);
  return hashes;
}

/** The ScvError `promise` rejects with, checked to be one line. */
export async function refused(promise: Promise<unknown>): Promise<ScvError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ScvError);
  expect((error as ScvError).message).not.toContain("\n");
  return error as ScvError;
}
