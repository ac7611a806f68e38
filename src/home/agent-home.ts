// Private agent homes: `$SCV_HOME/agents/<name>/`, 0700, re-tightened when found loosened.

import { chmodSync, lstatSync, statSync } from "node:fs";
import { join } from "node:path";
import { makeDirs } from "./make-dirs.js";
import { agentHome, type Env, scvHome } from "./paths.js";

const PRIVATE_DIR = 0o700;

/** Creates `dir` (and parents) 0700, or tightens it to 0700 when group or others can reach it. */
export function ensurePrivateDir(dir: string): string {
  makeDirs(dir, PRIVATE_DIR);
  const mode = statSync(dir).mode & 0o777;
  if (mode !== PRIVATE_DIR) chmodSync(dir, PRIVATE_DIR);
  return dir;
}

/** The agent's home, created 0700 on first use (scv's home too). */
export function ensureAgentHome(name: string, env: Env = process.env): string {
  ensurePrivateDir(scvHome(env));
  return ensurePrivateDir(agentHome(name, env));
}

/** Puts the agent's credential files (relative to `home`) back to 0600 where the CLI rewrote one
 * looser (Qwen Code rewrites settings.json, which holds the key, as 0644 on its first turn). Never a
 * symlink's target; a file that is not there is nothing to do. */
export function tightenCredentialFiles(home: string, files: readonly string[]): void {
  for (const file of files) {
    const path = join(home, file);
    try {
      const stats = lstatSync(path, { throwIfNoEntry: false });
      if (stats?.isFile() && (stats.mode & 0o077) !== 0) chmodSync(path, 0o600);
    } catch {
      // Absent, or gone meanwhile.
    }
  }
}
