// Agreement across reviewers (src/review/merge.ts) and findings placed against the diff
// (src/review/locate.ts): the same problem in other words on the same lines is one finding listing
// who raised it, at the highest severity; different problems, or one reviewer's two, stay apart.

import { describe, expect, it } from "vitest";
import { changedFiles, placeFinding } from "../../src/review/locate.js";
import { mergeFindings, type ReviewerFinding, titleSimilarity, titleWords } from "../../src/review/merge.js";
import type { Finding } from "../../src/review/schema.js";

function by(reviewer: string, finding: Partial<ReviewerFinding> & Pick<Finding, "title">): ReviewerFinding {
  return { severity: "minor", file: "src/a.ts", body: "", scope: "diff", reviewer, ...finding };
}

describe("titleSimilarity", () => {
  it("finds titles that say the same thing in other words", () => {
    const same: [string, string][] = [
      ["Null pointer dereference when user is missing", "Possible null dereference if the user is missing"],
      ["Missing null check on user", "No null check for users"],
      ["Race condition in cache eviction", "Cache eviction races with reads"],
      ["SQL injection in login query", "Login query is open to SQL injection"],
      ["Deref of freed entry", "Dereferences a freed entry"],
      ["Off-by-one in loop bound", "Loop bound off by one"],
    ];
    for (const [a, b] of same) expect([a, b, titleSimilarity(a, b) >= 0.5]).toEqual([a, b, true]);
  });

  it("tells different problems apart", () => {
    const different: [string, string][] = [
      ["Null pointer dereference when user is missing", "Unused import of lodash"],
      ["SQL injection in login query", "Login page is slow"],
      ["Race condition in cache eviction", "Typo in README"],
    ];
    for (const [a, b] of different) expect([a, b, titleSimilarity(a, b) < 0.5]).toEqual([a, b, true]);
  });

  it("reads words without case, punctuation, stop words or endings", () => {
    expect(titleWords("The `retry()` loop: checks are MISSING for errors!")).toEqual([
      "retry",
      "loop",
      "check",
      "miss",
      "error",
    ]);
    expect(titleSimilarity("a", "A")).toBe(1);
  });
});

describe("mergeFindings", () => {
  it("merges agreeing findings of several reviewers, at the highest severity, listing who raised it", () => {
    const merged = mergeFindings([
      by("codex", {
        severity: "major",
        line: 12,
        endLine: 14,
        title: "Null dereference when user is missing",
      }),
      by("gemini", {
        severity: "blocker",
        line: 13,
        title: "Possible null pointer dereference on missing user",
      }),
      by("claude", { severity: "minor", line: 16, title: "User may be null here (dereference)" }),
    ]);
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({
      severity: "blocker",
      title: "Possible null pointer dereference on missing user",
      line: 13,
      raisedBy: ["gemini", "codex", "claude"],
    });
    expect(merged[0]?.reports.map((report) => [report.reviewer, report.severity])).toEqual([
      ["gemini", "blocker"],
      ["codex", "major"],
      ["claude", "minor"],
    ]);
  });

  it("keeps apart: other files, lines far apart, other problems, and one reviewer's two findings", () => {
    const merged = mergeFindings([
      by("codex", { line: 10, title: "Null dereference of user" }),
      by("gemini", { file: "src/b.ts", line: 10, title: "Null dereference of user" }),
      by("gemini", { line: 40, title: "Null dereference of user" }),
      by("gemini", { line: 10, title: "Unused variable count" }),
      by("codex", { line: 11, title: "Null dereference of the user object" }),
    ]);
    expect(merged.map((finding) => [finding.file, finding.line, finding.raisedBy])).toEqual([
      ["src/a.ts", 10, ["codex"]],
      ["src/a.ts", 10, ["gemini"]],
      ["src/a.ts", 11, ["codex"]],
      ["src/a.ts", 40, ["gemini"]],
      ["src/b.ts", 10, ["gemini"]],
    ]);
  });

  it("merges two findings about a whole file, not one about a file and one about its lines", () => {
    const merged = mergeFindings([
      by("codex", { title: "File lacks tests" }),
      by("gemini", { title: "No tests for this file" }),
      by("claude", { line: 3, title: "File lacks tests" }),
    ]);
    expect(merged.map((finding) => finding.raisedBy)).toEqual([["codex", "gemini"], ["claude"]]);
  });

  it("orders the result most severe first, then by file and line", () => {
    const merged = mergeFindings([
      by("a", { severity: "nit", file: "a.ts", line: 1, title: "one" }),
      by("a", { severity: "blocker", file: "z.ts", line: 9, title: "two" }),
      by("a", { severity: "blocker", file: "b.ts", line: 9, title: "three" }),
      by("a", { severity: "major", file: "a.ts", line: 2, title: "four" }),
    ]);
    expect(merged.map((finding) => finding.title)).toEqual(["three", "two", "four", "one"]);
  });
});

describe("placeFinding", () => {
  const files = changedFiles([
    { path: "src/a.ts", lines: [{ start: 10, end: 20 }] },
    { path: "docs/new.md", lines: [{ start: 1, end: 5 }] },
  ]);
  const finding = (file: string, line?: number, endLine?: number): Finding => ({
    severity: "minor",
    file,
    title: "t",
    body: "",
    ...(line === undefined ? {} : { line }),
    ...(endLine === undefined ? {} : { endLine }),
  });

  it("takes the paths reviewers write as the diff's", () => {
    for (const path of [
      "src/a.ts",
      "./src/a.ts",
      "b/src/a.ts",
      "a/src/a.ts",
      "/repo/src/a.ts",
      " src\\a.ts ",
    ]) {
      expect([path, placeFinding(finding(path, 12), files, "/repo").file]).toEqual([path, "src/a.ts"]);
    }
    expect(placeFinding(finding("./other/x.ts", 1), files, "/repo").file).toBe("other/x.ts");
  });

  it("marks a finding on lines no hunk shows, or in a file the diff does not change, and keeps it", () => {
    expect(placeFinding(finding("src/a.ts", 12), files, "/repo").scope).toBe("diff");
    expect(placeFinding(finding("src/a.ts", 5, 10), files, "/repo").scope).toBe("diff");
    expect(placeFinding(finding("src/a.ts"), files, "/repo").scope).toBe("diff");
    expect(placeFinding(finding("src/a.ts", 30), files, "/repo").scope).toBe("file");
    expect(placeFinding(finding("src/a.ts", 1, 9), files, "/repo").scope).toBe("file");
    const elsewhere = placeFinding(finding("src/untouched.ts", 3), files, "/repo");
    expect(elsewhere).toMatchObject({ scope: "elsewhere", file: "src/untouched.ts", line: 3 });
  });
});
