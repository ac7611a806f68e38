// The findings' JSON Schema, as reviewers are given it: within the strict subset OpenAI's structured
// outputs take (Codex sends `--output-schema` strict), and never stricter than scv's own check — a
// reply the JSON Schema accepts, the zod schema accepts too.

import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { readReply } from "../../src/review/reply.js";
import { findingsJsonSchema } from "../../src/review/schema.js";

type Node = Record<string, unknown>;

/** Every schema node below `node`, itself included. */
function nodes(node: Node): Node[] {
  const children = [
    ...Object.values((node.properties as Record<string, Node> | undefined) ?? {}),
    ...(node.items === undefined ? [] : [node.items as Node]),
  ];
  return [node, ...children.flatMap(nodes)];
}

const STRICT_KEYWORDS = new Set([
  "type",
  "enum",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "description",
]);

describe("findingsJsonSchema", () => {
  it("is within OpenAI's strict subset: every object closed, every property required, nothing else", () => {
    const all = nodes(findingsJsonSchema());
    expect(all.length).toBeGreaterThan(10);
    for (const node of all) {
      for (const key of Object.keys(node)) expect([key, STRICT_KEYWORDS.has(key)]).toEqual([key, true]);
      if (node.type === "object") {
        expect(node.additionalProperties).toBe(false);
        expect([...(node.required as string[])].sort()).toEqual(Object.keys(node.properties as Node).sort());
      }
    }
  });

  it("accepts only what scv's own check accepts", () => {
    const validate = new Ajv({ strict: true }).compile(findingsJsonSchema());
    const finding = {
      severity: "major",
      file: "a.ts",
      line: 3,
      endLine: null,
      title: "t",
      body: "b",
      suggestion: null,
    };
    const samples: unknown[] = [
      { verdict: "approve", summary: "fine", findings: [] },
      { verdict: "comment", summary: "s", findings: [finding] },
      { verdict: "comment", summary: "s", findings: [{ ...finding, line: null }] },
      { verdict: "comment", summary: "s", findings: [{ ...finding, extra: 1 }] },
      { verdict: "comment", summary: "s", findings: [{ ...finding, severity: "critical" }] },
      { verdict: "comment", summary: "s", findings: [{ ...finding, line: 2.5 }] },
      { verdict: "lgtm", summary: "s", findings: [] },
      { verdict: "approve", summary: "s" },
    ];
    const accepted = samples.map((sample) => validate(sample));
    expect(accepted).toEqual([true, true, true, false, false, false, false, false]);
    for (const [i, sample] of samples.entries()) {
      if (accepted[i]) expect(readReply(JSON.stringify(sample)).ok).toBe(true);
    }
  });
});
