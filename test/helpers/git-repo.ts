// The world's project as a git repository, for tests of `--worktree` and its commands: a git
// configuration of the world's own (an identity, `main`), so the machine's never leaks in.

import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Lab, useLab } from "./lab.js";
import { scv, type World } from "./scv.js";

/** The variables that give git the world's own configuration. */
export function gitEnv(world: World): Record<string, string> {
  const config = join(world.root, "gitconfig");
  if (!existsSync(config)) {
    writeFileSync(
      config,
      "[user]\n\tname = Test User\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n",
    );
  }
  return { GIT_CONFIG_GLOBAL: config, GIT_CONFIG_NOSYSTEM: "1" };
}

/** Makes the world's project a repository with one commit: `notes.txt` ("base"), and a
 * `.gitignore` that ignores `*.log`. */
export function initRepo(world: World, folder = world.project): void {
  const env = { ...world.env, ...gitEnv(world) };
  const git = (args: readonly string[]) => execFileSync("git", args, { cwd: folder, env, stdio: "pipe" });
  git(["init", "-q"]);
  writeFileSync(join(folder, "notes.txt"), "base\n");
  writeFileSync(join(folder, ".gitignore"), "*.log\n");
  git(["add", "-A"]);
  git(["commit", "-q", "-m", "initial"]);
}

/** git's CLI in the world's project (or `cwd`), with the world's configuration; its stdout. */
export function gitIn(world: World, args: readonly string[], cwd = world.project): string {
  return execFileSync("git", args, { cwd, env: { ...world.env, ...gitEnv(world) }, encoding: "utf8" });
}

/** The built scv in the world's project, with the world's git configuration. */
export function scvInRepo(world: World, args: readonly string[], env: Record<string, string> = {}) {
  return scv(world, args, { env: { ...gitEnv(world), ...env } });
}

/** A fresh world for each test of the calling file (useLab), with scv and git in its project. */
export function useRepoLab(): {
  readonly lab: Lab;
  inRepo(args: readonly string[], env?: Record<string, string>): ReturnType<typeof scvInRepo>;
  git(args: readonly string[], cwd?: string): string;
} {
  const lab = useLab();
  return {
    lab,
    inRepo: (args, env = {}) => scvInRepo(lab.world, args, env),
    git: (args, cwd) => gitIn(lab.world, args, cwd),
  };
}
