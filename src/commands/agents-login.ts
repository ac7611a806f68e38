// `scv agents login <agent>`: sign an agent in inside its private home, the way its row says — the
// CLI's own sign-in (src/commands/own-sign-in.ts), the CLI opened interactively after a hint, an
// API key written where the CLI reads it, or a copy of the user's own configuration. The CLI always
// runs with the isolated environment of a delegated turn. No key is ever taken from an argument,
// and nothing scv prints contains one.

import { fstatSync } from "node:fs";
import { join } from "node:path";
import { accountLabel, parseAccountTarget } from "../accounts.js";
import { type AdapterDescriptor, type ApiKeyStore, type ImportFile, unreachable } from "../adapters.js";
import { locateAgent, requireAgent } from "../agents/lookup.js";
import { helperEnvironment, signInState } from "../agents/sign-in.js";
import { apiKeyStoreOf } from "../agents/stored-key.js";
import { isRawTerminal, promptKeyNoEcho, readKeyFromStream } from "../cli/secret-input.js";
import { EXIT, fileHint, ScvError } from "../errors.js";
import { ensureAgentHome } from "../home/agent-home.js";
import { requireValidKey } from "../home/api-key.js";
import { type Config, loadConfig } from "../home/config.js";
import { type CredentialHold, holdCredentials } from "../home/credential-hold.js";
import { keepHomeSettings } from "../home/home-settings.js";
import {
  apiKeyConflict,
  type CliRunner,
  importFiles,
  inspectStore,
  keyFile,
  saveApiKey,
} from "../home/keystore.js";
import { userHome } from "../home/paths.js";
import { clearSignInFailed } from "../home/sign-in-failures.js";
import type { CliIo } from "../io.js";
import { runBounded } from "../process/helpers.js";
import {
  importFilesOf,
  otherWays,
  type Reach,
  requireInstalled,
  requireReachable,
  runOwnCommand,
} from "./own-sign-in.js";

/** A CLI's own `login --with-api-key` only writes a file (the lab: ~0.1 s). */
const KEY_LOGIN_TIMEOUT_MS = 30_000;

export interface LoginOptions {
  readonly withApiKey?: boolean;
  readonly import?: boolean;
}

/** How this login goes, chosen from the row and the flags. `needs`: what the CLI's own sign-in needs
 * from a person, as its row says, unless the arguments after `--` are its device code. */
type Method =
  | { kind: "command"; args: readonly string[]; needs: Reach }
  | { kind: "interactive"; args: readonly string[]; hint: string; needs: Reach }
  | { kind: "api-key"; store: ApiKeyStore; fromStdin: boolean }
  | { kind: "import"; files: readonly ImportFile[] };

function isDeviceCode(extra: readonly string[], deviceCode: readonly string[] | undefined): boolean {
  return deviceCode !== undefined && extra.length > 0 && extra.join("\0") === deviceCode.join("\0");
}

function chooseMethod(
  entry: AdapterDescriptor,
  options: LoginOptions,
  extra: readonly string[],
  label: string,
): Method {
  const login = entry.login;
  if (options.withApiKey && options.import) {
    throw new ScvError("USAGE", "--with-api-key and --import are two ways to sign in — choose one");
  }
  if (options.withApiKey) {
    const store = apiKeyStoreOf(login);
    if (store === undefined) {
      throw new ScvError(
        "USAGE",
        `${entry.name} takes no API key from scv — sign in with: scv agents login ${label}`,
      );
    }
    return { kind: "api-key", store, fromStdin: true };
  }
  if (options.import) {
    const files = importFilesOf(login);
    if (files === undefined) {
      throw new ScvError(
        "USAGE",
        `${entry.name} has nothing scv may import — sign in with: scv agents login ${label}`,
      );
    }
    return { kind: "import", files };
  }
  switch (login.kind) {
    case "command":
      return {
        kind: "command",
        args: [...login.args, ...extra],
        needs: isDeviceCode(extra, login.deviceCode) ? "elsewhere" : login.needs,
      };
    case "interactive":
      return {
        kind: "interactive",
        args: [...login.args, ...extra],
        hint: login.hint,
        needs: isDeviceCode(extra, login.deviceCode) ? "elsewhere" : "terminal",
      };
    case "api-key":
      return { kind: "api-key", store: login.store, fromStdin: false };
    case "import":
      return { kind: "import", files: login.files };
    default:
      return unreachable(login);
  }
}

/** After the CLI's own sign-in: what scv can tell now. Exit 4 when it is clearly not signed in. */
async function reportAfter(
  io: CliIo,
  entry: AdapterDescriptor,
  config: Config,
  done: string,
  account: string,
): Promise<number> {
  const path = locateAgent(entry, config, io.env);
  const state = await signInState(entry, path, config, io.env, account);
  const label = accountLabel(entry.name, account);
  switch (state.state) {
    case "signed-in":
      io.stderr.write(`scv: ${label}: ${done}; ${state.detail}\n`);
      return EXIT.ok;
    case "signed-out":
      io.stderr.write(
        `scv: ${label} is still not signed in (${state.detail}) — run again: scv agents login ${label}\n`,
      );
      return EXIT.auth;
    case "unknown":
      io.stderr.write(`scv: ${label}: ${done}; ${state.detail}\n`);
      return EXIT.ok;
    default:
      return unreachable(state.state);
  }
}

