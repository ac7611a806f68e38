// Running an agent CLI's own sign-in or sign-out for `scv agents login|logout`: found where scv
// finds it, run in its home with the isolated environment of a delegated turn, and the way its row
// says it needs: alone within a time limit, or attached to the terminal for a person to answer. One
// that needs a terminal (or a browser on this machine) is refused at once where there is none,
// with the ways the row offers to sign in without it; started anyway, it would wait forever.

import { join } from "node:path";
import { accountLabel, DEFAULT_ACCOUNT } from "../accounts.js";
import { type AdapterDescriptor, type ImportFile, type Login, type Needs, unreachable } from "../adapters.js";
import { installHint, locateAgent } from "../agents/lookup.js";
import { apiKeyStoreOf } from "../agents/stored-key.js";
import { ScvError } from "../errors.js";
import type { Config } from "../home/config.js";
import { agentHome } from "../home/paths.js";
import type { CliIo } from "../io.js";
import { type AttachedResult, runAttached, runBounded } from "../process/helpers.js";

/** What a run of a CLI's own sign-in or sign-out needs: what its row says, or `elsewhere` for its
 * device code (a person enters a code it shows on any device: no terminal here, but no short limit). */
export type Reach = Needs | "elsewhere";

/** A sign-in or sign-out that needs nothing from a person only writes or removes a file or two. */
const UNATTENDED_TIMEOUT_MS = 30_000;

export function requireInstalled(entry: AdapterDescriptor, config: Config, env: NodeJS.ProcessEnv): string {
  const path = locateAgent(entry, config, env);
  if (path === undefined) {
    throw new ScvError(
      "AGENT_NOT_INSTALLED",
      `${entry.product} is not installed — ${installHint(entry, config.agents?.[entry.name]?.command)}`,
    );
  }
  return path;
}

/** The row's `--import` files, if it has any. */
export function importFilesOf(login: Login): readonly ImportFile[] | undefined {
  switch (login.kind) {
    case "import":
      return login.files;
    case "command":
    case "interactive":
      return login.import;
    case "api-key":
      return undefined;
    default:
      return unreachable(login);
  }
}

/** Whether a browser a CLI opens shows up where its user is: a graphical session (X11, Wayland), or
 * macOS and Windows, which have one. */
function hasDisplay(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): boolean {
  if (platform === "darwin" || platform === "win32") return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/** The ways the row offers to sign in without the CLI's own sign-in, each with its command line. */
export function otherWays(
  entry: AdapterDescriptor,
  env: NodeJS.ProcessEnv,
  account: string = DEFAULT_ACCOUNT,
): string[] {
  const login = entry.login;
  const ways: string[] = [];
  const name = accountLabel(entry.name, account);
  if (apiKeyStoreOf(login) !== undefined)
    ways.push(`pipe an API key: … | scv agents login ${name} --with-api-key`);
  if ((login.kind === "command" || login.kind === "interactive") && login.deviceCode !== undefined) {
    ways.push(`use its device code: scv agents login ${name} -- ${login.deviceCode.join(" ")}`);
  }
  const files = importFilesOf(login);
  if (files !== undefined) {
    ways.push(
      `copy your own ${files.map((file) => `~/${file.from}`).join(", ")}: scv agents login ${name} --import`,
    );
  }
  if (entry.ownConfig.signsIn) {
    ways.push(
      `set a provider and its key in its config, ${join(agentHome(entry.name, env, account), entry.ownConfig.file)}`,
    );
  }
  return ways;
}

/** Refuses a sign-in or sign-out that needs what is not here: a terminal (or, for one a browser
 * finishes, a terminal or a display). With a terminal but no display, says how to do without a
 * browser before it starts. */
export function requireReachable(
  io: CliIo,
  entry: AdapterDescriptor,
  needs: Reach,
  what: string,
  ways: readonly string[],
): void {
  const terminal = io.stdin.isTTY === true;
  const display = hasDisplay(io.env);
  const instead = ways.length === 0 ? "run it in a terminal" : ways.join(", or ");
  switch (needs) {
    case "nothing":
    case "elsewhere":
      return;
    case "terminal":
      if (!terminal)
        throw new ScvError("USAGE", `${what} asks at a terminal, and there is none — ${instead}`);
      return;
    case "browser":
      if (!terminal && !display) {
        throw new ScvError(
          "USAGE",
          `${what} finishes in a browser on this machine or at a terminal, and there is neither — ${instead}`,
        );
      }
      if (!display && ways.length > 0) {
        io.stderr.write(
          `scv: ${entry.name}: no display here — if no browser here can finish it, ${instead}\n`,
        );
      }
      return;
    default:
      unreachable(needs);
  }
}

/** Runs the CLI's own sign-in or sign-out: alone within a time limit when it needs nothing from a
 * person (its output passed on), else attached to the terminal. Fails unless it exited 0. */
export async function runOwnCommand(
  io: CliIo,
  path: string,
  args: readonly string[],
  needs: Reach,
  options: { env: Record<string, string>; cwd: string; command: string; retry: string },
): Promise<void> {
  const { command, retry } = options;
  if (needs !== "nothing") {
    requireSuccess(await runAttached(path, args, options), command, retry);
    return;
  }
  const result = await runBounded(path, args, {
    env: options.env,
    cwd: options.cwd,
    timeoutMs: UNATTENDED_TIMEOUT_MS,
    forward: { stdout: io.stdout, stderr: io.stderr },
  });
  if (result.spawnError !== undefined) {
    throw new ScvError(
      "AGENT_FAILED",
      `\`${command}\` could not be started — check the installation, then: ${retry}`,
    );
  }
  if (result.timedOut) {
    throw new ScvError(
      "AGENT_FAILED",
      `\`${command}\` did not finish within ${UNATTENDED_TIMEOUT_MS / 1000}s — see its messages above, then: ${retry}`,
    );
  }
  if (result.code !== 0) {
    const how = result.code === null ? "was ended by a signal" : `exited with ${result.code}`;
    throw new ScvError("AUTH_FAILED", `\`${command}\` ${how} — see its messages above, then: ${retry}`);
  }
}

/** Fails unless the attached CLI exited 0. */
function requireSuccess(result: AttachedResult, command: string, retry: string): void {
  if (result.stoppedBy !== undefined) {
    // scv itself was stopped (or its terminal closed) and ended the CLI: it exits for that signal.
    throw new ScvError(
      result.stoppedBy === "SIGTERM" ? "TERMINATED" : "HANGUP",
      `\`${command}\` was ended with scv (${result.stoppedBy}) — run again: ${retry}`,
    );
  }
  if (result.code === 0) return;
  if (result.signal === "SIGINT" || result.signal === "SIGTERM") {
    throw new ScvError("INTERRUPTED", `\`${command}\` was interrupted — run again: ${retry}`);
  }
  if (result.spawnError !== undefined) {
    throw new ScvError(
      "AGENT_FAILED",
      `\`${command}\` could not be started — check the installation, then: ${retry}`,
    );
  }
  const how = result.code === undefined ? `ended by ${result.signal}` : `exited with ${result.code}`;
  throw new ScvError("AUTH_FAILED", `\`${command}\` ${how} — see its messages above, then: ${retry}`);
}
