// Which tier a test file runs in, by rule, so a new file lands in one without a list to edit:
//   stress  a file named *.stress.test.ts: load, replies of MiBs, processes racing on one file, and
//           the cases that keep scv's real durations. CI runs them once, on Node 20.
//   e2e     a file under test/e2e/, or one that drives the built scv: it imports test/helpers/scv.ts
//           (the worlds, signed-in agents, `scv …`) or test/helpers/login-world.ts (the sign-in
//           commands' homes), or names dist/scv.js. Forks, several at once.
//   unit    every other file: scv's modules in-process (threads, one module graph shared).
// test/real/ is the contract suite (vitest.real.config.ts), in no tier here.
//
// ACROSS_NODE_VERSIONS names the end-to-end files whose behaviour depends on the Node that runs them;
// CI runs them (with the unit tier) on every Node line besides 20, which runs everything.

import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

export type Tier = "unit" | "e2e" | "stress";

const ROOT = join(import.meta.dirname, "..");
const DRIVES_SCV = /helpers\/(scv|login-world)(\.js)?["']|dist\/scv\.js/;

/** What differs between Node versions, by what it exercises: the e2e files CI runs on Node 22, 24 and
 * 26 (SCV_TEST_E2E=versions: the e2e tier is these alone). */
export const ACROSS_NODE_VERSIONS: readonly string[] = [
  // signals and process groups
  "test/e2e/interrupts.test.ts",
  "test/e2e/timeouts.test.ts",
  "test/orphans/sigkill.test.ts",
  "test/orphans/sigkill-acp.test.ts",
  "test/orphans/sigkill-first-turn.test.ts",
  "test/orphans/escape.test.ts",
  // stream end: a closed stdout, lingering output
  "test/e2e/closed-output.test.ts",
  "test/e2e/lingering.test.ts",
  // the lost terminal
  "test/e2e/terminal-closed.test.ts",
  // the compile cache and the launcher
  "test/cli/compile-cache.test.ts",
  "test/cli/startup.test.ts",
  // sockets: session hosts
  "test/e2e/acp-warm.test.ts",
  "test/e2e/acp-warm-callers.test.ts",
  "test/e2e/acp-warm-cancel.test.ts",
  "test/e2e/acp-warm-end.test.ts",
  "test/e2e/acp-warm-fallback.test.ts",
  "test/e2e/acp-warm-model.test.ts",
  "test/e2e/acp-warm-socket.test.ts",
  // the SDKs' loading: MCP server, ACP client
  "test/mcp/server.test.ts",
  "test/mcp/server-jobs.test.ts",
  "test/e2e/acp.test.ts",
  "test/e2e/acp-policy.test.ts",
  "test/e2e/acp-end.test.ts",
  "test/e2e/acp-server.test.ts",
  "test/e2e/acp-terminal.test.ts",
];

export function tierOf(file: string, text: string): Tier {
  if (file.endsWith(".stress.test.ts")) return "stress";
  if (file.startsWith("test/e2e/") || DRIVES_SCV.test(text)) return "e2e";
  return "unit";
}

/** The test files of each tier, as paths from the repository's root. */
export function testTiers(root = ROOT): Record<Tier, string[]> {
  const tiers: Record<Tier, string[]> = { unit: [], e2e: [], stress: [] };
  for (const name of readdirSync(join(root, "test"), { recursive: true, encoding: "utf8" })) {
    const file = relative(root, join(root, "test", name));
    if (!file.endsWith(".test.ts") || file.startsWith("test/real/")) continue;
    tiers[tierOf(file, readFileSync(join(root, file), "utf8"))].push(file);
  }
  for (const files of Object.values(tiers)) files.sort();
  return tiers;
}
