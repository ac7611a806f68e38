// `npm run docs`: regenerates docs/agents.md (and the tables of each CLI's files in docs/files.md and
// of how each takes an endpoint of the user's own in docs/endpoints.md, and the agents the README's
// opening names) from the adapter table,
// docs/mcp.md from the MCP server's tool and host tables, the review's JSON Schemas (what reviewers
// reply, what `scv review --json` prints) from src/review/, and docs/json/ from the schemas of the
// `--json` documents.

import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { renderAgentsDoc, withAgentFiles } from "./agents-doc.js";
import { withEndpoints } from "./endpoints-doc.js";
import { JSON_SCHEMA_DIR, renderJsonSchemas } from "./json-doc.js";
import { renderMcpDoc } from "./mcp-doc.js";
import { withAgentNames } from "./readme-doc.js";
import { REVIEW_SCHEMA_FILES } from "./review-schemas.js";

writeFileSync("docs/agents.md", renderAgentsDoc());
writeFileSync("docs/mcp.md", renderMcpDoc());
writeFileSync("docs/files.md", withAgentFiles(readFileSync("docs/files.md", "utf8")));
writeFileSync("docs/endpoints.md", withEndpoints(readFileSync("docs/endpoints.md", "utf8")));
writeFileSync("README.md", withAgentNames(readFileSync("README.md", "utf8")));
for (const [path, render] of Object.entries(REVIEW_SCHEMA_FILES)) writeFileSync(path, render());
// Each --json document's schema; a document that went takes its file with it.
mkdirSync(JSON_SCHEMA_DIR, { recursive: true });
const schemas = renderJsonSchemas();
for (const name of readdirSync(JSON_SCHEMA_DIR)) {
  const path = join(JSON_SCHEMA_DIR, name);
  if (!schemas.some((schema) => schema.path === path)) rmSync(path);
}
for (const schema of schemas) writeFileSync(schema.path, schema.text);
process.stdout.write(
  `wrote docs/agents.md, docs/mcp.md, docs/files.md's and docs/endpoints.md's tables, the README's agents, ${Object.keys(REVIEW_SCHEMA_FILES).join(", ")}, ${JSON_SCHEMA_DIR}/*.schema.json\n`,
);
