// Private agent homes: `$SCV_HOME/agents/<name>/`, 0700, re-tightened when found loosened.

import { chmodSync, mkdirSync, statSync } from "node:fs";
import { agentHome, type Env, scvHome } from "./paths.js";

const PRIVATE_DIR = 0o700;

/** Creates `dir` (and parents) 0700, or tightens it to 0700 when group or others can reach it. */
export function ensurePrivateDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  const mode = statSync(dir).mode & 0o777;
  if (mode !== PRIVATE_DIR) chmodSync(dir, PRIVATE_DIR);
  return dir;
}

/** The agent's home, created 0700 on first use (scv's home too). */
export function ensureAgentHome(name: string, env: Env = process.env): string {
  ensurePrivateDir(scvHome(env));
  return ensurePrivateDir(agentHome(name, env));
}
