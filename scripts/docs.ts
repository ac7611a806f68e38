// `npm run docs`: regenerates docs/agents.md (and the README's table of each CLI's files) from the
// adapter table, and docs/mcp.md from the MCP server's tool and host tables.

import { readFileSync, writeFileSync } from "node:fs";
import { renderAgentsDoc, withAgentFiles } from "./agents-doc.js";
import { renderMcpDoc } from "./mcp-doc.js";

writeFileSync("docs/agents.md", renderAgentsDoc());
writeFileSync("docs/mcp.md", renderMcpDoc());
writeFileSync("README.md", withAgentFiles(readFileSync("README.md", "utf8")));
process.stdout.write("wrote docs/agents.md, docs/mcp.md, README.md's table of each CLI's files\n");
