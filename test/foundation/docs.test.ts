import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderAgentFiles, renderAgentsDoc } from "../../scripts/agents-doc.js";
import { renderEndpointsTable } from "../../scripts/endpoints-doc.js";
import { JSON_SCHEMA_DIR, renderJsonSchemas } from "../../scripts/json-doc.js";
import { renderMcpDoc } from "../../scripts/mcp-doc.js";
import { renderAgentNames } from "../../scripts/readme-doc.js";
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

  it("is named in docs/output.md, with the rule every document keeps", () => {
    const page = readFileSync("docs/output.md", "utf8");
    for (const schema of renderJsonSchemas()) expect(page).toContain(schema.path);
    expect(page).toMatch(/each field its shape has is always there, `null` where there\s+is no value/);
  });
});

describe("docs/files.md", () => {
  it("has the table of each CLI's files in its home as the rows give them (run `npm run docs` when this fails)", () => {
    expect(readFileSync("docs/files.md", "utf8")).toContain(renderAgentFiles());
  });
});

describe("docs/endpoints.md", () => {
  it("has the table of how each agent takes base_url as the rows give it (run `npm run docs` when this fails)", () => {
    expect(readFileSync("docs/endpoints.md", "utf8")).toContain(renderEndpointsTable());
  });
});

describe("README", () => {
  const readme = readFileSync("README.md", "utf8");

  it("names every agent of the table in its opening sentence (run `npm run docs` when this fails)", () => {
    const opening = readme.slice(0, readme.indexOf("\n## "));
    expect(opening).toContain(renderAgentNames());
    for (const entry of ADAPTERS) expect(opening).toContain(entry.product.replace(/ \(.*\)$/, ""));
  });

  it("lists every agent in that table, with its settings file", () => {
    const table = renderAgentFiles();
    for (const entry of ADAPTERS) {
      expect(table).toMatch(new RegExp(`^\\| \`${entry.name}\` \\| .* \\| \`${entry.ownConfig.file}\``, "m"));
    }
    expect(table.split("\n").filter((line) => line.startsWith("| `"))).toHaveLength(ADAPTERS.length);
  });

  it("explains every column of scv agents list, and --env (docs/commands.md)", () => {
    const page = readFileSync("docs/commands.md", "utf8");
    for (const column of LIST_COLUMNS) expect(page).toContain(`\`${column}\``);
    expect(page).toMatch(/^\s+--env <NAME=value>\s+\S/m);
  });

  it("documents every exit code scv uses in its exit-code table", () => {
    const table = readme.slice(
      readme.indexOf("## Exit codes"),
      readme.indexOf("\n## ", readme.indexOf("## Exit codes") + 1),
    );
    const documented = new Set([...table.matchAll(/\b(\d{1,3})\b/g)].map((match) => Number(match[1])));
    for (const [name, code] of Object.entries(EXIT))
      expect([name, documented.has(code)]).toEqual([name, true]);
  });

  it("stays a newcomer's page: at most 250 lines, the details on the pages it links", () => {
    expect(readme.split("\n").length).toBeLessThanOrEqual(250);
  });

  it("links every page of docs/, and CONTRIBUTING.md", () => {
    const pages = readdirSync("docs").filter((name) => name.endsWith(".md"));
    for (const page of [...pages.map((name) => `docs/${name}`), "CONTRIBUTING.md"])
      expect([page, readme.includes(`](${page})`)]).toEqual([page, true]);
  });
});

describe("links between the docs", () => {
  const files = [
    "README.md",
    "CONTRIBUTING.md",
    ...readdirSync("docs")
      .filter((name) => name.endsWith(".md"))
      .map((name) => `docs/${name}`),
  ];

  /** The anchors GitHub makes of a page's headings: lower case, punctuation dropped, spaces as `-`. */
  function anchors(text: string): Set<string> {
    const headings = [...text.matchAll(/^#{1,6} (.*)$/gm)].map((match) => match[1] ?? "");
    return new Set(
      headings.map((heading) =>
        heading
          .toLowerCase()
          .replace(/[^\p{L}\p{N} _-]/gu, "")
          .replaceAll(" ", "-"),
      ),
    );
  }

  it.each(files)("every relative link in %s leads to a file that exists (and a heading, for #)", (file) => {
    const text = readFileSync(file, "utf8").replace(/```[\s\S]*?```/g, "");
    const broken: string[] = [];
    for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1] ?? "";
      if (/^[a-z]+:/.test(target)) continue;
      const [path = "", anchor] = target.split("#");
      const resolved = path === "" ? file : join(dirname(file), path);
      if (!existsSync(resolved)) broken.push(target);
      else if (anchor !== undefined && !anchors(readFileSync(resolved, "utf8")).has(anchor))
        broken.push(target);
    }
    expect(broken).toEqual([]);
  });
});
