// The stand-in agent of the parser benchmark: writes one generated stream to stdout, as an agent
// CLI would, then its tally (what the stream holds) as one JSON line on stderr.
//   node node_modules/.cache/scv-bench/parser-emit.mjs <root> <claude|codex> <bytes>

import { once } from "node:events";
import { generateStream, type StreamTally } from "./generate.js";

const [root, format, bytes] = process.argv.slice(2);
if (root === undefined || (format !== "claude" && format !== "codex")) {
  throw new Error("usage: parser-emit.mjs <root> <claude|codex> <bytes>");
}
const tally: StreamTally = { lines: 0, bytes: 0, tools: 0, reply: "" };
for (const chunk of generateStream(root, format, Number(bytes), tally)) {
  if (!process.stdout.write(chunk)) await once(process.stdout, "drain");
}
process.stdout.end();
process.stderr.write(`${JSON.stringify(tally)}\n`);
