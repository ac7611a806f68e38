// `npm run docs`: regenerates docs/agents.md (and the README's tables of each CLI's files and of how
// each takes an endpoint of the user's own) from the adapter table, and docs/mcp.md from the MCP
// server's tool and host tables.

import { readFileSync, writeFileSync } from "node:fs";
import { renderAgentsDoc, withAgentFiles } from "./agents-doc.js";
import { withEndpoints } from "./endpoints-doc.js";
import { renderMcpDoc } from "./mcp-doc.js";

writeFileSync("docs/agents.md", renderAgentsDoc());
writeFileSync("docs/mcp.md", renderMcpDoc());
writeFileSync("README.md", withEndpoints(withAgentFiles(readFileSync("README.md", "utf8"))));
process.stdout.write(
  "wrote docs/agents.md, docs/mcp.md, README.md's tables of each CLI's files and endpoints\n",
);
