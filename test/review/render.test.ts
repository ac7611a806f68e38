// The review as a person reads it (src/review/render-text.ts) and as a pull request's comment
// (src/review/render-markdown.ts), from a report runReview made; and the --json object passing its
// own schema.

import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../src/review/render-markdown.js";
import { findingsByFile, renderText } from "../../src/review/render-text.js";
import { reviewReportSchema } from "../../src/review/report.js";
import { sampleReport } from "./sample-report.js";

describe("renderText", () => {
  it("groups by file, most severe first, with who raised each, then reviewers, failures and what was left out", async () => {
    expect(renderText(await sampleReport())).toBe(
      [
        "scv review: changes requested — 4 findings (1 blocker, 2 minor, 1 nit) from codex, gemini",
        "the changes since the merge base with main (0123456789) · 4 files changed, 2 reviewed, 2 left out",
        "",
        "src/cache.ts",
        "  blocker  11-12  Entry returned after eviction  [codex, gemini]",
        "                  evict() frees the entry get() returns.",
        "                  A second read crashes.",
        "                  suggestion:",
        "                    return entry ? { ...entry } : undefined; // not `entry`",
        "  nit      —      Module lacks a header comment  [codex]",
        "",
        "src/my file.ts",
        "  minor    40     Unused <T> parameter | remove it  [codex] (lines outside the diff)",
        "",
        "src/untouched.ts (not changed by the diff)",
        "  minor    3      Helper duplicates cache logic  [gemini]",
        "",
        "Reviewers:",
        "  codex: changes requested, 2 parts, 3000 tokens, $0.0250",
        "    The cache can return an evicted entry.",
        "",
        "    The rename is fine.",
        "  gemini: changes requested, 2 parts, 900 tokens",
        "    Eviction races with reads.",
        "    part 2 failed (exit 124): gemini timed out after 10m — give it more time with --timeout",
        "",
        "Left out:",
        "  assets/logo.png: binary",
        "  package-lock.json: generated: lockfile",
        "",
        "Total: 3900 tokens, $0.0250",
        "",
      ].join("\n"),
    );
  });

  it("orders files by their most severe finding, then by path", () => {
    const finding = (file: string, severity: "blocker" | "nit", line: number) => ({
      severity,
      file,
      line,
      title: "t",
      body: "",
      scope: "diff" as const,
      raisedBy: ["codex"],
      reports: [],
    });
    const groups = findingsByFile([
      finding("a.ts", "nit", 1),
      finding("b.ts", "nit", 9),
      finding("b.ts", "blocker", 20),
      finding("c.ts", "nit", 1),
    ]);
    expect(groups.map((group) => [group.file, group.findings.map((each) => each.line)])).toEqual([
      ["b.ts", [20, 9]],
      ["a.ts", [1]],
      ["c.ts", [1]],
    ]);
  });
});

describe("renderMarkdown", () => {
  it("is a PR comment: verdict heading, findings by file, titles escaped, suggestions fenced, a reviewers table", async () => {
    const markdown = renderMarkdown(await sampleReport());
    expect(markdown.split("\n").slice(0, 3)).toEqual([
      "## scv review: changes requested",
      "",
      "changes requested — 4 findings (1 blocker, 2 minor, 1 nit) from codex, gemini. Reviewed the changes since the merge base with main (0123456789): 4 files changed, 2 reviewed, 2 left out.",
    ]);
    expect(markdown).toContain(
      [
        "### `src/cache.ts`",
        "",
        "- **blocker** · L11-12 · **Entry returned after eviction** — codex, gemini",
        "",
        "  evict() frees the entry get() returns.",
        "  A second read crashes.",
        "",
        "  Suggestion:",
        "",
        "  ```",
        "  return entry ? { ...entry } : undefined; // not `entry`",
        "  ```",
        "",
        "- **nit** · **Module lacks a header comment** — codex",
      ].join("\n"),
    );
    // A title's markup and HTML are shown as written, and a table cell's bar does not end the cell.
    expect(markdown).toContain(
      "- **minor** · L40 (outside the diff) · **Unused \\<T\\> parameter \\| remove it** — codex",
    );
    expect(markdown).toContain("### `src/untouched.ts` (not changed by the diff)");
    expect(markdown).toContain(
      [
        "| reviewer | verdict | tokens | cost |",
        "| --- | --- | --- | --- |",
        "| `codex` | changes requested | 3000 tokens | $0.0250 |",
        "| `gemini` | changes requested; part 2: gemini timed out after 10m | 900 tokens | — |",
      ].join("\n"),
    );
    expect(markdown).toContain(
      "**codex:**\n\n> The cache can return an evicted entry.\n>\n> The rename is fine.",
    );
    expect(
      markdown.endsWith(
        "### Left out\n\n- `assets/logo.png`: binary\n- `package-lock.json`: generated: lockfile\n",
      ),
    ).toBe(true);
  });

  it("fences a suggestion longer than any run of backticks inside it", async () => {
    const report = await sampleReport();
    const first = report.findings[0];
    if (first === undefined) throw new Error("no finding");
    const withFence = { ...report, findings: [{ ...first, suggestion: "```ts\nx\n```" }] };
    expect(renderMarkdown(withFence)).toContain("  ````\n  ```ts\n  x\n  ```\n  ````");
  });
});

describe("the --json report", () => {
  it("passes its own schema", async () => {
    const report = await sampleReport();
    expect(reviewReportSchema().parse(JSON.parse(JSON.stringify(report)))).toEqual(report);
  });
});
