import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { renderAgentsDoc } from "../../scripts/agents-doc.js";
import { ADAPTERS } from "../../src/adapters.js";

describe("docs/agents.md", () => {
  it("matches the adapter table (run `npm run docs` when this fails)", () => {
    expect(readFileSync("docs/agents.md", "utf8")).toBe(renderAgentsDoc());
  });

  it("has one row per agent", () => {
    const doc = renderAgentsDoc();
    for (const entry of ADAPTERS) expect(doc).toContain(`| \`${entry.name}\` | ${entry.product} |`);
  });
});
