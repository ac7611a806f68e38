// Best of 2 in git worktrees with the real Codex CLI and the real Claude Code, each against its
// loopback mock, whose `tool` mode answers with a call of the CLI's own shell tool (`touch scv-tool-probe.txt`): each attempt writes
// the file in its own worktree, scv commits it on the attempt's branch, `--check` passes in each,
// the comparison shows both, the user's tree is untouched until `scv apply` brings the file in.

import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeRun } from "./harness.js";
import { BIN, expectNothingLeft, signedInPerSuite } from "./kit.js";
import { PROFILES } from "./profiles.js";

const PROBE = "scv-tool-probe.txt";
for (const cli of ["codex", "claude"] as const) {
  const profile = PROFILES.find((each) => each.cli === cli);

  describe.skipIf(BIN === undefined || profile === undefined)(
    `a real CLI editing files in worktrees (${cli})`,
    () => {
      const suite = profile === undefined ? undefined : signedInPerSuite(profile, 0);

      it("best of 2 with --check: both pass, the comparison shows both, apply brings one file in", async () => {
        if (suite === undefined) return;
        const { lab, mock } = suite;
        // The lab's project is a fresh `git init`: a first commit to branch from.
        writeFileSync(join(lab.cwd, "README.txt"), "project\n");
        const git = (args: string[]) =>
          spawnSync("git", args, {
            cwd: lab.cwd,
            encoding: "utf8",
            env: {
              ...lab.env,
              GIT_AUTHOR_NAME: "u",
              GIT_AUTHOR_EMAIL: "u@x",
              GIT_COMMITTER_NAME: "u",
              GIT_COMMITTER_EMAIL: "u@x",
            },
          });
        expect(git(["add", "-A"]).status).toBe(0);
        expect(git(["commit", "-q", "-m", "initial"]).status).toBe(0);
        mock.setMode("tool");

        const run = await lab.scv(
          [
            "delegate",
            "--worktree",
            "--n",
            "2",
            "--policy",
            "auto",
            cli,
            "--check",
            `test -f ${PROBE}`,
            "--json",
            "make the probe file",
          ],
          { limitMs: 300_000 },
        );
        await expectNothingLeft(lab, cli, "the best-of-2 turns");
        expect(run.code, describeRun(run)).toBe(0);
        const turns = JSON.parse(run.stdout) as {
          conversation: string;
          branch: string;
          check: { status: string };
          diffstat: { paths: { path: string }[] };
        }[];
        expect(turns).toHaveLength(2);
        for (const turn of turns) {
          expect(turn.check.status, describeRun(run)).toBe("pass");
          expect(turn.diffstat.paths.map((each) => each.path)).toEqual([PROBE]);
          expect(git(["ls-tree", "--name-only", turn.branch]).stdout).toContain(PROBE);
        }
        // The table: both attempts, each with its check.
        const rows = run.stderr.split("\n").filter((line) => new RegExp(`^${cli} #[12] `).test(line));
        expect(rows, run.stderr).toHaveLength(2);
        for (const row of rows) expect(row).toMatch(/ pass /);
        expect(existsSync(join(lab.cwd, PROBE))).toBe(false);

        const applied = await lab.scv(["apply", turns[0]?.conversation ?? ""]);
        expect(applied.code, describeRun(applied)).toBe(0);
        expect(existsSync(join(lab.cwd, PROBE))).toBe(true);
        expect(git(["status", "--porcelain"]).stdout).toBe(`?? ${PROBE}\n`);
      }, 360_000);
    },
  );
}
