// The environment of a delegated agent, as a pure function of the parent's environment, the
// descriptor, the agent home and the policy. No agent inherits any agent's credential variables.

import { join } from "node:path";
import { type AdapterDescriptor, isRemovedAgentVariable } from "../adapters.js";

export type Policy = "auto" | "default";

export interface AgentEnvRequest {
  readonly parent: Readonly<Record<string, string | undefined>>;
  readonly entry: AdapterDescriptor;
  /** The agent's private home (absolute). */
  readonly home: string;
  readonly policy: Policy;
  /** Variables from the agent's section of scv's config; set last, on purpose. */
  readonly extra?: Readonly<Record<string, string>>;
}

/** XDG base variables, each pointing inside the agent home. */
const XDG_DIRS: readonly (readonly [string, string])[] = [
  ["XDG_CONFIG_HOME", ".config"],
  ["XDG_DATA_HOME", ".local/share"],
  ["XDG_CACHE_HOME", ".cache"],
  ["XDG_STATE_HOME", ".local/state"],
];

export function agentEnvironment(request: AgentEnvRequest): Record<string, string> {
  const { parent, entry, home, policy } = request;
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value !== undefined && !isRemovedAgentVariable(name)) env[name] = value;
  }
  env.HOME = home;
  for (const [name, dir] of XDG_DIRS) env[name] = join(home, dir);
  for (const [name, dir] of entry.homeEnvironment) env[name] = dir === "" ? home : join(home, dir);
  for (const [name, value] of entry.fixedEnvironment) env[name] = value;
  if (policy === "auto") {
    for (const [name, value] of entry.fullPermissionEnvironment ?? []) env[name] = value;
  }
  for (const [name, value] of Object.entries(request.extra ?? {})) env[name] = value;
  return env;
}
