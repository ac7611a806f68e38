// Worktrees: what a turn with `--worktree` adds to a turn, on a clone of this repository (its
// files, its history; a clone so that no branch is made in the checkout being measured): making
// the worktree (`createWorktree`), recording a turn that changed one file (`recordTurn`), and
// removing it with its branch (`removeWorktree`), each against git's own commands doing the least
// of the same (`git worktree add -b`, `git add -A && git commit`, `git worktree remove` +
// `git branch -D`), interleaved round by round.

import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createWorktree } from "../src/worktrees/create.js";
import { branchTip, recordTurn } from "../src/worktrees/record-turn.js";
import { removeWorktree } from "../src/worktrees/remove-worktree.js";
import { findRepository } from "../src/worktrees/repo.js";
import { cleanEnv, median, ROOT } from "./lib.js";

export interface WorktreeStep {
  readonly scvMs: number;
  readonly gitMs: number;
}

export interface WorktreeResult {
  readonly runs: number;
  /** Files in the checkout a worktree gets. */
  readonly files: number;
  readonly create: WorktreeStep;
  readonly record: WorktreeStep;
  readonly remove: WorktreeStep;
}

async function timed(work: () => unknown): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

export async function worktreeBench(runs: number): Promise<WorktreeResult> {
  const dir = mkdtempSync(join(tmpdir(), "scv-bench-worktrees-"));
  try {
    const config = join(dir, "gitconfig");
    writeFileSync(config, "[user]\n\tname = Bench\n\temail = bench@example.com\n");
    const env = cleanEnv({ SCV_HOME: join(dir, "scv"), GIT_CONFIG_GLOBAL: config, GIT_CONFIG_NOSYSTEM: "1" });
    const clone = join(dir, "repo");
    execFileSync("git", ["clone", "-q", "--shared", ROOT, clone], { env });
    const git = (args: readonly string[], cwd = clone) =>
      execFileSync("git", args, { cwd, env, stdio: "ignore" });
    const files =
      execFileSync("git", ["ls-files", "-z"], { cwd: clone, env }).toString().split("\0").length - 1;
    const repo = await findRepository(clone, env);
    const times = {
      scv: { create: [], record: [], remove: [] },
      git: { create: [], record: [], remove: [] },
    } as {
      scv: Record<keyof Omit<WorktreeResult, "runs" | "files">, number[]>;
      git: Record<keyof Omit<WorktreeResult, "runs" | "files">, number[]>;
    };
    for (let round = 0; round < runs; round += 1) {
      const handle = `bench-${String(round).padStart(6, "0")}`;
      let worktree: Awaited<ReturnType<typeof createWorktree>> | undefined;
      times.scv.create.push(
        await timed(async () => {
          worktree = await createWorktree(repo, { handle, env });
        }),
      );
      if (worktree === undefined) throw new Error("no worktree made");
      const made = worktree;
      const since = await branchTip(made, env);
      writeFileSync(join(made.dir, "README.md"), `changed in round ${round}\n`);
      times.scv.record.push(
        await timed(() => recordTurn(made, { agent: "bench", prompt: "bench", since, env })),
      );
      times.scv.remove.push(await timed(() => removeWorktree(made, { env, force: true })));

      const plain = join(dir, `plain-${round}`);
      times.git.create.push(
        await timed(() => git(["worktree", "add", "-q", "-b", `plain/${round}`, plain, "HEAD"])),
      );
      writeFileSync(join(plain, "README.md"), `changed in round ${round}\n`);
      times.git.record.push(
        await timed(() => {
          git(["add", "-A"], plain);
          git(["commit", "-q", "--no-verify", "-m", "bench"], plain);
        }),
      );
      times.git.remove.push(
        await timed(() => {
          git(["worktree", "remove", "--force", plain]);
          git(["branch", "-D", "-q", `plain/${round}`]);
        }),
      );
    }
    const step = (name: keyof typeof times.scv): WorktreeStep => ({
      scvMs: median(times.scv[name]),
      gitMs: median(times.git[name]),
    });
    return { runs, files, create: step("create"), record: step("record"), remove: step("remove") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
