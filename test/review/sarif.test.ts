// `--format sarif` (src/review/sarif.ts) validated against the official SARIF 2.1.0 JSON schema
// (test/fixtures/sarif/: OASIS's file, byte for byte), and read as GitHub code scanning reads it.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { renderSarif } from "../../src/review/sarif.js";
import { sampleReport } from "./sample-report.js";

/** The official schema is draft-04, which Ajv 8 reads as draft-07 once its draft-04 `id` is `$id`:
 * it uses no keyword whose meaning changed between them (no boolean exclusiveMinimum). */
function sarifValidator() {
  const schema = JSON.parse(
    readFileSync(join(import.meta.dirname, "..", "fixtures", "sarif", "sarif-schema-2.1.0.json"), "utf8"),
  ) as Record<string, unknown>;
  expect(schema.$schema).toBe("http://json-schema.org/draft-04/schema#");
  expect(JSON.stringify(schema)).not.toMatch(/"exclusive(Minimum|Maximum)":\s*(true|false)/);
  const { $schema: _draft, id, ...rest } = schema;
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats.default(ajv);
  return ajv.compile({ ...rest, $id: String(id) });
}

type Log = {
  runs: {
    tool: { driver: { rules: { id: string }[] } };
    invocations: { executionSuccessful: boolean; exitCode: number; toolExecutionNotifications: unknown[] }[];
    results: {
      ruleId: string;
      ruleIndex: number;
      level: string;
      message: { text: string };
      locations: { physicalLocation: { artifactLocation: { uri: string }; region?: object } }[];
      partialFingerprints: Record<string, string>;
      properties: { raisedBy: string[]; scope: string };
    }[];
  }[];
};

describe("renderSarif", () => {
  it("validates against the official SARIF 2.1.0 schema", async () => {
    const validate = sarifValidator();
    const report = await sampleReport();
    const log = renderSarif(report, { version: "0.1.0" });
    const valid = validate(log);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    // An empty review is a valid log too.
    expect(validate(renderSarif({ ...report, findings: [], reviewers: [], skipped: [] }))).toBe(true);
  });

  it("catches what the schema forbids (the validator is not a pass-through)", () => {
    const validate = sarifValidator();
    expect(validate({ version: "2.1.0", runs: [{ tool: { driver: {} } }] })).toBe(false);
    expect(validate({ version: "2.0.0", runs: [] })).toBe(false);
    expect(
      validate({
        version: "2.1.0",
        runs: [{ tool: { driver: { name: "x" } }, results: [{ message: { text: "m" }, level: "fatal" }] }],
      }),
    ).toBe(false);
  });

  it("has one result per merged finding: its rule, level, place, who raised it, and a stable fingerprint", async () => {
    const report = await sampleReport();
    const log = renderSarif(report) as unknown as Log;
    const [run] = log.runs;
    if (run === undefined) throw new Error("no run");
    expect(run.tool.driver.rules.map((rule) => rule.id)).toEqual([
      "scv-review/blocker",
      "scv-review/major",
      "scv-review/minor",
      "scv-review/nit",
    ]);
    expect(
      run.results.map((result) => [
        result.ruleId,
        run.tool.driver.rules[result.ruleIndex]?.id,
        result.level,
        result.locations[0]?.physicalLocation.artifactLocation.uri,
        result.locations[0]?.physicalLocation.region ?? null,
        result.properties.raisedBy,
      ]),
    ).toEqual([
      [
        "scv-review/blocker",
        "scv-review/blocker",
        "error",
        "src/cache.ts",
        { startLine: 11, endLine: 12 },
        ["codex", "gemini"],
      ],
      [
        "scv-review/minor",
        "scv-review/minor",
        "note",
        "src/my%20file.ts",
        { startLine: 40, endLine: 40 },
        ["codex"],
      ],
      [
        "scv-review/minor",
        "scv-review/minor",
        "note",
        "src/untouched.ts",
        { startLine: 3, endLine: 3 },
        ["gemini"],
      ],
      ["scv-review/nit", "scv-review/nit", "note", "src/cache.ts", null, ["codex"]],
    ]);
    expect(run.results[0]?.message.text).toBe(
      [
        "Entry returned after eviction",
        "",
        "evict() frees the entry get() returns.",
        "A second read crashes.",
        "",
        "Suggestion:",
        "return entry ? { ...entry } : undefined; // not `entry`",
        "",
        "Raised by codex, gemini.",
      ].join("\n"),
    );
    // The same finding on other lines keeps its fingerprint; another title does not.
    const first = report.findings[0];
    if (first === undefined) throw new Error("no finding");
    const moved = renderSarif({
      ...report,
      findings: [{ ...first, line: 90, endLine: 95 }],
    }) as unknown as Log;
    const renamed = renderSarif({
      ...report,
      findings: [{ ...first, title: "Another problem" }],
    }) as unknown as Log;
    const print = (each: Log) => each.runs[0]?.results[0]?.partialFingerprints;
    expect(print(moved)).toEqual(run.results[0]?.partialFingerprints);
    expect(print(renamed)).not.toEqual(run.results[0]?.partialFingerprints);
    expect(run.invocations[0]).toMatchObject({ executionSuccessful: false, exitCode: 1 });
    expect(run.invocations[0]?.toolExecutionNotifications).toHaveLength(3);
  });
});
