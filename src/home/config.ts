// scv's config file (TOML), validated with zod. A malformed file is an error naming the file, the
// key and what was expected: scv never runs on a half-loaded config.

import { existsSync, statSync } from "node:fs";
import { parse as parseToml } from "smol-toml";
import type * as z from "zod/mini";
import { type AdapterDescriptor, shippedAdapter } from "../adapters.js";
import { type AgentTable, configuredAgentRows, descriptorKeys, ROW_MODIFIERS } from "../config-agents.js";
import { ScvError } from "../errors.js";
import { issueAt, issueText } from "../validation.js";
import { type AgentConfig, agentSettingsShape, type Config, configSchema } from "./config-schema.js";
import { configCandidates, type Env } from "./paths.js";
import { readStateFile } from "./state-file.js";

export type { AgentConfig, Config, McpServerConfig } from "./config-schema.js";

/** The config file is small; a bigger one (or a device that never ends) is refused, not read. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/** Keys that would name an object's prototype machinery rather than a setting. */
const RESERVED_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

export interface LoadedConfig {
  readonly path: string;
  readonly exists: boolean;
  readonly config: Config;
}

export function loadConfig(env: Env): LoadedConfig {
  const candidates = configCandidates(env);
  const path = candidates.find((candidate) => existsSync(candidate));
  if (path === undefined) {
    if (env.SCV_CONFIG) {
      throw new ScvError("BAD_CONFIG", `config file ${env.SCV_CONFIG} (from SCV_CONFIG) does not exist`);
    }
    return { path: candidates.at(-1) ?? "config.toml", exists: false, config: {} };
  }
  const config = parseConfig(readConfigText(path), path);
  refuseExposedSecrets(config, path);
  return { path, exists: true, config };
}

/** A config holding MCP servers' secrets (`env`, `headers`) is a credential file: only its owner may
 * read it, as ssh demands of a key. */
function refuseExposedSecrets(config: Config, path: string): void {
  const secret = Object.entries(config.mcp_servers ?? {}).find(([, server]) =>
    "url" in server ? Object.keys(server.headers ?? {}).length > 0 : Object.keys(server.env ?? {}).length > 0,
  );
  if (secret === undefined) return;
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch {
    return;
  }
  if ((mode & 0o077) !== 0) {
    const key = `mcp_servers.${secret[0]}.${"url" in secret[1] ? "headers" : "env"}`;
    throw new ScvError(
      "BAD_CONFIG",
      `config file ${path} holds secrets (${key}) and others can read it — run: chmod 600 ${path}`,
    );
  }
}

/** The text of the config file at `path`: a regular file of at most MAX_CONFIG_BYTES, read as every
 * file of scv's (home/state-file.ts: a FIFO is not waited on, a device not read without end) except
 * that a link is followed — the user may keep the file with their dotfiles. */
function readConfigText(path: string): string {
  const read = readStateFile(path, { maxBytes: MAX_CONFIG_BYTES, followLinks: true });
  if (read.kind === "read") return read.bytes.toString("utf8");
  if (read.kind === "absent") throw new ScvError("BAD_CONFIG", `cannot read config file ${path}: it is gone`);
  throw new ScvError(
    "BAD_CONFIG",
    read.reason === "too-large"
      ? `config file ${path} is larger than ${MAX_CONFIG_BYTES / 1024 / 1024} MiB, the most scv reads — shorten it`
      : read.reason === "unreadable"
        ? `cannot read config file ${path}: ${read.why}`
        : `config file ${path} is ${read.why} — point SCV_CONFIG at a TOML file`,
  );
}

/** The dotted path of the first reserved key (`__proto__`, `constructor`, `prototype`) anywhere in
 * the parsed TOML; the TOML parser keeps them as plain keys, and a schema would drop them silently. */
