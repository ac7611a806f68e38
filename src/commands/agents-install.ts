// `scv agents install <agent> [--force]`: installs the row's npm package(s) with the user's own npm
// into scv's prefix (`$SCV_HOME/tools`), whose bin folder scv searches before PATH, and reports the
// version it got. An agent that is not on npm is refused with how to get it instead.

import { agentVersion } from "../agent-version.js";
import { installHint, locateAgent, requireAgent, resolveAgentExecutable } from "../agents.js";
import type { CliIo } from "../cli/io.js";
import { agentSettings, loadConfig } from "../config.js";
import { EXIT, ScvError } from "../errors.js";
import { ensureScvDir } from "../home/agent-home.js";
import { toolsBin } from "../home/paths.js";
import { runBounded } from "../os/bounded.js";

/** An install that has not finished by then is stuck (a registry that never answers); copilot's,
 * the largest, takes about a minute. */
const INSTALL_TIMEOUT_MS = 20 * 60_000;

export async function agentsInstallCommand(
  io: CliIo,
  agent: string,
  options: { force?: boolean },
): Promise<number> {
  const entry = requireAgent(agent);
  if (entry.packages.length === 0) {
    throw new ScvError("USAGE", `scv cannot install ${entry.name}: ${installHint(entry)}`);
  }
  const bin = toolsBin(io.env);
  const installed = resolveAgentExecutable(entry.command, [bin], "");
  if (installed !== undefined && !options.force) {
    io.stderr.write(`scv: ${entry.name} is already installed at ${installed} — --force reinstalls it\n`);
    return EXIT.ok;
  }
  const npm = resolveAgentExecutable("npm", [], io.env.PATH);
  if (npm === undefined) {
    throw new ScvError(
      "AGENT_NOT_INSTALLED",
      `npm is not on PATH — install Node.js with npm, or install ${entry.packages.join(" ")} yourself`,
    );
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
    ...(options.force ? ["--force"] : []),
    ...entry.packages,
  ];
  io.stderr.write(`scv: installing ${entry.packages.join(" ")} into ${prefix}\n`);
  // The user's own environment: their registry and its credentials are npm's business. Its output
  // goes to scv's stderr, so stdout stays clean.
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
    throw new ScvError(
      "AGENT_FAILED",
      `npm install ${entry.packages.join(" ")} ${how} — see npm's messages above`,
    );
  }
  const path = resolveAgentExecutable(entry.command, [bin], "");
  if (path === undefined) {
    throw new ScvError(
      "AGENT_FAILED",
      `npm installed ${entry.packages.join(" ")}, but no \`${entry.command}\` appeared in ${bin} — check the package name in scv's table`,
    );
  }
  const { config } = loadConfig(io.env);
  // As `agents list` finds it: from the package just installed, never by running the CLI in the
  // agent's home (copilot unpacks 235 MB there on its first --version).
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
