// `npm run docs`: regenerates docs/agents.md from the adapter table and docs/mcp.md from the MCP
// server's tool and host tables.

import { writeFileSync } from "node:fs";
import { renderAgentsDoc } from "./agents-doc.js";
import { renderMcpDoc } from "./mcp-doc.js";

writeFileSync("docs/agents.md", renderAgentsDoc());
writeFileSync("docs/mcp.md", renderMcpDoc());
process.stdout.write("wrote docs/agents.md, docs/mcp.md\n");
