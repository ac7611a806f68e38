// `scv mcp install|uninstall <host> [--dry-run] [--agent-home]`: registers scv's MCP server in a host
// agent's user configuration (its row's `mcpHost` says how), or removes it, and prints what it did. The
// agents scv delegates to run with HOME in their private homes, so they never see this registration;
// `--agent-home` registers it there on purpose, for delegated agents that should delegate in turn
// (still bounded by max_depth).

import { existsSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative } from "node:path";
import type { AdapterDescriptor } from "../adapters.js";
import { installHint, locateAgent } from "../agents/lookup.js";
import { nodeShortfall } from "../agents/node-floor.js";
import { helperEnvironment } from "../agents/sign-in.js";
import { EXIT, ScvError } from "../errors.js";
import { ensurePrivateDir } from "../home/agent-home.js";
import { writeAtomicSync } from "../home/atomic.js";
import { type Config, loadConfig } from "../home/config.js";
import { makeDirs } from "../home/make-dirs.js";
import { scvHome, userHome } from "../home/paths.js";
import { readStateFile } from "../home/state-file.js";
import type { CliIo } from "../io.js";
import { runBounded } from "../process/helpers.js";
import { hasJsonMember, setJsonMember, setTomlKey } from "./host-app-config.js";
import {
  ARGS,
  COMMAND,
  type ConfigDir,
  ENV,
  type HostAppRegistration,
  hostAppNamed,
  NAME,
  shippedHostApps,
} from "./host-apps.js";

export interface InstallOptions {
  readonly dryRun?: boolean;
  readonly agentHome?: boolean;
}

/** The server as a host starts it. */
interface ServerSpec {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  /** Where scv's files are, when the host would not find them by itself: hosts pass on few of their
   * own variables (some: HOME, PATH and a handful), and inside a delegated agent HOME is its own. */
  readonly env: Readonly<Record<string, string>>;
}

/** A host's `mcp` commands answer at once; a slow one (a first run unpacking itself) gets a minute. */
const HOST_COMMAND_TIMEOUT_MS = 60_000;

export async function mcpInstallCommand(
  io: CliIo,
  host: string,
  options: InstallOptions = {},
): Promise<number> {
  const target = hostTarget(io, host, options);
  const say = (line: string) => io.stdout.write(`${line}\n`);
  const registration = target.registration;
  if (registration.kind === "command") {
    const remove = expand(registration.remove, target.server);
    const add = expand(registration.add, target.server, registration.envFlag);
    if (!options.dryRun) await requireHostNode(target, "install");
    if (options.dryRun) {
      say(`would run: ${shellLine(target.executable, remove)}   (drops an earlier registration, if any)`);
      say(`would run: ${shellLine(target.executable, add)}`);
    } else {
      await removeRegistration(target, remove, registration.absent);
      await addRegistration(target, add);
      say(`registered scv with ${target.product} (${target.where}): ${shellLine(target.executable, add)}`);
    }
  } else {
    const file = jsonFile(target, registration);
    const entry = expandEntry(registration, target.server);
    const path = expand(registration.path, target.server);
    if (options.dryRun) say(`would set ${path.join(".")} in ${file} to ${JSON.stringify(entry)}`);
    else {
      writeConfigFile(target, file, setJsonMember(readHostFile(file) ?? "", path, entry, file));
      say(`registered scv with ${target.product} (${target.where}): ${path.join(".")} in ${file}`);
    }
  }
  say(timeoutLine(target, options.dryRun ?? false));
  return EXIT.ok;
}

