// Where scv keeps its files: $SCV_HOME (default: the platform data directory), the private agent
// homes inside it, scv's own tool prefix, and the config file.

import { userInfo } from "node:os";
import { isAbsolute, join } from "node:path";
import { DEFAULT_ACCOUNT } from "../default-account.js";
import { ScvError } from "../errors.js";

export interface Env {
  readonly [name: string]: string | undefined;
}

/** scv's home: `$SCV_HOME`, else `$XDG_DATA_HOME/scv`, else `~/.local/share/scv` (macOS:
 * `~/Library/Application Support/scv`). */
export function scvHome(env: Env): string {
  if (env.SCV_HOME) {
    // Relative, it would name a different folder in every project scv runs in, sign-ins included.
    if (!isAbsolute(env.SCV_HOME)) {
      throw new ScvError(
        "USAGE",
        `SCV_HOME '${env.SCV_HOME}' is not an absolute path — set it to one, such as $HOME/.scv`,
      );
    }
    return env.SCV_HOME;
  }
  const home = userHome(env);
  if (process.platform === "darwin") return join(home, "Library", "Application Support", "scv");
  return join(xdgDir(env.XDG_DATA_HOME) ?? join(home, ".local", "share"), "scv");
}

/** An XDG base directory variable's value; a relative one is ignored, as the XDG spec says. */
function xdgDir(value: string | undefined): string | undefined {
  return value !== undefined && isAbsolute(value) ? value : undefined;
}

/** The config file: `$SCV_CONFIG`, else `$SCV_HOME/config.toml` when `SCV_HOME` is set, else the
 * platform config directory (`~/.config/scv/config.toml`). */
export function configPath(env: Env): string {
  if (env.SCV_CONFIG) return env.SCV_CONFIG;
  if (env.SCV_HOME) return join(env.SCV_HOME, "config.toml");
  return platformConfigPath(env);
}

/** The config file in the platform config directory, whatever SCV_CONFIG and SCV_HOME say. */
function platformConfigPath(env: Env): string {
  const home = userHome(env);
  if (process.platform === "darwin") return join(home, "Library", "Preferences", "scv", "config.toml");
  return join(xdgDir(env.XDG_CONFIG_HOME) ?? join(home, ".config"), "scv", "config.toml");
}

/** Candidate config files, first match wins: `$SCV_CONFIG`; `$SCV_HOME/config.toml`; the platform
 * config directory. */
export function configCandidates(env: Env): string[] {
  if (env.SCV_CONFIG) return [env.SCV_CONFIG];
  const candidates = env.SCV_HOME ? [join(env.SCV_HOME, "config.toml")] : [];
  return [...candidates, platformConfigPath(env)];
}

/** The private home of one agent's account: `$SCV_HOME/agents/<name>` for the default account,
 * `$SCV_HOME/agents/<name>@<account>` for a named one (src/accounts.ts). */
export function agentHome(name: string, env: Env, account?: string): string {
  const folder = account === undefined || account === DEFAULT_ACCOUNT ? name : `${name}@${account}`;
  return join(scvHome(env), "agents", folder);
}

/** Files scv can rebuild (the code cache, `--version` answers): `$SCV_HOME/cache`, safe to delete. */
export function cacheDir(env: Env): string {
  return join(scvHome(env), "cache");
}

/** scv's own npm prefix for `scv agents install`, and its bin folder searched before PATH. */
function toolsPrefix(env: Env): string {
  return join(scvHome(env), "tools");
}

export function toolsBin(env: Env): string {
  return join(toolsPrefix(env), "bin");
}

/** The user's real home (never an agent home): `$HOME`, or the account's home when HOME is empty or
 * relative — scv's files must never land in whatever folder it runs in. */
export function userHome(env: Env): string {
  if (env.HOME !== undefined && isAbsolute(env.HOME)) return env.HOME;
  let account: string | undefined;
  try {
    account = userInfo().homedir;
  } catch {
    // No account entry (a container's arbitrary uid): only HOME or SCV_HOME can say.
  }
  if (account !== undefined && isAbsolute(account)) return account;
  throw new ScvError("USAGE", "no home folder — set HOME (or SCV_HOME) to an absolute path");
}
