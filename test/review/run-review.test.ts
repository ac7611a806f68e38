// A review from its diff to its report (src/review/run-review.ts, src/review/verdict.ts), with scripted
// reviewer turns: valid findings, invalid then repaired in the same conversation, never valid, and
// failed turns; the verdict rules and the exit codes a CI gate reads.

import { describe, expect, it } from "vitest";
import { EXIT, ScvError } from "../../src/errors.js";
import type { TurnResult } from "../../src/result.js";
import type { DiffFile, ReviewDiff } from "../../src/review/diff.js";
import { type AskReviewer, type ReviewTurnRequest, runReview } from "../../src/review/run-review.js";
import { combineVerdicts, reviewExitCode } from "../../src/review/verdict.js";
import { changedFile, turnResult } from "./helpers.js";

const DIFF: ReviewDiff = {
  description: "the working tree's changes against HEAD (1234567890)",
  scope: "changes",
  root: "/repo",
  from: "1234567890abcdef",
  to: "fedcba0987654321",
  files: [
    changedFile("src/a.ts"),
    changedFile("src/b.ts"),
    changedFile("logo.png", 50, { binary: true, added: 0 }),
  ],
};

function reply(verdict: string, findings: object[] = [], summary = `${verdict} summary`): string {
  return JSON.stringify({ verdict, summary, findings });
}

const finding = (extra: object) => ({
  severity: "minor",
  file: "src/a.ts",
  line: 11,
  title: "A problem",
  body: "b",
  ...extra,
});

/** An `ask` answering from a script keyed `reviewer`, `reviewer#part`, `reviewer#part:repair`; every
 * turn asked is recorded. */
function scripted(script: Record<string, TurnResult | (() => never)>) {
  const asked: ReviewTurnRequest[] = [];
  const ask: AskReviewer = async (turn) => {
    asked.push(turn);
    const key = [
      `${turn.reviewer}#${turn.part}${turn.repair ? ":repair" : ""}`,
      turn.repair ? `${turn.reviewer}:repair` : turn.reviewer,
    ];
    const answer = key.map((each) => script[each]).find((each) => each !== undefined);
    if (answer === undefined) throw new Error(`no scripted answer for ${key[0]}`);
    return typeof answer === "function" ? answer() : answer;
  };
  return { ask, asked };
}

