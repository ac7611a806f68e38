// Looking agents up for a command: by name (unknown → a usage error naming the known ones), and
// where each one's CLI is installed, honouring the config's `command` override.

import { delimiter, join } from "node:path";
import { type AdapterDescriptor, adapter, allAdapters, type KeyStore, type Verified } from "../adapters.js";
import { ScvError } from "../errors.js";
import { findExecutable } from "../executable.js";
import type { Config } from "../home/config.js";
import { type Env, toolsBin, userHome } from "../home/paths.js";

/** Directories every agent's CLI is looked for in before `PATH`, relative to the user's home. */
const USER_BIN_DIRS: readonly string[] = [".local/bin"];

function knownAgentsList(): string {
  return allAdapters()
    .map((entry) => entry.name)
    .join(", ");
}

/** The descriptor for `name`, or a usage error that lists the known agents. */
export function requireAgent(name: string): AdapterDescriptor {
  const entry = adapter(name);
  if (entry === undefined) {
    throw new ScvError("UNKNOWN_AGENT", `unknown agent '${name}' — known: ${knownAgentsList()}`);
  }
  return entry;
}

/** The agent's executable: the config's `command` override, else its search dirs and scv's tool
 * prefix, then PATH. */
export function locateAgent(entry: AdapterDescriptor, config: Config, env: Env): string | undefined {
  return resolveAgentExecutable(
    config.agents?.[entry.name]?.command ?? entry.command,
    adapterSearchDirs(entry, userHome(env), toolsBin(env)),
    env.PATH,
  );
}

/** The agent's ACP server: the config's `command` where the server is the CLI itself, else the
 * adapter's command, searched as the CLI is. */
export function locateAcpServer(entry: AdapterDescriptor, config: Config, env: Env): string | undefined {
  if (entry.acp === null) return undefined;
  const own = entry.acp.command === entry.command;
  return resolveAgentExecutable(
    (own ? config.agents?.[entry.name]?.command : undefined) ?? entry.acp.command,
    adapterSearchDirs(entry, userHome(env), toolsBin(env)),
    env.PATH,
  );
}

/** Absolute per-user search directories for `entry` under `home`: its own, then the common ones,
 * then scv's own tool prefix when given. */
export function adapterSearchDirs(entry: AdapterDescriptor, home: string, toolsBin?: string): string[] {
  const dirs = [...entry.searchDirs, ...USER_BIN_DIRS].map((dir) => join(home, dir));
  return toolsBin === undefined ? dirs : [toolsBin, ...dirs];
}

/** Resolve `command` in `searchDirs`, then on `PATH`. A command containing `/` is used as given
 * (when it is an executable file). */
export function resolveAgentExecutable(
  command: string,
  searchDirs: readonly string[],
  pathVariable: string | undefined,
): string | undefined {
  return findExecutable(command, [...searchDirs, ...(pathVariable ?? "").split(delimiter)]);
}

/** The key store that tells whether the agent is signed in without running it: its stored status,
 * else its preflight store; undefined when no file tells. */
export function signInStore(entry: AdapterDescriptor): KeyStore | undefined {
  return entry.status.kind === "stored" ? entry.status.store : entry.preflight;
}

/** How to get an agent's CLI, for the "not installed" message. `configured`: the `command` scv's
 * config names for it, which takes the place of searching: installing would change nothing. */
export function installHint(entry: AdapterDescriptor, configured?: string): string {
  if (configured !== undefined) {
    return `fix [agents.${entry.name}] command in scv's config, or remove it to search PATH`;
  }
  if (entry.packages.length === 0) {
    return `${entry.product} is not on npm — install it as its vendor documents, or set [agents.${entry.name}] command in scv's config`;
  }
  return `run: scv agents install ${entry.name} (npm: ${entry.packages.join(" ")})`;
}

/** What was checked of a row against its published CLI: `turns`, whole turns against the lab's mock;
 * `offline`, only what needs no model (its version, scv's arguments, its signed-out status); or
 * `none`. With the version checked, where one was. */
export function verification(verified: Verified): {
  readonly checked: "turns" | "offline" | "none";
  readonly version: string | null;
} {
  switch (verified.kind) {
    case "lab":
      return { checked: "turns", version: verified.version };
    case "offline":
      return { checked: "offline", version: verified.version };
    case "unverified":
      return { checked: "none", version: null };
  }
}

/** The capabilities of a row, for listings. */
export function capabilities(entry: AdapterDescriptor): {
  resume: boolean;
  structured: boolean;
  acp: boolean;
} {
  return {
    resume: entry.resume.kind === "supported",
    structured: entry.output.kind !== "text",
    acp: entry.acp !== null,
  };
}