export async function mcpUninstallCommand(
  io: CliIo,
  host: string,
  options: InstallOptions = {},
): Promise<number> {
  const target = hostTarget(io, host, options);
  const say = (line: string) => io.stdout.write(`${line}\n`);
  const registration = target.registration;
  if (registration.kind === "command") {
    const remove = expand(registration.remove, target.server);
    if (options.dryRun) say(`would run: ${shellLine(target.executable, remove)}`);
    else {
      await requireHostNode(target, "uninstall");
      const removed = await removeRegistration(target, remove, registration.absent);
      say(
        removed
          ? `removed scv from ${target.product} (${target.where})`
          : `scv was not registered with ${target.product} (${target.where})`,
      );
    }
    return EXIT.ok;
  }
  const path = expand(registration.path, target.server);
  const dir = configDir(registration.dir, target.env);
  const files = registration.files
    .map((name) => join(dir, name))
    .flatMap((file) => {
      const text = readHostFile(file);
      return text !== undefined && hasJsonMember(text, path, file) ? [{ file, text }] : [];
    });
  if (files.length === 0) say(`scv was not registered with ${target.product} (${target.where})`);
  for (const { file, text } of files) {
    if (options.dryRun) say(`would remove ${path.join(".")} from ${file}`);
    else {
      writeConfigFile(target, file, setJsonMember(text, path, undefined, file));
      say(`removed scv from ${target.product}: ${path.join(".")} in ${file}`);
    }
  }
  return EXIT.ok;
}

interface HostTarget {
  readonly entry: AdapterDescriptor;
  readonly registration: HostAppRegistration;
  readonly product: string;
  /** The host CLI, for hosts registered with their own command. */
  readonly executable: string;
  /** The host's environment: the user's own, or the agent's in scv's private home. */
  readonly env: Record<string, string | undefined>;
  /** Said in messages: whose configuration. */
  readonly where: string;
  readonly server: ServerSpec;
  /** With --agent-home, scv's home: folders made below it never follow a link (home/agent-home.ts). */
  readonly privateRoot?: string;
}

function hostTarget(io: CliIo, host: string, options: InstallOptions): HostTarget {
  const found = hostAppNamed(host);
  if (found === undefined) {
    const hosts = shippedHostApps().map(({ entry }) => entry.name);
    throw new ScvError("USAGE", `scv cannot register itself with '${host}' — hosts: ${hosts.join(", ")}`);
  }
  const { entry, registration } = found;
  const { config } = loadConfig(io.env);
  const env = options.agentHome ? helperEnvironment(entry, config, io.env) : userEnvironment(io.env);
  const where = options.agentHome
    ? `scv's private home of ${entry.name}, ${env.HOME}`
    : `your user configuration in ${env.HOME}`;
  return {
    entry,
    registration,
    product: entry.product,
    executable: registration.kind === "command" ? hostExecutable(entry, config, io.env) : "",
    env,
    where,
    server: {
      name: "scv",
      command: scvCommand(),
      args: ["mcp"],
      env: { ...shownEnvironment(registration), ...serverEnvironment(io.env, options) },
    },
    ...(options.agentHome ? { privateRoot: scvHome(io.env) } : {}),
  };
}

/** SCV_HOME and SCV_CONFIG as this scv has them: set ones are passed on; for a delegated agent's host
 * both always, since its HOME would lead scv elsewhere. */
function serverEnvironment(env: NodeJS.ProcessEnv, options: InstallOptions): Record<string, string> {
  const server: Record<string, string> = {};
  const loaded = loadConfig(env);
  if (options.agentHome || env.SCV_HOME) server.SCV_HOME = scvHome(env);
  if (env.SCV_CONFIG || (options.agentHome && loaded.exists)) server.SCV_CONFIG = loaded.path;
  return server;
}

/** What the host shows its model of a result, where that is less than scv's own limit. */
function shownEnvironment(registration: HostAppRegistration): Record<string, string> {
  return registration.shownBytes === undefined
    ? {}
    : { SCV_MCP_SHOWN_BYTES: String(registration.shownBytes) };
}

/** The user's own environment, refused inside a delegated agent's turn: its HOME is scv's private
 * home of that agent, and what is registered there is what that agent would run. */
function userEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const home = userHome(env);
  const agents = join(scvHome(env), "agents");
  const inside = relative(agents, home);
  if (inside !== "" && !inside.startsWith("..")) {
    const agent = inside.split("/")[0] ?? "";
    throw new ScvError(
      "USAGE",
      `HOME is ${home}, scv's private home of ${agent}: this runs inside a delegated turn — run scv mcp install from your own shell, or add --agent-home to register scv for delegated ${agent} turns on purpose`,
    );
  }
  return env;
}

