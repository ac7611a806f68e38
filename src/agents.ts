// Looking agents up for a command: by name (unknown → a usage error naming the known ones), and
// where each one's CLI is installed, honouring the config's `command` override.

import { ADAPTERS, type AdapterDescriptor, adapter, findAgentExecutable, type KeyStore } from "./adapters.js";
import type { Config } from "./config.js";
import { ScvError } from "./errors.js";
import { type Env, toolsBin, userHome } from "./home/paths.js";

export function knownAgentsList(): string {
  return ADAPTERS.map((entry) => entry.name).join(", ");
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
  return findAgentExecutable(entry, {
    command: config.agents?.[entry.name]?.command,
    home: userHome(env),
    toolsBin: toolsBin(env),
    pathVariable: env.PATH,
  });
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
