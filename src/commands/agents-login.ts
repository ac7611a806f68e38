// `scv agents login <agent>` and `scv agents logout <agent>`: sign an agent in or out inside its
// private home, the way its row says — the CLI's own command with the terminal attached, the CLI
// opened interactively after a hint, an API key written where the CLI reads it, or a copy of the
// user's own configuration. The CLI always runs with the isolated environment of a delegated turn.
// No key is ever taken from an argument, and nothing scv prints contains one.

import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  type AdapterDescriptor,
  type ApiKeyStore,
  type ImportFile,
  type Login,
  unreachable,
} from "../adapters.js";
import { installHint, locateAgent, requireAgent } from "../agents.js";
import type { CliIo } from "../cli/io.js";
import { type Config, loadConfig } from "../config.js";
import { EXIT, ScvError } from "../errors.js";
import { ensureAgentHome } from "../home/agent-home.js";
import { type CredentialHold, holdCredentials } from "../home/credential-hold.js";
import {
  apiKeyConflict,
  type CliRunner,
  importFiles,
  inspectStore,
  keyFile,
  removeStore,
  saveApiKey,
} from "../home/keystore.js";
import { agentHome, userHome } from "../home/paths.js";
import { isRawTerminal, promptKeyNoEcho, readKeyFromStream, requireValidKey } from "../home/secret-input.js";
import { type AttachedResult, runAttached, runBounded } from "../transport/bounded.js";
import { helperEnvironment, signInState } from "./agents-status.js";

/** `codex login --with-api-key` and the like only write a file (the lab: ~0.1 s). */
const KEY_LOGIN_TIMEOUT_MS = 30_000;

export interface LoginOptions {
  readonly withApiKey?: boolean;
  readonly import?: boolean;
}

/** How this login goes, chosen from the row and the flags. */
type Method =
  | { kind: "command"; args: readonly string[] }
  | { kind: "interactive"; args: readonly string[]; hint: string }
  | { kind: "api-key"; store: ApiKeyStore; fromStdin: boolean }
  | { kind: "import"; files: readonly ImportFile[] };

/** The row's `--with-api-key` store, if it has one. */
function apiKeyStoreOf(login: Login): ApiKeyStore | undefined {
  switch (login.kind) {
    case "api-key":
      return login.store;
    case "command":
    case "interactive":
      return login.apiKey;
    case "import":
      return undefined;
    default:
      return unreachable(login);
  }
}

