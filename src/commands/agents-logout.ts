// `scv agents logout <agent>`: removes the agent's sign-in from its private home, the way its row
// says — the CLI's own sign-out (src/commands/own-sign-in.ts), scv removing its key store's
// credentials, or the CLI opened interactively. Whatever scv itself stored (a key written by
// `login --with-api-key`) scv removes itself, with no CLI and no terminal; the CLI is opened only
// where a sign-in of its own may remain.

import { existsSync } from "node:fs";
import { join } from "node:path";
import { accountLabel, parseAccountTarget } from "../accounts.js";
import { type AdapterDescriptor, unreachable } from "../adapters.js";
import { requireAgent } from "../agents/lookup.js";
import { helperEnvironment, signInState } from "../agents/sign-in.js";
import { apiKeyStoreOf } from "../agents/stored-key.js";
import { EXIT, ScvError } from "../errors.js";
import { ensureAgentHome } from "../home/agent-home.js";
import { type Config, loadConfig } from "../home/config.js";
import { keepHomeSettings } from "../home/home-settings.js";
import { type RemoveResult, removeStore, storeFiles } from "../home/keystore.js";
import { agentHome } from "../home/paths.js";
import type { CliIo } from "../io.js";
import { requireInstalled, requireReachable, runOwnCommand } from "./own-sign-in.js";

export async function agentsLogoutCommand(io: CliIo, agent: string): Promise<number> {
  const target = parseAccountTarget(agent);
  const entry = requireAgent(target.agent);
  const { account } = target;
  const label = accountLabel(entry.name, account);
  const { config } = loadConfig(io.env);
  const logout = entry.logout;
  const retry = `scv agents logout ${label}`;
  switch (logout.kind) {
    case "command": {
      const command = [entry.command, ...logout.args].join(" ");
      const path = requireInstalled(entry, config, io.env);
      requireReachable(io, entry, logout.needs, `\`${command}\``, []);
      const home = ensureAgentHome(entry.name, io.env, account);
      await keepHomeSettings(entry, home);
      await runOwnCommand(io, path, logout.args, logout.needs, {
        env: helperEnvironment(entry, config, io.env, account),
        cwd: home,
        command,
        retry,
      });
      // Its exit status alone is not proof: a CLI's logout may exit 0 whether or not it removed anything.
      const after = await signInState(entry, path, config, io.env, account);
      if (after.state === "signed-in") {
        throw new ScvError(
          "AGENT_FAILED",
          `${label} is still signed in after \`${command}\` (${after.detail}) — run it again: ${retry}`,
        );
      }
      io.stderr.write(`scv: ${label}: signed out\n`);
      return EXIT.ok;
    }
    case "stored": {
      const home = agentHome(entry.name, io.env, account);
      const result = existsSync(home) ? await removeStore(logout.store, home) : { removed: [], kept: [] };
      tellRemoved(io, label, result);
      return EXIT.ok;
    }
    case "interactive":
      return interactiveLogout(io, entry, config, logout, account);
    default:
      return unreachable(logout);
  }
}

/** The key scv stored goes first. The CLI's own sign-out screen is opened only where the CLI may
 * hold a sign-in of its own: scv stored nothing for it, or one of its other credential files is
 * there. */
async function interactiveLogout(
  io: CliIo,
  entry: AdapterDescriptor,
  config: Config,
  { args, hint }: { readonly args: readonly string[]; readonly hint: string },
  account: string,
): Promise<number> {
  const label = accountLabel(entry.name, account);
  const home = agentHome(entry.name, io.env, account);
  const store = apiKeyStoreOf(entry.login);
  const result: RemoveResult =
    store !== undefined && existsSync(home) ? await removeStore(store, home) : { removed: [], kept: [] };
  const scvs = store === undefined ? [] : storeFiles(store);
  const others = entry.credentialFiles.filter((file) => !scvs.includes(file) && existsSync(join(home, file)));
  if (store !== undefined && others.length === 0) {
    tellRemoved(io, label, result);
    return EXIT.ok;
  }
  if (result.removed.length > 0) {
    io.stderr.write(`scv: ${label}: removed ${result.removed.join(", ")}\n`);
  }
  const left = others.length === 0 ? "" : ` (${others.join(", ")} remain)`;
  const path = requireInstalled(entry, config, io.env);
  requireReachable(io, entry, "terminal", `${entry.product}'s own sign-out${left}`, []);
  await keepHomeSettings(entry, ensureAgentHome(entry.name, io.env, account));
  io.stderr.write(`scv: ${entry.product} opens now in its private home — ${hint}\n`);
  await runOwnCommand(io, path, args, "terminal", {
    env: helperEnvironment(entry, config, io.env, account),
    cwd: home,
    command: [entry.command, ...args].join(" "),
    retry: `scv agents logout ${label}`,
  });
  return EXIT.ok;
}

function tellRemoved(io: CliIo, label: string, result: RemoveResult): void {
  io.stderr.write(
    result.removed.length === 0
      ? `scv: ${label}: nothing to remove — it was not signed in\n`
      : `scv: ${label}: signed out; removed ${result.removed.join(", ")}\n`,
  );
  for (const item of result.kept) io.stderr.write(`scv: ${label}: left ${item}\n`);
}