describe("runReview", () => {
  it("asks each reviewer once, merges what they agree on, and approves only when all approve", async () => {
    const { ask, asked } = scripted({
      codex: turnResult(reply("comment", [finding({ title: "Null dereference of user" })])),
      gemini: turnResult(
        reply("approve", [
          finding({ line: 12, title: "Possible null dereference of the user", severity: "major" }),
        ]),
        {
          agent: "gemini",
          conversation: "gemini-def456",
          usage: { input: 50, output: 5, cached: 10 },
          cost: null,
        },
      ),
    });
    const report = await runReview({
      diff: DIFF,
      reviewers: ["codex", "gemini"],
      ask,
      focus: "error handling",
    });
    expect(
      asked.map((turn) => [turn.reviewer, turn.part, turn.parts, turn.repair, turn.conversation]),
    ).toEqual([
      ["codex", 1, 1, false, undefined],
      ["gemini", 1, 1, false, undefined],
    ]);
    expect(asked[0]?.prompt).toContain("Focus on this, as well as anything serious: error handling");
    expect(report.verdict).toBe("comment");
    expect(report.exitCode).toBe(0);
    expect(report.findings).toHaveLength(1);
    expect(report.findings[0]).toMatchObject({
      severity: "major",
      raisedBy: ["gemini", "codex"],
      scope: "diff",
    });
    expect(
      report.reviewers.map((each) => [each.reviewer, each.status, each.verdict, each.conversations]),
    ).toEqual([
      ["codex", "ok", "comment", ["codex-abc123"]],
      ["gemini", "ok", "approve", ["gemini-def456"]],
    ]);
    expect(report.usage).toEqual({ input: 150, output: 25, cached: 10 });
    expect(report.cost).toBe(0.01);
    expect(report.files.map((file) => [file.path, file.reviewed])).toEqual([
      ["src/a.ts", true],
      ["src/b.ts", true],
      ["logo.png", false],
    ]);
    expect(report.skipped).toEqual([{ path: "logo.png", reason: "binary", detail: "binary" }]);
  });

  it("approves when every reviewer approves with nothing blocking; exit 0", async () => {
    const { ask } = scripted({
      codex: turnResult(reply("approve", [finding({ severity: "nit" })])),
      gemini: turnResult(reply("approve")),
    });
    const report = await runReview({ diff: DIFF, reviewers: ["codex", "gemini"], ask });
    expect([report.verdict, report.exitCode]).toEqual(["approve", 0]);
  });

  it("requests changes on a blocker even when its reviewer approves; exit 1", async () => {
    const { ask } = scripted({
      codex: turnResult(reply("approve", [finding({ severity: "blocker" })])),
      gemini: turnResult(reply("approve")),
    });
    const report = await runReview({ diff: DIFF, reviewers: ["codex", "gemini"], ask });
    expect([report.verdict, report.exitCode]).toEqual(["request-changes", EXIT.agentFailed]);
    expect(report.reviewers[0]?.verdict).toBe("request-changes");
  });

  it("repairs an invalid reply once, in the same conversation, with the problems named", async () => {
    const { ask, asked } = scripted({
      codex: turnResult("Looks good to me!"),
      "codex:repair": turnResult(`\`\`\`json\n${reply("approve")}\n\`\`\``, {
        usage: { input: 10, output: 2 },
        cost: 0.002,
      }),
    });
    const report = await runReview({ diff: DIFF, reviewers: ["codex"], ask });
    expect(asked.map((turn) => [turn.repair, turn.conversation])).toEqual([
      [false, undefined],
      [true, "codex-abc123"],
    ]);
    expect(asked[1]?.prompt).toMatch(/^Your review could not be read: the reply is not a JSON object/);
    expect(report.reviewers[0]).toMatchObject({
      status: "ok",
      verdict: "approve",
      repaired: 1,
      failures: [],
    });
    expect(report.reviewers[0]?.usage).toEqual({ input: 110, output: 22 });
    expect(report.reviewers[0]?.cost).toBeCloseTo(0.012);
    expect([report.verdict, report.exitCode]).toEqual(["approve", 0]);
  });

  it("repairs in a new conversation, asked the part again, where the reviewer's CLI cannot continue one", async () => {
    const { ask, asked } = scripted({
      amp: turnResult("Fine.", { agent: "amp", conversation: "amp-aaaaaa" }),
      "amp:repair": turnResult(reply("approve"), { agent: "amp", conversation: "amp-bbbbbb" }),
    });
    const report = await runReview({
      diff: DIFF,
      reviewers: ["amp"],
      ask,
      continues: (name) => name !== "amp",
    });
    expect(asked.map((turn) => [turn.repair, turn.conversation])).toEqual([
      [false, undefined],
      [true, undefined],
    ]);
    const [first, repair] = asked;
    expect(repair?.prompt).toMatch(
      /^An earlier reply to this review could not be read: the reply is not a JSON object: /,
    );
    expect(repair?.prompt.endsWith(`\n\n${first?.prompt}`)).toBe(true);
    expect(report.reviewers[0]).toMatchObject({
      status: "ok",
      repaired: 1,
      conversations: ["amp-aaaaaa", "amp-bbbbbb"],
    });
  });

  it("reports a reply never valid as that reviewer's failure, never guessed: exit 1, no approval", async () => {
    const { ask } = scripted({
      codex: turnResult(reply("lgtm")),
      "codex:repair": turnResult(reply("still lgtm")),
      gemini: turnResult(reply("approve")),
    });
    const report = await runReview({ diff: DIFF, reviewers: ["codex", "gemini"], ask });
    expect(report.reviewers[0]).toMatchObject({ status: "failed", verdict: null, repaired: 0, summary: "" });
    expect(report.reviewers[0]?.failures).toEqual([
      {
        part: 1,
        exitCode: 1,
        error:
          "codex's review of part 1 is not valid findings: the JSON object does not match the schema (1 problem), also after a repair",
        hint: "run the review again, or give another reviewer",
      },
    ]);
    expect([report.verdict, report.exitCode]).toEqual(["comment", EXIT.agentFailed]);
  });

  it("passes on a failed turn's own exit code, and a thrown ScvError's, without a repair", async () => {
    const { ask, asked } = scripted({
      codex: turnResult("", {
        status: "failed",
        exitCode: EXIT.rateLimited,
        error: "codex is rate limited",
        hint: "wait",
      }),
      gemini: () => {
        throw new ScvError("AGENT_NOT_INSTALLED", "gemini is not installed — scv agents install gemini");
      },
    });
    const report = await runReview({ diff: DIFF, reviewers: ["codex", "gemini"], ask });
    expect(asked).toHaveLength(2);
    expect(report.reviewers.map((each) => each.failures)).toEqual([
      [{ part: 1, exitCode: EXIT.rateLimited, error: "codex is rate limited", hint: "wait" }],
      [
        {
          part: 1,
          exitCode: EXIT.notInstalled,
          error: "gemini is not installed — scv agents install gemini",
          hint: null,
        },
      ],
    ]);
    expect([report.verdict, report.exitCode]).toEqual([null, EXIT.rateLimited]);
  });

  it("splits a large diff into parts, each its own turn, and merges the parts' findings", async () => {
    const big: ReviewDiff = {
      ...DIFF,
      files: [changedFile("src/a.ts", 900), changedFile("src/b.ts", 900), changedFile("src/c.ts", 300)],
    };
    const { ask, asked } = scripted({
      "codex#1": turnResult(reply("approve")),
      "codex#2": turnResult(reply("request-changes", [finding({ file: "src/b.ts", severity: "major" })])),
      "codex#3": turnResult(reply("approve", [finding({ file: "src/c.ts", line: 99 })])),
    });
    const report = await runReview({ diff: big, reviewers: ["codex"], ask, maxPartBytes: 1000 });
    expect(asked.map((turn) => [turn.part, turn.parts])).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    expect(asked[1]?.prompt).toContain("this is part 2, holding the files marked * below");
    expect(asked[1]?.prompt).toContain("* M src/b.ts (+1 -0)");
    expect(asked[1]?.prompt).toContain("  M src/a.ts (+1 -0)");
    expect(report.reviewers[0]).toMatchObject({
      parts: 3,
      verdict: "request-changes",
      summary: "approve summary\n\nrequest-changes summary\n\napprove summary",
    });
    expect(report.findings.map((each) => [each.file, each.scope])).toEqual([
      ["src/b.ts", "diff"],
      ["src/c.ts", "file"],
    ]);
    expect(report.exitCode).toBe(1);
  });

  it("asks nothing when nothing is left to review, and says why", async () => {
    const { ask, asked } = scripted({});
    const report = await runReview({
      diff: { ...DIFF, files: [DIFF.files[2] as DiffFile] },
      reviewers: ["codex"],
      ask,
    });
    expect(asked).toEqual([]);
    expect(report).toMatchObject({ verdict: null, exitCode: 0, reviewers: [], findings: [] });
    expect(report.skipped).toHaveLength(1);
  });
});

describe("verdict rules", () => {
  it("request changes on any request or blocker, approve only when complete and all approve, else comment", () => {
    const nit = [{ severity: "nit" as const }];
    expect(combineVerdicts(["approve", "request-changes"], [], true)).toBe("request-changes");
    expect(combineVerdicts(["approve"], [{ severity: "blocker" }], true)).toBe("request-changes");
    expect(combineVerdicts(["approve", "approve"], nit, true)).toBe("approve");
    expect(combineVerdicts(["approve", "approve"], nit, false)).toBe("comment");
    expect(combineVerdicts(["approve", "comment"], [], true)).toBe("comment");
    expect(combineVerdicts([], [], false)).toBeNull();
  });

  it("exits 1 on changes requested, else with the first failure's code, else 0", () => {
    expect(reviewExitCode("request-changes", [EXIT.rateLimited])).toBe(1);
    expect(reviewExitCode("comment", [EXIT.timeout, EXIT.auth])).toBe(EXIT.timeout);
    expect(reviewExitCode("approve", [])).toBe(0);
    expect(reviewExitCode("comment", [])).toBe(0);
    expect(reviewExitCode(null, [])).toBe(1);
  });
});
