// The config file's schema (zod): every key scv reads, its type and what a bad value says. Loading,
// and the checks across keys, are src/home/config.ts.

import * as z from "zod/mini";
import { ACCOUNT_NAME_RULE, isAccountName } from "../accounts.js";
import { type AdapterDescriptor, EXAMPLE_AGENTS } from "../adapters.js";
import { descriptorKeys, rowField } from "../config-agents.js";
import { durationOrNoneSetting, durationSetting } from "../config-values.js";
import { lazy } from "../lazy.js";
import { notifySettingsSchema } from "../notify-settings.js";

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

export const agentSettingsShape = lazy(() => ({
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
  /** The accounts a turn naming no `@account` goes through, in order (turn/accounts-in-order.ts). */
  accounts: z.optional(accountList()),
  /** Extra variables for this agent only (e.g. IS_SANDBOX=1); set after isolation. */
  env: z.optional(z.record(envName(), z.string())),
  /** The `[mcp_servers]` this agent's turns get unless `--mcp` says otherwise. */
  mcp: z.optional(z.array(mcpServerName())),
  /** Its first turns run in a git worktree of their own (`--worktree`) unless `--no-worktree`. */
  worktree: z.optional(z.boolean()),
  /** A model endpoint or proxy of the user's own (src/turn/turn-endpoint.ts renders it as the row says). */
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

export const configSchema = lazy(() =>
  z.strictObject({
    /** How many turns `scv delegate a b c` runs at once. */
    parallel: z.optional(wholeNumber(1, MAX_PARALLEL)),
    /** How deep agents may delegate to agents through scv. */
    max_depth: z.optional(wholeNumber(0, MAX_DEPTH)),
    /** How many conversations' ACP servers are kept warm at once (src/acp/session-host/budget.ts); 0: none. */
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
