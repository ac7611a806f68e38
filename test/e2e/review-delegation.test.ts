// `scv delegate --review-by … [--rounds N]` end to end: a fake author (claude) that writes a file as
// its turn, a fake reviewer (codex, --output-schema) that asks for changes while the diff holds the
// bug and approves once it does not; the findings go back to the author's conversation (-c), and
// the result carries every round.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reviewedResultShape } from "../../src/review/report-json.js";
import { useLab } from "../helpers/lab.js";
import { APPROVE, BLOCKER, documented, git, mode, replyFile, repository } from "../helpers/review-world.js";
import { agentCalls, scv, signIn, type World } from "../helpers/scv.js";

let world: World;
useLab((created) => {
  world = created;
});

const BUGGY = "sum.js=export const add = (a, b) => a - b;";
const FIXED = "sum.js=export const add = (a, b) => a + b;";
const SUM_BLOCKER = { ...BLOCKER, findings: BLOCKER.findings.map((each) => ({ ...each, file: "sum.js" })) };

/** The author writes the bug first and the fix after; the reviewer blocks while the diff holds the bug. */
async function setUp(): Promise<void> {
  repository(world);
  // The user's own uncommitted change, made before the delegation: not the author's to review.
  git(world.project, ["add", "."]);
  git(world.project, ["commit", "-q", "-m", "second"]);
  writeFileSync(join(world.project, "notes.txt"), "USER-OWN-CHANGE\n");
  await signIn(world, "claude");
  await signIn(world, "codex");
  mode(world, "claude", `write:${FIXED}`, `write:${BUGGY}`);
  const blocker = replyFile(world, "blocker.json", SUM_BLOCKER);
  const approve = replyFile(world, "approve.json", APPROVE);
  mode(world, "codex", `review-grep:a - b:${blocker}:${approve}`);
}

describe("scv delegate --review-by", () => {
  it("--rounds 2: author, reviewer (changes requested), author given the findings, reviewer (approve)", async () => {
    await setUp();
    const run = await scv(world, [
      "delegate",
      "--review-by",
      "codex",
      "--rounds",
      "2",
      "--json",
      "claude",
      "Write sum.js",
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    const result = reviewedResultShape().parse(documented("delegate-reviewed", run.stdout));
    expect(result.review.verdict).toBe("approve");
    expect(result.review.rounds.map((round) => round.report.verdict)).toEqual(["request-changes", "approve"]);
    expect(result.review.rounds[0]?.report.findings[0]).toMatchObject({
      file: "sum.js",
      severity: "blocker",
    });
    expect(readFileSync(join(world.project, "sum.js"), "utf8")).toContain("a + b");

    const calls = agentCalls(world).map((call) => ({ cli: call.cli, argv: call.argv }));
    expect(calls.map((call) => call.cli)).toEqual(["claude", "codex", "claude", "codex"]);
    // The second author turn continues the first conversation, and is told the findings.
    const second = calls[2]?.argv ?? [];
    expect(second).toContain("--resume");
    expect(second.at(-1)).toContain("add subtracts its arguments");
    // The reviewers saw the author's changes only: not the user's own uncommitted file.
    for (const review of [calls[1], calls[3]]) {
      expect(review?.argv.at(-1)).toContain("sum.js");
      expect(review?.argv.at(-1)).not.toContain("USER-OWN-CHANGE");
    }
  });

  it("one round (the default): the result says what is left, exit 1, and how to go on", async () => {
    await setUp();
    const run = await scv(world, ["delegate", "--review-by", "codex", "claude", "Write sum.js"]);
    expect(run.exitCode).toBe(1);
    // The author's reply, then the review.
    expect(run.stdout).toContain("add subtracts its arguments");
    expect(run.stdout).toMatch(/changes requested/);
    expect(run.stderr).toMatch(/scv: the reviewers still request changes after 1 round/);
    expect(run.stderr).toMatch(/scv delegate -c claude-[0-9a-z]{6}/);
    expect(agentCalls(world).map((call) => call.cli)).toEqual(["claude", "codex"]);
  });

  it("in the background: scv wait gives the reviewed result", async () => {
    await setUp();
    const started = await scv(world, [
      "delegate",
      "--background",
      "--review-by",
      "codex",
      "--rounds",
      "2",
      "--json",
      "claude",
      "Write sum.js",
    ]);
    expect(started.exitCode, started.stderr).toBe(0);
    const job = (JSON.parse(started.stdout.split("\n")[0] ?? "") as { job: string }).job;
    const waited = await scv(world, ["wait", job, "--json"]);
    expect(waited.exitCode, waited.stderr).toBe(0);
    const result = reviewedResultShape().parse(documented("wait", waited.stdout));
    expect(result.review.rounds.map((round) => round.report.verdict)).toEqual(["request-changes", "approve"]);
  });

  it("refuses --rounds without --review-by, --rounds 0, several authors and worktree attempts (exit 2) before any agent runs", async () => {
    await setUp();
    for (const args of [
      ["delegate", "--rounds", "2", "claude", "x"],
      ["delegate", "--review-by", "codex", "--rounds", "0", "claude", "x"],
      ["delegate", "--review-by", "codex", "claude", "codex", "x"],
      ["delegate", "--review-by", "codex", "--worktree", "claude", "x"],
      ["delegate", "--review-by", "codex", "--n", "2", "claude", "x"],
    ]) {
      const run = await scv(world, args);
      expect(run.exitCode, args.join(" ")).toBe(2);
      expect(run.stderr.trim().split("\n"), args.join(" ")).toHaveLength(1);
    }
    expect(agentCalls(world)).toEqual([]);
  });
});
