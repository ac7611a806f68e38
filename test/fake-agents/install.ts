// Puts the fake agent (agent.mjs) on disk under every real command name, in a folder a test puts
// first on PATH. Each launcher is a tiny CommonJS script (no package.json around it) that imports
// the shared ESM fake; the fake tells which CLI it plays from its own file name.

import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ADAPTERS } from "../../src/adapters.js";

const AGENT = pathToFileURL(join(import.meta.dirname, "agent.mjs")).href;

/** Every command an adapter runs (`claude`, `codex`, `cursor-agent`, …). */
export const FAKE_COMMANDS: readonly string[] = [...new Set(ADAPTERS.map((entry) => entry.command))];

export function installFakeAgents(binDir: string, commands: readonly string[] = FAKE_COMMANDS): void {
  mkdirSync(binDir, { recursive: true });
  for (const command of commands) {
    const path = join(binDir, command);
    writeFileSync(path, `#!${process.execPath}\nimport(${JSON.stringify(AGENT)});\n`);
    chmodSync(path, 0o755);
  }
}