async function readKey(
  io: CliIo,
  entry: AdapterDescriptor,
  fromStdin: boolean,
  label: string,
): Promise<string> {
  if (isRawTerminal(io.stdin)) {
    return promptKeyNoEcho(io.stdin, io.stderr, `${entry.product} API key (input hidden): `);
  }
  if (!fromStdin) {
    const run = `scv agents login ${label} --with-api-key`;
    // Read from a pipe only when asked to: an stdin left open by a caller would be waited on forever.
    throw new ScvError(
      "USAGE",
      stdinIsPiped()
        ? `a key on stdin is read only with --with-api-key — run: … | ${run}`
        : `no terminal to read the key from — pipe it instead: … | ${run}`,
    );
  }
  return readKeyFromStream(io.stdin);
}

/** Whether scv's stdin is a pipe, a socket or a file (something given to it), not a terminal, a
 * device such as /dev/null, or closed. */
function stdinIsPiped(): boolean {
  try {
    const stat = fstatSync(0);
    return stat.isFIFO() || stat.isSocket() || stat.isFile();
  } catch {
    return false;
  }
}

async function loginWithKey(
  io: CliIo,
  entry: AdapterDescriptor,
  config: Config,
  { store, fromStdin }: { readonly store: ApiKeyStore; readonly fromStdin: boolean },
  account: string,
): Promise<number> {
  const label = accountLabel(entry.name, account);
  // The key is read and checked before anything is created or the CLI is looked for.
  const key = requireValidKey(await readKey(io, entry, fromStdin, label));
  const home = ensureAgentHome(entry.name, io.env, account);
  const env = helperEnvironment(entry, config, io.env, account);
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
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === "string" && /^E[A-Z0-9]+$/.test(code)) {
      // scv could not write its own files (a full disk, a read-only folder): not a sign-in failure.
      throw new ScvError(
        "IO",
        `${label}: the API key was not stored, nothing was changed (${code}) — ${fileHint(code)}`,
        { cause: error },
      );
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw new ScvError(
      "AUTH_FAILED",
      `${label}: the API key was not stored — ${reason}; nothing was changed`,
      { cause: error },
    );
  }
  const inspection = await inspectStore(store, home);
  io.stderr.write(
    `scv: ${label}: API key stored in ${join(home, keyFile(store))} (0600); ${inspection.detail}\n`,
  );
  if (conflict !== undefined) io.stderr.write(`scv: ${label}: note — ${conflict}\n`);
  return EXIT.ok;
}

async function importOwnFiles(
  io: CliIo,
  entry: AdapterDescriptor,
  config: Config,
  files: readonly ImportFile[],
  account: string,
): Promise<number> {
  const retry = `scv agents login ${accountLabel(entry.name, account)}`;
  // Homes are created only once there is something to put in them.
  const problem = await importFiles(files, userHome(io.env), () =>
    ensureAgentHome(entry.name, io.env, account),
  );
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
  return reportAfter(io, entry, config, `imported ${list} (0600)`, account);
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
  const target = parseAccountTarget(agent);
  const code = await login(io, target.agent, target.account, extra, options);
  // Signed in anew: an earlier refusal no longer keeps it out of "try instead".
  if (code === EXIT.ok) clearSignInFailed(target.agent, target.account, io.env);
  return code;
}

async function login(
  io: CliIo,
  agent: string,
  account: string,
  extra: readonly string[] | undefined,
  options: LoginOptions,
): Promise<number> {
  const entry = requireAgent(agent);
  const { config } = loadConfig(io.env);
  const label = accountLabel(entry.name, account);
  const method = chooseMethod(entry, options, extra ?? [], label);
  if ((extra ?? []).length > 0 && (method.kind === "api-key" || method.kind === "import")) {
    throw new ScvError(
      "USAGE",
      method.kind === "api-key"
        ? `--with-api-key reads the key from stdin, never from the command line — run: scv agents login ${label} --with-api-key < key-file (or type it at the prompt)`
        : "arguments after -- go to the CLI's own sign-in, which this login does not run",
    );
  }
  switch (method.kind) {
    case "command":
    case "interactive": {
      const command = [entry.command, ...method.args].join(" ");
      const what = method.kind === "command" ? `\`${command}\`` : `${entry.product}'s own sign-in screen`;
      const path = requireInstalled(entry, config, io.env);
      requireReachable(io, entry, method.needs, what, otherWays(entry, io.env, account));
      const home = ensureAgentHome(entry.name, io.env, account);
      if (method.kind === "interactive")
        io.stderr.write(`scv: ${entry.product} opens now in its private home — ${method.hint}\n`);
      await keepHomeSettings(entry, home);
      const held = holdCredentials(home, entry.credentialFiles);
      return concludeOwnLogin(io, entry, held, async () => {
        await runOwnCommand(io, path, method.args, method.needs, {
          env: helperEnvironment(entry, config, io.env, account),
          cwd: home,
          command,
          retry: `scv agents login ${label}`,
        });
        return reportAfter(io, entry, config, method.kind === "command" ? "signed in" : "done", account);
      });
    }
    case "api-key":
      return loginWithKey(io, entry, config, method, account);
    case "import":
      return importOwnFiles(io, entry, config, method.files, account);
    default:
      return unreachable(method);
  }
}
