// `scv review` end to end: the built scv computes the diff with git, asks fake reviewers that follow
// the real CLIs' grammars (codex with --output-schema, claude with --json-schema and its result's
// structured_output), and prints one merged report; the exit code is the verdict's.

import { readFileSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reviewReportShape } from "../../src/review/report-json.js";
import { useLab } from "../helpers/lab.js";
import { APPROVE, BLOCKER, documented, mode, replyFile, repository } from "../helpers/review-world.js";
import { agentCalls, scv, signIn, type World } from "../helpers/scv.js";

let world: World;
useLab((created) => {
  world = created;
});

describe("scv review", () => {
  it("asks codex (read-only, --output-schema) and claude (plan, --json-schema) for findings, merges them, exits 1 on a blocker", async () => {
    repository(world);
    await signIn(world, "codex");
    await signIn(world, "claude");
    mode(world, "codex", `reply-file:${replyFile(world, "codex.json", BLOCKER)}`);
    mode(world, "claude", `reply-file:${replyFile(world, "claude.json", BLOCKER)}`);

    const run = await scv(world, ["review", "codex", "claude", "--json"]);
    expect(run.stderr).toContain("scv review: ");
    expect(run.exitCode).toBe(1);
    const report = reviewReportShape().parse(documented("review", run.stdout));
    expect(report.verdict).toBe("request-changes");
    expect(report.findings).toHaveLength(1);
    expect(report.findings[0]).toMatchObject({
      severity: "blocker",
      file: "calc.js",
      line: 1,
      scope: "diff",
      raisedBy: ["codex", "claude"],
    });
    expect(report.reviewers.map((each) => [each.reviewer, each.status, each.verdict])).toEqual([
      ["codex", "ok", "request-changes"],
      ["claude", "ok", "request-changes"],
    ]);

    const calls = agentCalls(world);
    const codex = calls.find((call) => call.cli === "codex");
    const claude = calls.find((call) => call.cli === "claude");
    expect(codex?.argv).toEqual(expect.arrayContaining(['sandbox_mode="read-only"', "--output-schema"]));
    expect(claude?.argv).toEqual(expect.arrayContaining(["--permission-mode", "plan", "--json-schema"]));
    // Each was given the diff, and ran in the repository.
    expect(codex?.argv.at(-1)).toContain("a - b");
    expect(codex?.cwd).toBe(world.project);
    // The working tree is as it was.
    expect(readFileSync(join(world.project, "calc.js"), "utf8")).toContain("a - b");
  });

  it("prints a readable report on a terminal's stdout and exits 0 when the reviewer approves", async () => {
    repository(world);
    await signIn(world, "codex");
    mode(world, "codex", `reply-file:${replyFile(world, "approve.json", APPROVE)}`);
    const run = await scv(world, ["review", "--reviewers", "codex"]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/approve/i);
    expect(run.stdout).toContain("looks right");
  });

  it("repairs an invalid reply in the same conversation, and reports a never-valid one as that reviewer's failure", async () => {
    repository(world);
    await signIn(world, "codex");
    await signIn(world, "claude");
    const invalid = replyFile(world, "invalid.txt", "I think it is fine, mostly.");
    mode(world, "codex", `reply-file:${replyFile(world, "blocker.json", BLOCKER)}`, `reply-file:${invalid}`);
    mode(world, "claude", `reply-file:${invalid}`);
    const run = await scv(world, ["review", "codex", "claude", "--json"]);
    const report = reviewReportShape().parse(JSON.parse(run.stdout));
    const codex = report.reviewers.find((each) => each.reviewer === "codex");
    const claude = report.reviewers.find((each) => each.reviewer === "claude");
    expect(codex).toMatchObject({ status: "ok", repaired: 1, verdict: "request-changes" });
    expect(claude).toMatchObject({ status: "failed", verdict: null });
    expect(claude?.failures[0]?.error).toBeTruthy();
    // The repair continued codex's conversation.
    const codexCalls = agentCalls(world).filter((call) => call.cli === "codex");
    expect(codexCalls).toHaveLength(2);
    expect(codexCalls[1]?.argv).toContain("resume");
    // A blocker from the one reviewer that answered: changes requested.
    expect(report.verdict).toBe("request-changes");
    expect(run.exitCode).toBe(1);
  });

  it("refuses --base with --staged, a reviewer that is no agent, and a folder that is no repository (exit 2)", async () => {
    const notRepo = await scv(world, ["review", "codex"]);
    expect(notRepo.exitCode).toBe(2);
    expect(notRepo.stderr.trim().split("\n")).toHaveLength(1);
    repository(world);
    const both = await scv(world, ["review", "codex", "--base", "main", "--staged"]);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain("--base and --staged");
    const nobody = await scv(world, ["review", "nosuchagent"]);
    expect(nobody.exitCode).toBe(2);
    expect(nobody.stderr).not.toContain("    at ");
  });

  it("leaves the author's model family out when it chooses (auto), and names who it chose", async () => {
    repository(world);
    await signIn(world, "codex");
    await signIn(world, "claude");
    mode(world, "codex", `reply-file:${replyFile(world, "approve.json", APPROVE)}`);
    mode(world, "claude", `reply-file:${replyFile(world, "approve.json", APPROVE)}`);
    const run = await scv(world, ["review", "--author", "claude", "--json"]);
    const report = reviewReportShape().parse(JSON.parse(run.stdout));
    const chosen = report.reviewers.map((each) => each.reviewer);
    expect(chosen).toContain("codex");
    expect(chosen).not.toContain("claude");
    expect(run.stderr).toMatch(/reviewers .*codex.* \(auto\)/);
    expect(agentCalls(world).some((call) => call.cli === "claude")).toBe(false);
  });

  it("prints SARIF 2.1.0 with the finding at its file and line", async () => {
    repository(world);
    await signIn(world, "codex");
    mode(world, "codex", `reply-file:${replyFile(world, "blocker.json", BLOCKER)}`);
    const run = await scv(world, ["review", "codex", "--format", "sarif"]);
    expect(run.exitCode).toBe(1);
    const sarif = JSON.parse(run.stdout) as {
      version: string;
      runs: { results: { level: string; locations: { physicalLocation: unknown }[] }[] }[];
    };
    expect(sarif.version).toBe("2.1.0");
    const result = sarif.runs[0]?.results[0];
    expect(result?.level).toBe("error");
    expect(result?.locations[0]?.physicalLocation).toMatchObject({
      artifactLocation: { uri: "calc.js" },
      region: { startLine: 1 },
    });
  });

  it("runs in the background: scv wait prints the report, --json its document, and the exit code is the verdict's", async () => {
    repository(world);
    await signIn(world, "codex");
    mode(world, "codex", `reply-file:${replyFile(world, "blocker.json", BLOCKER)}`);
    const started = await scv(world, ["review", "codex", "--background", "--json"]);
    expect(started.exitCode).toBe(0);
    const job = (JSON.parse(started.stdout.split("\n")[0] ?? "") as { job: string }).job;
    const waited = await scv(world, ["wait", job, "--json"]);
    expect(waited.exitCode).toBe(1);
    const report = reviewReportShape().parse(documented("wait", waited.stdout));
    expect(report.verdict).toBe("request-changes");
    expect(report.findings[0]?.title).toBe("add subtracts its arguments");
  });

  it("--job: what a delegated turn changed (the files it touched while it ran)", async () => {
    repository(world);
    // calc.js was changed well before the turn: not the job's.
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(world.project, "calc.js"), past, past);
    await signIn(world, "claude");
    await signIn(world, "codex");
    mode(world, "claude", "write:sum.js=export const add = (a, b) => a - b;");
    const delegated = await scv(world, ["delegate", "--json", "claude", "Write sum.js"]);
    expect(delegated.exitCode, delegated.stderr).toBe(0);
    const handle = (JSON.parse(delegated.stdout) as { conversation: string }).conversation;
    mode(world, "codex", `reply-file:${replyFile(world, "approve.json", APPROVE)}`);
    const run = await scv(world, ["review", "codex", "--job", handle, "--json"]);
    expect(run.exitCode, run.stderr).toBe(0);
    const report = reviewReportShape().parse(JSON.parse(run.stdout));
    expect(report.scope).toBe("job");
    expect(report.files.map((file) => file.path)).toEqual(["sum.js"]);
    expect(report.description).toContain(`the files ${handle} touched`);
  });
});