function hostExecutable(entry: AdapterDescriptor, config: Config, env: NodeJS.ProcessEnv): string {
  const path = locateAgent(entry, config, env);
  if (path === undefined) {
    throw new ScvError(
      "AGENT_NOT_INSTALLED",
      `${entry.product} is not installed ('${entry.command}' not found) — ${installHint(entry, config.agents?.[entry.name]?.command)}`,
    );
  }
  return path;
}

/** A host CLI run on a Node.js older than its row's floor fails with a stack trace: said in one line
 * instead, before it runs. */
async function requireHostNode(target: HostTarget, command: "install" | "uninstall"): Promise<void> {
  const shortfall = await nodeShortfall(target.entry, target.env);
  if (shortfall === undefined) return;
  throw new ScvError(
    "AGENT_NOT_INSTALLED",
    `${shortfall} — put a newer Node.js first on PATH, then run: scv mcp ${command} ${target.entry.name}${target.privateRoot === undefined ? "" : " --agent-home"}`,
  );
}

/** The scv a host should start: the script this one runs from, as it was invoked (an npm bin link
 * keeps pointing at the installed scv across upgrades). */
function scvCommand(): string {
  const script = process.argv[1];
  if (script === undefined)
    throw new ScvError("USAGE", "cannot tell where scv runs from — start scv by its path");
  return script;
}

function expand(template: readonly string[], server: ServerSpec, envFlag = ""): string[] {
  return template.flatMap((part) => {
    if (part === ARGS) return [...server.args];
    if (part === ENV)
      return Object.entries(server.env).flatMap(([name, value]) => [envFlag, `${name}=${value}`]);
    return [part.replace(NAME, server.name).replace(COMMAND, server.command)];
  });
}

function expandEntry(
  registration: Extract<HostAppRegistration, { kind: "json-file" }>,
  server: ServerSpec,
): Record<string, unknown> {
  const entry = Object.fromEntries(
    Object.entries(registration.entry).map(([key, value]) => [
      key,
      Array.isArray(value) ? expand(value as string[], server) : value,
    ]),
  );
  return Object.keys(server.env).length === 0
    ? entry
    : { ...entry, [registration.envKey]: { ...server.env } };
}

/** Runs the host's command in its HOME: its exit code and all it said. */
async function runHost(
  target: HostTarget,
  args: readonly string[],
): Promise<{ code: number | null; said: string }> {
  const result = await runBounded(target.executable, args, {
    env: target.env,
    cwd: target.env.HOME,
    timeoutMs: HOST_COMMAND_TIMEOUT_MS,
  });
  return { code: result.code, said: `${result.stdout}\n${result.stderr}` };
}

/** Removes an earlier registration; false when there was none. */
async function removeRegistration(
  target: HostTarget,
  args: readonly string[],
  absent: RegExp,
): Promise<boolean> {
  const { code, said } = await runHost(target, args);
  if (absent.test(said)) return false;
  if (code !== 0) throw hostFailure(target, args, "remove scv's registration", code, said);
  return true;
}

async function addRegistration(target: HostTarget, args: readonly string[]): Promise<void> {
  const { code, said } = await runHost(target, args);
  if (code !== 0) throw hostFailure(target, args, "register scv", code, said);
}

function hostFailure(
  target: HostTarget,
  args: readonly string[],
  what: string,
  code: number | null,
  said: string,
): ScvError {
  const last = said.trim().split("\n").at(-1)?.trim() ?? "";
  return new ScvError(
    "AGENT_FAILED",
    `${target.product} could not ${what} (${code === null ? "no answer in time" : `exit ${code}`}${last === "" ? "" : `: ${last.slice(0, 300)}`}) — run it yourself: ${shellLine(target.executable, args)}`,
  );
}