function reservedKeyPath(value: unknown, path: readonly string[] = []): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    if (RESERVED_KEYS.has(key)) return [...path, key].join(".");
    const found = reservedKeyPath(inner, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Parse and validate config text; `path` names the file in messages. */
export function parseConfig(text: string, path: string): Config {
  let raw: unknown;
  try {
    raw = parseToml(text);
  } catch (error) {
    // smol-toml: "Invalid TOML document: <what>", then the lines around it; its line and column.
    const { line, column } = error as { line?: unknown; column?: unknown };
    const what = ((error as Error).message.split("\n")[0] ?? "")
      .replace(/^Invalid TOML document:\s*/, "")
      .trim();
    const where = typeof line === "number" && typeof column === "number" ? `:${line}:${column}` : "";
    throw new ScvError("BAD_CONFIG", `${path}${where}: not valid TOML: ${what} — fix it there`, {
      cause: error,
    });
  }
  const reserved = reservedKeyPath(raw);
  if (reserved !== undefined) {
    throw new ScvError("BAD_CONFIG", `${path}: ${reserved}: not a key scv allows — remove it`);
  }
  const result = configSchema().safeParse(raw, { error: issueText });
  if (!result.success) {
    const { keyPath, message } = issueAt(innermost(result.error.issues[0]), configSchema());
    const key = keyPath.length > 0 ? keyPath.join(".") : "(top level)";
    throw new ScvError("BAD_CONFIG", `${path}: ${key}: ${message}`);
  }
  const { agents: tables, ...rest } = result.data;
  if (tables === undefined) return rest;
  const agents = settingsOnly(tables);
  refuseUnknownMcpServers(agents, rest.mcp_servers, path);
  const agentRows = configuredAgentRows(tables as Readonly<Record<string, AgentTable>>, path);
  refuseUnusableEndpoints(agents, agentRows, path);
  return { ...withEndpointKeysRemoved(rest, agents), agents, agentRows };
}

/** Each agent's settings, without what belongs to its row. */
function settingsOnly(
  agents: Readonly<Record<string, Record<string, unknown>>>,
): Record<string, AgentConfig> {
  const settingKeys = Object.keys(agentSettingsShape());
  const rowOnly = new Set<string>(
    [...descriptorKeys(), ...ROW_MODIFIERS].filter((key) => !settingKeys.includes(key)),
  );
  return Object.fromEntries(
    Object.entries(agents).map(([name, table]) => [
      name,
      Object.fromEntries(Object.entries(table).filter(([key]) => !rowOnly.has(key))) as AgentConfig,
    ]),
  );
}

/** An agent's `mcp` names only servers the file declares. */
function refuseUnknownMcpServers(
  agents: Readonly<Record<string, AgentConfig>>,
  servers: Config["mcp_servers"],
  path: string,
): void {
  const declared = Object.keys(servers ?? {});
  for (const [agent, settings] of Object.entries(agents)) {
    const unknown = settings?.mcp?.find((name) => !declared.includes(name));
    if (unknown !== undefined) {
      const known = declared.length === 0 ? "none is declared" : `declared: ${declared.join(", ")}`;
      throw new ScvError(
        "BAD_CONFIG",
        `${path}: agents.${agent}.mcp: no [mcp_servers.${unknown}] in this file (${known}) — add it, or remove the name`,
      );
    }
  }
}

/** The variables holding endpoint keys (`api_key_env`) are removed from what every agent inherits, as
 * `[isolation] remove` would: each key reaches only its own agent, under the variable its CLI reads. */
function withEndpointKeysRemoved<C extends Pick<Config, "isolation">>(
  config: C,
  agents: Readonly<Record<string, AgentConfig>>,
): C {
  const keys = endpointKeyVariables({ agents });
  if (keys.length === 0) return config;
  const isolation = config.isolation ?? {};
  return { ...config, isolation: { ...isolation, remove: [...(isolation.remove ?? []), ...keys] } };
}

/** The variables of scv's environment that hold endpoint keys (`api_key_env`): what a scv started
 * detached must still have to run an agent with `base_url`. */
export function endpointKeyVariables(config: Pick<Config, "agents">): string[] {
  const names = Object.values(config.agents ?? {}).flatMap((settings) =>
    settings.api_key_env === undefined ? [] : [settings.api_key_env],
  );
  return [...new Set(names)];
}

/** `base_url` and `api_key_env` come together, for an agent whose row says how its CLI takes them. */
function refuseUnusableEndpoints(
  agents: Readonly<Record<string, AgentConfig>>,
  rows: readonly AdapterDescriptor[],
  path: string,
): void {
  for (const [name, settings] of Object.entries(agents)) {
    const at = `${path}: agents.${name}`;
    if (settings.base_url === undefined && settings.api_key_env !== undefined)
      throw new ScvError(
        "BAD_CONFIG",
        `${at}.api_key_env: names the key of base_url, which is not set — add base_url, or remove api_key_env`,
      );
    if (settings.base_url === undefined) continue;
    if (settings.api_key_env === undefined)
      throw new ScvError(
        "BAD_CONFIG",
        `${at}.base_url: needs api_key_env, the variable of your environment holding the endpoint's key — add api_key_env = "MY_ENDPOINT_KEY"`,
      );
    const row = rows.find((each) => each.name === name) ?? shippedAdapter(name);
    if (row?.endpoint.kind === "unsupported")
      throw new ScvError(
        "BAD_CONFIG",
        `${at}.base_url: ${row.product} takes no endpoint from scv (${row.endpoint.reason}) — remove base_url and api_key_env`,
      );
  }
}

/** For a value of one of several forms (an MCP server) whose form is plain but whose inside is
 * wrong: the inside's issue, at its full path. */
function innermost(issue: z.core.$ZodIssue | undefined): z.core.$ZodIssue | undefined {
  if (issue?.code !== "invalid_union") return issue;
  const inside = issue.errors
    .map((branch) => branch[0])
    .find((first) => first !== undefined && first.path.length > 0);
  return inside === undefined ? issue : { ...inside, path: [...issue.path, ...inside.path] };
}

/** The settings for one agent: its own section over `[defaults]`. */
export function agentSettings(config: Config, name: string): AgentConfig {
  const own = config.agents?.[name] ?? {};
  return { ...config.defaults, ...own };
}