/** The row's `--import` files, if it has any. */
function importFilesOf(login: Login): readonly ImportFile[] | undefined {
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

function chooseMethod(entry: AdapterDescriptor, options: LoginOptions, extra: readonly string[]): Method {
  const login = entry.login;
  if (options.withApiKey && options.import) {
    throw new ScvError("USAGE", "--with-api-key and --import are two ways to sign in — choose one");
  }
  if (options.withApiKey) {
    const store = apiKeyStoreOf(login);
    if (store === undefined) {
      throw new ScvError(
        "USAGE",
        `${entry.name} takes no API key from scv — sign in with: scv agents login ${entry.name}`,
      );
    }
    return { kind: "api-key", store, fromStdin: true };
  }
  if (options.import) {
    const files = importFilesOf(login);
    if (files === undefined) {
      throw new ScvError(
        "USAGE",
        `${entry.name} has nothing scv may import — sign in with: scv agents login ${entry.name}`,
      );
    }
    return { kind: "import", files };
  }
  switch (login.kind) {
    case "command":
      return { kind: "command", args: [...login.args, ...extra] };
    case "interactive":
      return { kind: "interactive", args: [...login.args, ...extra], hint: login.hint };
    case "api-key":
      return { kind: "api-key", store: login.store, fromStdin: false };
    case "import":
      return { kind: "import", files: login.files };
    default:
      return unreachable(login);
  }
}

function requireInstalled(entry: AdapterDescriptor, config: Config, env: NodeJS.ProcessEnv): string {
  const path = locateAgent(entry, config, env);
  if (path === undefined) {
    throw new ScvError(
      "AGENT_NOT_INSTALLED",
      `${entry.product} is not installed — ${installHint(entry, config.agents?.[entry.name]?.command)}`,
    );
  }
  return path;
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

/** After the CLI's own sign-in: what scv can tell now. Exit 4 when it is clearly not signed in. */
async function reportAfter(
  io: CliIo,
  entry: AdapterDescriptor,
  config: Config,
  done: string,
): Promise<number> {
  const path = locateAgent(entry, config, io.env);
  const state = await signInState(entry, path, config, io.env);
  switch (state.state) {
    case "signed-in":
      io.stderr.write(`scv: ${entry.name}: ${done}; ${state.detail}\n`);
      return EXIT.ok;
    case "signed-out":
      io.stderr.write(
        `scv: ${entry.name} is still not signed in (${state.detail}) — run again: scv agents login ${entry.name}\n`,
      );
      return EXIT.auth;
    case "unknown":
      io.stderr.write(`scv: ${entry.name}: ${done}; ${state.detail}\n`);
      return EXIT.ok;
    default:
      return unreachable(state.state);
  }
}

async function readKey(io: CliIo, entry: AdapterDescriptor, fromStdin: boolean): Promise<string> {
  if (isRawTerminal(io.stdin)) {
    return promptKeyNoEcho(io.stdin, io.stderr, `${entry.product} API key (input hidden): `);
  }
  if (!fromStdin) {
    throw new ScvError(
      "USAGE",
      `no terminal to read the key from — pipe it instead: … | scv agents login ${entry.name} --with-api-key`,
    );
  }
  return readKeyFromStream(io.stdin);
}

async function loginWithKey(
  io: CliIo,
  entry: AdapterDescriptor,
  config: Config,
  store: ApiKeyStore,
  fromStdin: boolean,
): Promise<number> {
  // The key is read and checked before anything is created or the CLI is looked for.
  const key = requireValidKey(await readKey(io, entry, fromStdin));
  const home = ensureAgentHome(entry.name, io.env);
  const env = helperEnvironment(entry, config, io.env);
  const run: CliRunner = (args, input) =>
    runBounded(requireInstalled(entry, config, io.env), args, {
      env,
      cwd: home,
      input,
      timeoutMs: KEY_LOGIN_TIMEOUT_MS,
    });
  const conflict = await apiKeyConflict(store, home);
  try {
    await saveApiKey(store, home, key, run);
  } catch (error) {
    if (error instanceof ScvError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new ScvError(
      "AUTH_FAILED",
      `${entry.name}: the API key was not stored — ${reason}; nothing was changed`,
      { cause: error },
    );
  }
  const inspection = await inspectStore(store, home);
  io.stderr.write(
    `scv: ${entry.name}: API key stored in ${join(home, keyFile(store))} (0600); ${inspection.detail}\n`,
  );
  if (conflict !== undefined) io.stderr.write(`scv: ${entry.name}: note — ${conflict}\n`);
  return EXIT.ok;
}

async function importOwnFiles(
  io: CliIo,
  entry: AdapterDescriptor,
  config: Config,
  files: readonly ImportFile[],
): Promise<number> {
  const retry = `scv agents login ${entry.name}`;
  // Homes are created only once there is something to put in them.
  const problem = await importFiles(files, userHome(io.env), () => ensureAgentHome(entry.name, io.env));
  if (problem !== undefined) {
    const shown = `~/${problem.from}`;
    switch (problem.kind) {
      case "absent":
        throw new ScvError("NOT_SIGNED_IN", `there is no ${shown} to import — sign in with: ${retry}`);
      case "unreadable":
        throw new ScvError(
          "IO",
          `${shown} cannot be read (${problem.reason}) — check it, or sign in with: ${retry}`,
        );
      case "refused":
        throw new ScvError(
          "NOT_SIGNED_IN",
          `${shown} was not imported: ${problem.reason} — sign in with: ${retry}`,
        );
      default:
        return unreachable(problem);
    }
  }
  const list = files.map((file) => `~/${file.from}`).join(", ");
  return reportAfter(io, entry, config, `imported ${list} (0600)`);
}

/** The end of a CLI's own sign-in: a sign-in that failed, was interrupted or did not end signed in
 * gets back the credential files it removed or changed, and says so. */
async function concludeOwnLogin(
  io: CliIo,
  entry: AdapterDescriptor,
  held: CredentialHold,
  conclude: () => Promise<number>,
): Promise<number> {
  let code: number;
  try {
    code = await conclude();
  } catch (error) {
    tellRestored(io, entry, held.restore());
    throw error;
  }
  if (code === EXIT.ok) held.release();
  else tellRestored(io, entry, held.restore());
  return code;
}

function tellRestored(io: CliIo, entry: AdapterDescriptor, files: readonly string[]): void {
  if (files.length > 0)
    io.stderr.write(`scv: ${entry.name}: put back the earlier sign-in (${files.join(", ")})\n`);
}

export async function agentsLoginCommand(
  io: CliIo,
  agent: string,
  extra: readonly string[] | undefined,
  options: LoginOptions,
): Promise<number> {
  const entry = requireAgent(agent);
  const { config } = loadConfig(io.env);
  const method = chooseMethod(entry, options, extra ?? []);
  if ((extra ?? []).length > 0 && (method.kind === "api-key" || method.kind === "import")) {
    throw new ScvError(
      "USAGE",
      method.kind === "api-key"
        ? `--with-api-key reads the key from stdin, never from the command line — run: scv agents login ${entry.name} --with-api-key < key-file (or type it at the prompt)`
        : "arguments after -- go to the CLI's own sign-in, which this login does not run",
    );
  }
  switch (method.kind) {
    case "command": {
      const path = requireInstalled(entry, config, io.env);
      const home = ensureAgentHome(entry.name, io.env);
      const command = [entry.command, ...method.args].join(" ");
      const held = holdCredentials(home, entry.credentialFiles);
      const result = await runAttached(path, method.args, {
        env: helperEnvironment(entry, config, io.env),
        cwd: home,
      });
      return concludeOwnLogin(io, entry, held, () => {
        requireSuccess(result, command, `scv agents login ${entry.name}`);
        return reportAfter(io, entry, config, "signed in");
      });
    }
    case "interactive": {
      const path = requireInstalled(entry, config, io.env);
      const home = ensureAgentHome(entry.name, io.env);
      io.stderr.write(`scv: ${entry.product} opens now in its private home — ${method.hint}\n`);
      const held = holdCredentials(home, entry.credentialFiles);
      const result = await runAttached(path, method.args, {
        env: helperEnvironment(entry, config, io.env),
        cwd: home,
      });
      return concludeOwnLogin(io, entry, held, () => {
        requireSuccess(result, [entry.command, ...method.args].join(" "), `scv agents login ${entry.name}`);
        return reportAfter(io, entry, config, "done");
      });
    }
    case "api-key":
      return loginWithKey(io, entry, config, method.store, method.fromStdin);
    case "import":
      return importOwnFiles(io, entry, config, method.files);
    default:
      return unreachable(method);
  }
}

export async function agentsLogoutCommand(io: CliIo, agent: string): Promise<number> {
  const entry = requireAgent(agent);
  const { config } = loadConfig(io.env);
  const logout = entry.logout;
  switch (logout.kind) {
    case "command": {
      const path = requireInstalled(entry, config, io.env);
      const home = ensureAgentHome(entry.name, io.env);
      const command = [entry.command, ...logout.args].join(" ");
      const result = await runAttached(path, logout.args, {
        env: helperEnvironment(entry, config, io.env),
        cwd: home,
      });
      requireSuccess(result, command, `scv agents logout ${entry.name}`);
      // Its exit status alone is not proof: `codex logout` exits 0 whether or not it removed anything.
      const after = await signInState(entry, path, config, io.env);
      if (after.state === "signed-in") {
        throw new ScvError(
          "AGENT_FAILED",
          `${entry.name} is still signed in after \`${command}\` (${after.detail}) — run it again: scv agents logout ${entry.name}`,
        );
      }
      io.stderr.write(`scv: ${entry.name}: signed out\n`);
      return EXIT.ok;
    }
    case "stored": {
      const home = agentHome(entry.name, io.env);
      const { removed, kept } = existsSync(home)
        ? await removeStore(logout.store, home)
        : { removed: [], kept: [] };
      io.stderr.write(
        removed.length === 0
          ? `scv: ${entry.name}: nothing to remove — it was not signed in\n`
          : `scv: ${entry.name}: signed out; removed ${removed.join(", ")}\n`,
      );
      for (const item of kept) io.stderr.write(`scv: ${entry.name}: left ${item}\n`);
      return EXIT.ok;
    }
    case "interactive": {
      const path = requireInstalled(entry, config, io.env);
      const home = ensureAgentHome(entry.name, io.env);
      io.stderr.write(`scv: ${entry.product} opens now in its private home — ${logout.hint}\n`);
      const result = await runAttached(path, logout.args, {
        env: helperEnvironment(entry, config, io.env),
        cwd: home,
      });
      requireSuccess(result, [entry.command, ...logout.args].join(" "), `scv agents logout ${entry.name}`);
      return EXIT.ok;
    }
    default:
      return unreachable(logout);
  }
}
