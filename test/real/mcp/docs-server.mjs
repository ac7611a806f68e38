// A tiny stdio MCP server for the contract suite: one tool, `lookup`, whose answer proves the server
// got its secret (DOCS_TOKEN, from `[mcp_servers.docs] env`) without ever sending it: the answer
// carries its SHA-256. JSON-RPC, one message a line, as MCP's stdio transport frames it.
import { createHash } from "node:crypto";
import { createInterface } from "node:readline";

const token = process.env.DOCS_TOKEN;
// Whose documentation: a decoy server (a project's own) says so in its tool's description.
const owner = process.argv[2] ?? "project's";
const proof = token === undefined ? "no-token" : createHash("sha256").update(token).digest("hex");

function send(message) {
  process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
}

const answers = {
  initialize: (params) => ({
    protocolVersion: params?.protocolVersion ?? "2025-06-18",
    capabilities: { tools: {} },
    serverInfo: { name: "scv-contract-docs", version: "1.0.0" },
  }),
  "tools/list": () => ({
    tools: [
      {
        name: "lookup",
        description: `Look a topic up in the ${owner} documentation.`,
        inputSchema: { type: "object", properties: { topic: { type: "string" } }, required: ["topic"] },
      },
    ],
  }),
  "tools/call": (params) => ({
    content: [{ type: "text", text: `DOCS-ANSWER topic=${params?.arguments?.topic} proof=${proof}` }],
  }),
  ping: () => ({}),
};

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === "") continue;
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    continue;
  }
  if (message.id === undefined) continue;
  const answer = answers[message.method];
  if (answer === undefined) send({ id: message.id, error: { code: -32601, message: "method not found" } });
  else send({ id: message.id, result: answer(message.params) });
}
