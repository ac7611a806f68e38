// A reviewer's reply read as findings (src/review/reply.ts, over the schema in src/review/schema.ts):
// the JSON object as the whole reply or in a fenced block, either spelling of an optional value, and
// every way a reply can be wrong said in words a reviewer can act on — then the repair prompt.

import { describe, expect, it } from "vitest";
import { readReply, repairPrompt } from "../../src/review/reply.js";

const VALID = {
  verdict: "request-changes",
  summary: "Adds a cache; one path can read a freed entry.",
  findings: [
    {
      severity: "blocker",
      file: "src/cache.ts",
      line: 12,
      endLine: 14,
      title: "Entry read after eviction",
      body: "evict() frees the entry that get() then returns.",
      suggestion: "return a copy",
    },
    {
      severity: "nit",
      file: "src/cache.ts",
      line: null,
      endLine: null,
      title: "Name",
      body: "",
      suggestion: null,
    },
  ],
};

function invalid(text: string) {
  const reading = readReply(text);
  if (reading.ok) throw new Error("expected an invalid reply");
  return reading;
}

describe("readReply", () => {
  it("reads a reply that is the JSON object, optional values written null or left out", () => {
    const reading = readReply(JSON.stringify(VALID));
    expect(reading).toEqual({
      ok: true,
      reply: {
        verdict: "request-changes",
        summary: "Adds a cache; one path can read a freed entry.",
        findings: [
          {
            severity: "blocker",
            file: "src/cache.ts",
            line: 12,
            endLine: 14,
            title: "Entry read after eviction",
            body: "evict() frees the entry that get() then returns.",
            suggestion: "return a copy",
          },
          { severity: "nit", file: "src/cache.ts", title: "Name", body: "" },
        ],
      },
    });
    const { findings: _, ...bare } = VALID;
    const leftOut = readReply(
      JSON.stringify({ ...bare, findings: [{ severity: "minor", file: "a.ts", title: "t", body: "b" }] }),
    );
    expect(leftOut).toEqual({
      ok: true,
      reply: {
        verdict: VALID.verdict,
        summary: VALID.summary,
        findings: [{ severity: "minor", file: "a.ts", title: "t", body: "b" }],
      },
    });
  });

  it("reads the object from a fenced block, the last one holding an object when prose and code come first", () => {
    const text = [
      "I looked at the change. The old code was:",
      "```ts",
      "const x = cache.get(k);",
      "```",
      "My review:",
      "```json",
      JSON.stringify(VALID, null, 2),
      "```",
      "",
    ].join("\n");
    const reading = readReply(text);
    expect(reading.ok).toBe(true);
    expect(reading.ok && reading.reply.findings).toHaveLength(2);
    expect(readReply(`~~~\n${JSON.stringify({ ...VALID, findings: [] })}\n~~~`)).toMatchObject({
      ok: true,
      reply: { findings: [] },
    });
  });

  it("never takes an object out of prose that is not fenced", () => {
    const reading = invalid(`Here is my review: ${JSON.stringify(VALID)} — hope it helps.`);
    expect(reading.problem).toMatch(/^the reply is not a JSON object: it is not valid JSON \(/);
    expect(reading.issues).toEqual([]);
  });

  it("says what is wrong: empty, not JSON, not an object, and each field against the schema", () => {
    expect(invalid("  \n").problem).toBe("the reply was empty");
    expect(invalid("[1, 2]").problem).toBe(
      "the reply is not a JSON object: it is JSON, but an array, not an object",
    );
    expect(invalid("Looks fine.\n```\nnot json\n```").problem).toMatch(
      /^neither the reply nor a fenced block in it is a JSON object \(the reply: it is not valid JSON/,
    );
    const wrong = invalid(
      JSON.stringify({
        verdict: "lgtm",
        summary: 3,
        findings: [
          { severity: "critical", file: "", line: 0, title: "x", body: "y" },
          { severity: "minor", file: "a.ts", line: 9, endLine: 3, title: "  ", body: "y" },
          "not a finding",
        ],
      }),
    );
    expect(wrong.problem).toBe("the JSON object does not match the schema (8 problems)");
    expect(wrong.issues).toEqual([
      'verdict: expected one of "approve", "request-changes", "comment"',
      "summary: expected a string, got a number",
      'findings[0].severity: expected one of "blocker", "major", "minor", "nit"',
      "findings[0].file: expected a non-empty string",
      "findings[0].line: expected more than 0",
      "findings[1].title: expected a non-empty string",
      "findings[1].endLine: endLine is before line",
      "findings[2]: expected an object, got a string",
    ]);
  });

  it("reports the candidate closest to valid when several fenced blocks hold objects", () => {
    const text = [
      "```json",
      JSON.stringify({ verdict: "approve" }),
      "```",
      "```json",
      JSON.stringify({ ...VALID, verdict: "ok" }),
      "```",
    ].join("\n");
    expect(invalid(text).issues).toEqual([
      'verdict: expected one of "approve", "request-changes", "comment"',
    ]);
  });
});

describe("repairPrompt", () => {
  it("names each problem and asks for only the object again, the review unchanged", () => {
    const reading = invalid(JSON.stringify({ ...VALID, verdict: "lgtm" }));
    expect(repairPrompt(reading)).toBe(
      [
        "Your review could not be read: the JSON object does not match the schema (1 problem).",
        "",
        '- verdict: expected one of "approve", "request-changes", "comment"',
        "",
        "Reply again with only the JSON object the schema above describes — verdict, summary and findings —",
        "and nothing before or after it. Keep your review as it was; change only what makes it invalid.",
        "Change no file.",
      ].join("\n"),
    );
    expect(repairPrompt(invalid("All good!"))).toMatch(
      /^Your review could not be read: the reply is not a JSON object: it is not valid JSON \(.*\)\.\n\nReply again/,
    );
  });
});
