// `scv agents install <agent> [--acp] [--force]`: installs the row's npm package(s) with the user's
// own npm into scv's prefix (`$SCV_HOME/tools`), whose bin folder scv searches before PATH, and
// reports the version it got. An agent that is not on npm is refused with how to get it instead.
// With `--acp`, the official ACP adapter its row names, for a CLI that serves no ACP itself. The
// packages' install scripts run with HOME in scv's tools home (home/tools-prefix.ts); a platform package the
// row names is installed explicitly beside its package.

import type { AdapterDescriptor } from "../adapters.js";
import { installHint, locateAgent, requireAgent, resolveAgentExecutable } from "../agents/lookup.js";
import { nodeShortfall } from "../agents/node-floor.js";
import { agentVersion } from "../agents/version.js";
import { EXIT, ScvError } from "../errors.js";
import { ensureScvDir } from "../home/agent-home.js";
import { agentSettings, loadConfig } from "../home/config.js";
import { toolsBin } from "../home/paths.js";
import { ensureScriptShell, platformPackageName } from "../home/tools-prefix.js";
import type { CliIo } from "../io.js";
import { runBounded } from "../process/helpers.js";

/** An install that has not finished by then is stuck (a registry that never answers); the largest
 * CLI's takes about a minute. */
const INSTALL_TIMEOUT_MS = 20 * 60_000;

export async function agentsInstallCommand(
  io: CliIo,
  agent: string,
  options: { force?: boolean; acp?: boolean },
): Promise<number> {
  const entry = requireAgent(agent);
  const { packages, command } = options.acp ? acpTarget(entry) : installTarget(entry);
  if (packages.length === 0) {
    throw new ScvError("USAGE", `scv cannot install ${entry.name}: ${installHint(entry)}`);
  }
  const bin = toolsBin(io.env);
  const installed = resolveAgentExecutable(command, [bin], "");
  if (installed !== undefined && !options.force) {
    io.stderr.write(`scv: ${command} is already installed at ${installed} — --force reinstalls it\n`);
    return EXIT.ok;
  }
  const npm = resolveAgentExecutable("npm", [], io.env.PATH);
  if (npm === undefined) {
    throw new ScvError(
      "AGENT_NOT_INSTALLED",
      `npm is not on PATH — install Node.js with npm, or install ${packages.join(" ")} yourself`,
    );
  }
  // npm on an older Node would pick an older release without a word.
  const shortfall = await nodeShortfall(entry, io.env);
  if (shortfall !== undefined) {
    const again = ["scv agents install", entry.name, ...(options.acp ? ["--acp"] : [])].join(" ");
    throw new ScvError("AGENT_NOT_INSTALLED", `${shortfall} — install a newer Node.js, then run: ${again}`);
  }
  // npm would make and write the prefix through a link planted there.
  const prefix = ensureScvDir(io.env, "tools");
  const args = [
    "install",
    "--global",
    "--prefix",
    prefix,
    "--no-fund",
    "--no-audit",
    // Package scripts write into HOME (PATH blocks in ~/.bashrc, folders of their own): theirs is
    // scv's tools home.
    `--script-shell=${ensureScriptShell(io.env)}`,
    ...(options.force ? ["--force"] : []),
    ...packages,
  ];
  io.stderr.write(`scv: installing ${packages.join(" ")} into ${prefix}\n`);
  // The user's own environment: their registry and its credentials are npm's business (only package
  // scripts run with another HOME). Its output goes to scv's stderr, so stdout stays clean.
  const outcome = await runBounded(npm, args, {
    env: io.env,
    timeoutMs: INSTALL_TIMEOUT_MS,
    forward: { stdout: io.stderr, stderr: io.stderr },
  });
  if (outcome.spawnError !== undefined) {
    throw new ScvError("IO", `npm could not be started (${outcome.spawnError}) — check your Node.js install`);
  }
  if (outcome.code !== 0) {
    const how = outcome.timedOut
      ? `did not finish within ${INSTALL_TIMEOUT_MS / 60_000} minutes`
      : `failed (${outcome.code === null ? "ended by a signal" : `exit ${outcome.code}`})`;
    throw new ScvError("AGENT_FAILED", `npm install ${packages.join(" ")} ${how} — see npm's messages above`);
  }
  const path = resolveAgentExecutable(command, [bin], "");
  if (path === undefined) {
    throw new ScvError(
      "AGENT_FAILED",
      `npm installed ${packages.join(" ")}, but no \`${command}\` appeared in ${bin} — check the package name in scv's table`,
    );
  }
  if (options.acp) {
    io.stderr.write(`scv: ${packages.join(" ")} installed at ${path}: ${entry.name}'s ACP server\n`);
    return EXIT.ok;
  }
  const { config } = loadConfig(io.env);
  // As `agents list` finds it: from the package just installed, never by running the CLI in the
  // agent's home (one CLI unpacks 235 MB there on its first --version).
  const version = await agentVersion({
    entry,
    executable: path,
    env: io.env,
    extra: agentSettings(config, entry.name).env,
    isolation: config.isolation,
  });
  io.stderr.write(`scv: ${entry.name} ${version ?? "(version unknown)"} installed at ${path}\n`);
  const used = locateAgent(entry, config, io.env);
  if (used !== undefined && used !== path) {
    io.stderr.write(`scv: note — scv runs ${used} for ${entry.name} (its config names that command)\n`);
  }
  return EXIT.ok;
}

/** The row's packages, and its platform package for this machine where it names one. */
function installTarget(entry: AdapterDescriptor): { packages: readonly string[]; command: string } {
  const platform = entry.platformPackage;
  return {
    packages: platform === undefined ? entry.packages : [...entry.packages, platformPackageName(platform)],
    command: entry.command,
  };
}

/** What `--acp` installs: the row's ACP adapter; a CLI serving ACP itself is installed as itself. */
function acpTarget(entry: AdapterDescriptor): { packages: readonly string[]; command: string } {
  if (entry.acp === null)
    throw new ScvError("USAGE", `${entry.product} has no ACP server scv knows — install it without --acp`);
  if (entry.acp.package === undefined)
    throw new ScvError(
      "USAGE",
      `${entry.product} serves ACP itself (${[entry.acp.command, ...entry.acp.args.filter((arg) => arg !== "{full}")].join(" ")}) — run: scv agents install ${entry.name}`,
    );
  return { packages: [entry.acp.package], command: entry.acp.command };
}
