// `npm test`: the build, then the checks (`npm run check`: tsc, biome, the module rules) beside the
// unit and e2e tiers (vitest.config.ts). The checks are mostly tsc on one core, the end-to-end tests
// mostly wait on processes: side by side they take about the time of the tests alone. The checks'
// output is printed once the tests are done; the exit code is the first failure's.
// Arguments go to vitest (`npm test -- test/mcp`).

import { spawn } from "node:child_process";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/** Runs `command`, its output passed through (or kept, with `quiet`); resolves to its exit code and
 * what it printed. */
function run(command, args, { quiet = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: ["ignore", quiet ? "pipe" : "inherit", quiet ? "pipe" : "inherit"],
    });
    const output = [];
    child.stdout?.on("data", (chunk) => output.push(chunk));
    child.stderr?.on("data", (chunk) => output.push(chunk));
    child.on("close", (code, signal) =>
      resolve({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(output) }),
    );
  });
}

const build = await run(npm, ["run", "--silent", "build"]);
if (build.code !== 0) process.exit(build.code);

const checks = run(npm, ["run", "--silent", "check"], { quiet: true });
const tests = await run(process.execPath, [
  "node_modules/vitest/vitest.mjs",
  "run",
  "--project",
  "unit",
  "--project",
  "e2e",
  ...process.argv.slice(2),
]);
const checked = await checks;
process.stdout.write(checked.output);
process.stdout.write(checked.code === 0 ? "npm run check: passed\n" : "npm run check: FAILED (above)\n");
process.exit(checked.code !== 0 ? checked.code : tests.code);
