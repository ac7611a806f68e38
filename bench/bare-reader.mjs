// The bare reader of the busy benchmark: what any Node program reading an agent's stream needs at
// least — spawn the agent, read its stdout line by line (readline), JSON.parse each line, nothing else.
// Usage: node bench/bare-reader.mjs <agent> [args…]; prints the number of lines read.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
const closed = once(child, "close");
let lines = 0;
for await (const line of createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY })) {
  if (line !== "") {
    JSON.parse(line);
    lines += 1;
  }
}
const [code] = await closed;
process.stdout.write(`${lines}\n`);
process.exitCode = code ?? 1;
