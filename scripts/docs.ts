// `npm run docs`: regenerates docs/agents.md from the adapter table.

import { writeFileSync } from "node:fs";
import { renderAgentsDoc } from "./agents-doc.js";

writeFileSync("docs/agents.md", renderAgentsDoc());
process.stdout.write("wrote docs/agents.md\n");
