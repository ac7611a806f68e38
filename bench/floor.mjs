// The practical floor for any Node tool that runs an agent: spawn it, copy its output, pass on its
// exit code. Nothing else. Usage: node bench/floor.mjs <command> [args…]
import { spawn } from "node:child_process";

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
child.stdout.pipe(process.stdout);
child.on("close", (code) => {
  process.exitCode = code ?? 1;
});
