import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { renderAgentFiles, renderAgentsDoc } from "../../scripts/agents-doc.js";
import { renderEndpointsTable } from "../../scripts/endpoints-doc.js";
import { JSON_SCHEMA_DIR, renderJsonSchemas } from "../../scripts/json-doc.js";
import { renderMcpDoc } from "../../scripts/mcp-doc.js";
import { REVIEW_SCHEMA_FILES } from "../../scripts/review-schemas.js";
import { ADAPTERS } from "../../src/adapters.js";
import { LIST_COLUMNS } from "../../src/commands/agents-list.js";
import { EXIT } from "../../src/errors.js";

describe("docs/agents.md", () => {
  it("matches the adapter table (run `npm run docs` when this fails)", () => {
    expect(readFileSync("docs/agents.md", "utf8")).toBe(renderAgentsDoc());
  });

  it("has one row per agent", () => {
    const doc = renderAgentsDoc();
    for (const entry of ADAPTERS) expect(doc).toContain(`| \`${entry.name}\` | ${entry.product} |`);
  });
});

describe("the review's JSON Schemas", () => {
  it("match what reviewers are given and what --json prints (run `npm run docs` when this fails)", () => {
    for (const [path, render] of Object.entries(REVIEW_SCHEMA_FILES)) {
      expect([path, readFileSync(path, "utf8")]).toEqual([path, render()]);
    }
  });
});

describe("docs/mcp.md", () => {
  it("matches the MCP server's tool and host tables (run `npm run docs` when this fails)", () => {
    expect(readFileSync("docs/mcp.md", "utf8")).toBe(renderMcpDoc());
  });
});

describe("docs/json", () => {
  it("holds each --json document's schema as src/json-documents.ts makes it (run `npm run docs` when this fails)", () => {
    const schemas = renderJsonSchemas();
    expect(readdirSync(JSON_SCHEMA_DIR).sort()).toEqual(
      schemas.map((schema) => schema.path.split("/").at(-1)).sort(),
    );
    for (const schema of schemas)
      expect([schema.path, readFileSync(schema.path, "utf8")]).toEqual([schema.path, schema.text]);
  });

  it("is named in the README, with the rule every document keeps", () => {
    const readme = readFileSync("README.md", "utf8");
    for (const schema of renderJsonSchemas()) expect(readme).toContain(schema.path);
    expect(readme).toMatch(/each field its shape has is always there, `null` where there\s+is no value/);
  });
});

describe("README", () => {
  const readme = readFileSync("README.md", "utf8");

  it("has the table of each CLI's files in its home as the rows give them (run `npm run docs` when this fails)", () => {
    expect(readme).toContain(renderAgentFiles());
  });

  it("has the table of how each agent takes base_url as the rows give it (run `npm run docs` when this fails)", () => {
    expect(readme).toContain(renderEndpointsTable());
  });

  it("lists every agent in that table, with its settings file", () => {
    const table = renderAgentFiles();
    for (const entry of ADAPTERS) {
      expect(table).toMatch(new RegExp(`^\\| \`${entry.name}\` \\| .* \\| \`${entry.ownConfig.file}\``, "m"));
    }
    expect(table.split("\n").filter((line) => line.startsWith("| `"))).toHaveLength(ADAPTERS.length);
  });

  it("explains every column of scv agents list, and --env", () => {
    for (const column of LIST_COLUMNS) expect(readme).toContain(`\`${column}\``);
    expect(readme).toMatch(/^\s+--env <NAME=value>\s+\S/m);
  });

  it("documents every exit code scv uses in its exit-code table", () => {
    const readme = readFileSync("README.md", "utf8");
    const table = readme.slice(
      readme.indexOf("## Exit codes"),
      readme.indexOf("\n## ", readme.indexOf("## Exit codes") + 1),
    );
    const documented = new Set([...table.matchAll(/\b(\d{1,3})\b/g)].map((match) => Number(match[1])));
    for (const [name, code] of Object.entries(EXIT))
      expect([name, documented.has(code)]).toEqual([name, true]);
  });
});
