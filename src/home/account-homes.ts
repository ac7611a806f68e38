// Which named accounts of an agent have a home: the folders `agents/<agent>@<account>` scv made
// when they were signed in or ran a turn. The default account's home is `agents/<agent>` itself.

import { readdirSync } from "node:fs";
import { join } from "node:path";
import { isAccountName } from "../accounts.js";
import { agentHome, type Env, scvHome } from "./paths.js";

/** The named accounts of `agent` with a home, sorted; none when scv's home has no agents folder. */
export function namedAccounts(agent: string, env: Env): string[] {
  let names: string[];
  try {
    names = readdirSync(join(scvHome(env), "agents"));
  } catch {
    return [];
  }
  const prefix = `${agent}@`;
  return names
    .filter((name) => name.startsWith(prefix) && isAccountName(name.slice(prefix.length)))
    .map((name) => name.slice(prefix.length))
    .sort();
}

/** The homes of every account of `agent`: the default one first, then each named one's. */
export function agentHomes(agent: string, env: Env): string[] {
  return [
    agentHome(agent, env),
    ...namedAccounts(agent, env).map((account) => agentHome(agent, env, account)),
  ];
}
