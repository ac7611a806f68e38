// `npm run docs`: regenerates docs/agents.md (and the README's tables of each CLI's files and of how
// each takes an endpoint of the user's own) from the adapter table, docs/mcp.md from the MCP
// server's tool and host tables, and the review's JSON Schemas (what reviewers reply, what
// `scv review --json` prints) from src/review/.

import { readFileSync, writeFileSync } from "node:fs";
import { renderAgentsDoc, withAgentFiles } from "./agents-doc.js";
import { withEndpoints } from "./endpoints-doc.js";
import { renderMcpDoc } from "./mcp-doc.js";
import { REVIEW_SCHEMA_FILES } from "./review-schemas.js";

writeFileSync("docs/agents.md", renderAgentsDoc());
writeFileSync("docs/mcp.md", renderMcpDoc());
writeFileSync("README.md", withEndpoints(withAgentFiles(readFileSync("README.md", "utf8"))));
for (const [path, render] of Object.entries(REVIEW_SCHEMA_FILES)) writeFileSync(path, render());
process.stdout.write(
  `wrote docs/agents.md, docs/mcp.md, README.md's tables of each CLI's files and endpoints, ${Object.keys(REVIEW_SCHEMA_FILES).join(", ")}\n`,
);
