// Where scv keeps its files: $SCV_HOME (default: the platform data directory), the private agent
// homes inside it, scv's own tool prefix, and the config file.

import { homedir } from "node:os";
import { join } from "node:path";

export interface Env {
  readonly [name: string]: string | undefined;
}

/** scv's home: `$SCV_HOME`, else `$XDG_DATA_HOME/scv`, else `~/.local/share/scv` (macOS:
 * `~/Library/Application Support/scv`). */
export function scvHome(env: Env = process.env): string {
  if (env.SCV_HOME) return env.SCV_HOME;
  const home = env.HOME || homedir();
  if (process.platform === "darwin") return join(home, "Library", "Application Support", "scv");
  return join(env.XDG_DATA_HOME || join(home, ".local", "share"), "scv");
}

/** The config file: `$SCV_CONFIG`, else `$SCV_HOME/config.toml` when `SCV_HOME` is set, else the
 * platform config directory (`~/.config/scv/config.toml`). */
export function configPath(env: Env = process.env): string {
  if (env.SCV_CONFIG) return env.SCV_CONFIG;
  if (env.SCV_HOME) return join(env.SCV_HOME, "config.toml");
  const home = env.HOME || homedir();
  if (process.platform === "darwin") return join(home, "Library", "Preferences", "scv", "config.toml");
  return join(env.XDG_CONFIG_HOME || join(home, ".config"), "scv", "config.toml");
}

/** The private home of one agent: `$SCV_HOME/agents/<name>`. */
export function agentHome(name: string, env: Env = process.env): string {
  return join(scvHome(env), "agents", name);
}

/** scv's own npm prefix for `scv agents install`, and its bin folder searched before PATH. */
export function toolsPrefix(env: Env = process.env): string {
  return join(scvHome(env), "tools");
}

export function toolsBin(env: Env = process.env): string {
  return join(toolsPrefix(env), "bin");
}

/** The user's real home (never an agent home). */
export function userHome(env: Env = process.env): string {
  return env.HOME || homedir();
}
