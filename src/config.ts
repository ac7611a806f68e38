// scv's config file (TOML), validated with zod. A malformed file is an error naming the file, the
// key and what was expected: scv never runs on a half-loaded config.

import { existsSync, statSync } from "node:fs";
import { parse as parseToml } from "smol-toml";
import * as z from "zod/mini";
import { ACCOUNT_NAME_RULE, isAccountName } from "./accounts.js";
import { type AdapterDescriptor, EXAMPLE_AGENTS, shippedAdapter } from "./adapters.js";
import {
  type AgentTable,
  configuredAgentRows,
  descriptorKeys,
  ROW_MODIFIERS,
  rowField,
} from "./config-agents.js";
import { durationOrNoneSetting, durationSetting } from "./config-values.js";
import { ScvError } from "./errors.js";
import { configCandidates, type Env } from "./home/paths.js";
import { readStateFile } from "./home/state-file.js";
import { lazy } from "./lazy.js";
import { notifySettingsSchema } from "./notify-settings.js";
import { issueAt, issueText } from "./validation.js";

const duration = durationSetting;
const durationOrNone = durationOrNoneSetting;
const policy = lazy(() => z.enum(["auto", "default"]));
const envName = lazy(() =>
  z
    .string()
    .check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: "expected a variable name such as IS_SANDBOX" })),
);
const text = lazy(() => z.string().check(z.minLength(1)));
const accountList = lazy(() =>
  z
    .array(
      z.string().check(
        z.refine(isAccountName, {
          error: `expected account names such as work — ${ACCOUNT_NAME_RULE}`,
        }),
      ),
    )
    .check(
      z.minLength(1, { error: "expected at least one account" }),
      z.refine((names: string[]) => new Set(names).size === names.length, {
        error: "an account is named twice — name each once",
      }),
    ),
);
/** A variable name, or a prefix of names ending in `*`. */
const ENV_RULE = /^[A-Za-z_][A-Za-z0-9_]*\*?$/;
const ENV_RULE_ERROR = "expected a variable name, or a prefix ending in *, such as CORP_*";
const envRule = lazy(() => z.string().check(z.regex(ENV_RULE, { error: ENV_RULE_ERROR })));

const keepRule = lazy(() =>
  z.string().check(
    z.regex(ENV_RULE, { error: ENV_RULE_ERROR }),
    z.refine((rule: string) => !rule.toUpperCase().startsWith("SCV_"), {
      error: "scv's own SCV_* variables are never passed on — remove it",
    }),
  ),
);

/** The most turns a fan-out runs at once (`parallel`, `--parallel`). */
export const MAX_PARALLEL = 64;
const MAX_DEPTH = 16;
const MAX_WARM_HOSTS = 64;
/** `review_part_bytes`: a part smaller than a few hunks helps nobody, and one larger than a model's
 * context cannot be read. */
const MIN_PART_BYTES = 4_096;
const MAX_PART_BYTES = 16 * 1024 * 1024;
/** More retries than any CLI makes by default (10 at most: docs/agents.md, "Retries"). */
const MAX_RETRIES = 100;

/** A whole number in `[min, max]`, and a message that says both ends whatever is wrong. */
function wholeNumber(min: number, max: number) {
  const error = `expected a whole number from ${min} to ${max}`;
  return z.int().check(z.gte(min, { error }), z.lte(max, { error }));
}

/** The config file is small; a bigger one (or a device that never ends) is refused, not read. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/** Keys that would name an object's prototype machinery rather than a setting. */
const RESERVED_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** An MCP server's name: a key of every CLI's config, and part of its tools' names (`mcp__docs__…`). */
export const MCP_SERVER_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const mcpServerName = lazy(() =>
  z.string().check(z.regex(MCP_SERVER_NAME, { error: "expected a server name of letters, digits, _ and -" })),
);
/** Header names as HTTP allows them. */
const headerName = lazy(() =>
  z.string().check(z.regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, { error: "expected a header name" })),
);