/** Sets the host's tool-call limit where its `mcp add` cannot, and says what it did. */
function timeoutLine(target: HostTarget, dryRun: boolean): string {
  const timeout = target.registration.timeout;
  if (timeout.kind === "default-suffices" || timeout.kind === "in-add")
    return `tool-call time limit: ${timeout.why}`;
  const file = join(configDir(timeout.dir, target.env), timeout.file);
  const edit = limitEdit(timeout, target.server, file);
  if (dryRun) return `would set ${edit.setting}`;
  const edited = edit.apply(readHostFile(file) ?? "");
  if (edited === undefined) {
    throw new ScvError(
      "AGENT_FAILED",
      `${target.product} registered scv, but ${file} has no ${edit.place} to set it in — add ${edit.setting} by hand`,
    );
  }
  writeConfigFile(target, file, edited);
  return `set ${edit.setting} (its default, 60 s, is shorter than a delegate call may take)`;
}

type FileLimit = Extract<HostAppRegistration["timeout"], { kind: "toml-key" | "json-key" }>;

/** The edit that sets a tool-call limit in a config file: what it sets, in words; where, which the host's
 * `mcp add` made; and the file's new text (undefined when that place is missing). */
function limitEdit(
  timeout: FileLimit,
  server: ServerSpec,
  file: string,
): { setting: string; place: string; apply: (text: string) => string | undefined } {
  if (timeout.kind === "toml-key") {
    const table = expand(timeout.table, server);
    return {
      setting: `${timeout.key} = ${timeout.value} in [${table.join(".")}] of ${file}`,
      place: `[${table.join(".")}] table`,
      apply: (text) => setTomlKey(text, table, timeout.key, timeout.value, file),
    };
  }
  const path = expand(timeout.path, server);
  const entry = path.slice(0, -1);
  return {
    setting: `${path.join(".")} = ${timeout.value} in ${file}`,
    place: `${entry.join(".")} entry`,
    apply: (text) =>
      hasJsonMember(text, entry, file) ? setJsonMember(text, path, timeout.value, file) : undefined,
  };
}

/** Hosts' config files hold settings and a history, and some grow large. */
const MAX_HOST_FILE_BYTES = 256 * 1024 * 1024;

/** A host's config file; undefined when there is none. One that is not a regular file (a FIFO is
 * never waited on) or cannot be read is refused: scv would otherwise write a new one over it. */
function readHostFile(file: string): string | undefined {
  const read = readStateFile(file, { maxBytes: MAX_HOST_FILE_BYTES, followLinks: true });
  if (read.kind === "absent") return undefined;
  if (read.kind === "read") return read.bytes.toString("utf8");
  throw new ScvError("IO", `${file} is ${read.why} — fix it, or register scv by hand`);
}

function configDir(dir: ConfigDir, env: Record<string, string | undefined>): string {
  const home = userHome(env);
  const fromVariable = dir.variable === undefined ? undefined : env[dir.variable];
  const base =
    fromVariable !== undefined && isAbsolute(fromVariable) ? fromVariable : join(home, dir.fallback);
  return dir.sub === undefined ? base : join(base, dir.sub);
}

/** The file the host itself would write: the first of its files that exists, else the first. */
function jsonFile(
  target: HostTarget,
  registration: Extract<HostAppRegistration, { kind: "json-file" }>,
): string {
  const dir = configDir(registration.dir, target.env);
  const files = registration.files.map((name) => join(dir, name));
  return files.find((file) => existsSync(file)) ?? (files[0] as string);
}

/** Replaces a config file whole, keeping its mode; a new one is private to the user. */
function writeConfigFile(target: HostTarget, file: string, text: string): void {
  const mode = existsSync(file) ? statSync(file).mode & 0o777 : 0o600;
  const dir = dirname(file);
  const below = target.privateRoot === undefined ? undefined : relative(target.privateRoot, dir);
  if (
    target.privateRoot !== undefined &&
    below !== undefined &&
    below !== "" &&
    !below.startsWith("..") &&
    !isAbsolute(below)
  )
    ensurePrivateDir(dir, target.privateRoot);
  else makeDirs(dir, 0o700);
  writeAtomicSync(file, text, { mode });
}

/** A command as a shell line, quoted where it needs to be. */
function shellLine(executable: string, args: readonly string[]): string {
  return [basename(executable), ...args]
    .map((part) => (/^[\w@%+=:,./-]+$/.test(part) ? part : `'${part.replaceAll("'", `'\\''`)}'`))
    .join(" ");
}