/** `[mcp_servers.<name>]`: a server started by the agent (`command`), or one it reaches (`url`). */
const mcpServer = lazy(() =>
  z.union(
    [
      z.strictObject({
        command: text(),
        args: z.optional(z.array(z.string())),
        /** Variables for the server alone (its secrets): scv never puts them on a command line. */
        env: z.optional(z.record(envName(), z.string())),
      }),
      z.strictObject({
        url: z.string().check(
          z.refine((value: string) => /^https?:\/\/[^\s]+$/.test(value), {
            error: "expected an http:// or https:// URL",
          }),
        ),
        headers: z.optional(z.record(headerName(), z.string())),
      }),
    ],
    {
      error:
        "expected command (with args, env) for a server scv's agent starts, or url (with headers) for one it reaches",
    },
  ),
);

/** An endpoint's base URL: http or https, in characters no config file or command line misreads, with
 * no user, password, query or fragment (a key goes in the variable `api_key_env` names, and the CLIs
 * append their paths to it). */
function isEndpointUrl(text: string): boolean {
  if (!/^https?:\/\/[A-Za-z0-9._~:/[\]@!$&'()*+,;=%-]+$/.test(text)) return false;
  try {
    const url = new URL(text);
    return url.hostname !== "" && url.username === "" && url.password === "";
  } catch {
    return false;
  }
}

const endpointUrl = lazy(() =>
  z.string().check(
    z.refine(isEndpointUrl, {
      error:
        "expected an http:// or https:// URL with no user, password or query in it, such as http://127.0.0.1:4000/v1 (the key goes in the variable api_key_env names)",
    }),
  ),
);

const agentSettingsShape = lazy(() => ({
  /** A path or command name that replaces the descriptor's command. */
  command: z.optional(text()),
  model: z.optional(text()),
  effort: z.optional(text()),
  policy: z.optional(policy()),
  /** `acp` runs this agent's turns over its ACP server, `process` its CLI once per turn. */
  transport: z.optional(z.enum(["process", "acp"])),
  timeout: z.optional(duration()),
  idle_timeout: z.optional(duration()),
  /** How long an ACP server stays up for the conversation's next turn; 0 for not at all. */
  session_idle: z.optional(durationOrNone()),
  /** A bound on the CLI's own retries, where its row's `retries` is one variable scv can set. */
  max_retries: z.optional(wholeNumber(0, MAX_RETRIES)),
  /** The accounts a turn naming no `@account` goes through, in order (turn/accounts.ts). */
  accounts: z.optional(accountList()),
  /** Extra variables for this agent only (e.g. IS_SANDBOX=1); set after isolation. */
  env: z.optional(z.record(envName(), z.string())),
  /** The `[mcp_servers]` this agent's turns get unless `--mcp` says otherwise. */
  mcp: z.optional(z.array(mcpServerName())),
  /** Its first turns run in a git worktree of their own (`--worktree`) unless `--no-worktree`. */
  worktree: z.optional(z.boolean()),
  /** A model endpoint or proxy of the user's own (src/turn/endpoint.ts renders it as the row says). */
  base_url: z.optional(endpointUrl()),
  /** The variable of scv's environment that holds the endpoint's key; its value goes to this agent
   * only, where its CLI reads a key. */
  api_key_env: z.optional(envName()),
  /** This agent's notifications, over `[notify]`'s key by key. */
  notify: z.optional(notifySettingsSchema()),
}));

/** The settings of a turn of one agent. */
const agentSettingsSchema = lazy(() => z.strictObject(agentSettingsShape()));

/** An `[agents.<name>]` table: its settings, and what changes or defines its row (src/config-agents.ts):
 * the row modifiers, and descriptor fields checked there by the table's own schema. */
const agentTable = lazy(() =>
  z.strictObject({
    ...Object.fromEntries(descriptorKeys().map((key) => [key, rowField()])),
    ...agentSettingsShape(),
    /** The shipped agent whose row this one starts from. */
    extends: z.optional(text()),
    /** Defines a shipped agent's row anew instead of changing its settings. */
    replace: z.optional(z.boolean()),
    /** Arguments added to every headless turn. */
    extra_args: z.optional(z.array(z.string())),
  }),
);

const configSchema = lazy(() =>
  z.strictObject({
    /** How many turns `scv delegate a b c` runs at once. */
    parallel: z.optional(wholeNumber(1, MAX_PARALLEL)),
    /** How deep agents may delegate to agents through scv. */
    max_depth: z.optional(wholeNumber(0, MAX_DEPTH)),
    /** How many conversations' ACP servers are kept warm at once (src/hosts/budget.ts); 0: none. */
    max_warm_hosts: z.optional(wholeNumber(0, MAX_WARM_HOSTS)),
    /** Who reviews when `scv review` names nobody: targets as `delegate` takes them, or "auto". */
    review_by: z.optional(
      z.union(
        [
          z.literal("auto"),
          z.array(text()).check(z.minLength(1, { error: "expected at least one reviewer" })),
        ],
        {
          error: `expected "auto" or a list of reviewers such as ${JSON.stringify([...EXAMPLE_AGENTS])}`,
        },
      ),
    ),
    /** The most bytes of diff one review turn is given; a larger diff is split by file. */
    review_part_bytes: z.optional(wholeNumber(MIN_PART_BYTES, MAX_PART_BYTES)),
    /** Which inherited variables delegated agents get (src/transport/env.ts). */
    isolation: z.optional(
      z.strictObject({
        remove: z.optional(z.array(envRule())),
        keep: z.optional(z.array(keepRule())),
        strict: z.optional(z.boolean()),
      }),
    ),
    defaults: z.optional(
      z.strictObject({
        policy: z.optional(policy()),
        timeout: z.optional(duration()),
        idle_timeout: z.optional(duration()),
        session_idle: z.optional(durationOrNone()),
        /** Every agent's first turns in a worktree of their own (`--worktree`). */
        worktree: z.optional(z.boolean()),
      }),
    ),
    /** Where worktrees go: `<worktree_dir>/<handle>`, absolute or relative to the repository's top
     * level (default `$SCV_HOME/worktrees/<repo-id>/`). */
    worktree_dir: z.optional(text()),
    /** A command run in each new worktree before its agent starts (`npm ci`): what a fresh checkout
     * lacks, as ignored files (`--setup`). */
    worktree_setup: z.optional(text()),
    /** Paths of the repository a fresh checkout lacks because git ignores them (node_modules, .env),
     * linked into each new worktree (src/worktrees/links.ts). */
    worktree_links: z.optional(z.array(text())),
    /** A command run in the worktree after each turn there (`--check`). */
    check: z.optional(text()),
    /** How long a check (or a worktree's setup) may run (`--check-timeout`; default 10m). */
    check_timeout: z.optional(duration()),
    agents: z.optional(z.record(z.string(), agentTable())),
    /** MCP servers a turn may be given (`--mcp`, `[agents.<name>] mcp`); none is given by default. */
    mcp_servers: z.optional(z.record(mcpServerName(), mcpServer())),
    /** What runs or shows when a job ends, fails, needs approval or cools down (src/cli/notify.ts). */
    notify: z.optional(notifySettingsSchema()),
  }),
);

export type AgentConfig = z.infer<ReturnType<typeof agentSettingsSchema>>;
export type McpServerConfig = z.infer<ReturnType<typeof mcpServer>>;
export type Config = Omit<z.infer<ReturnType<typeof configSchema>>, "agents"> & {
  /** Each agent's settings. */
  readonly agents?: Readonly<Record<string, AgentConfig>>;
  /** The rows `[agents.<name>]` tables define or change (src/config-agents.ts), checked whole. */
  readonly agentRows?: readonly AdapterDescriptor[];
};

export interface LoadedConfig {
  readonly path: string;
  readonly exists: boolean;
  readonly config: Config;
}

export function loadConfig(env: Env = process.env): LoadedConfig {
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
