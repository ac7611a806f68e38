// The agent CLIs that can host scv's MCP server, and how each registers one in its user configuration:
// with its own `mcp add` command where it has one that runs without questions, else by editing its
// config file the way the CLI itself does. Each also says how long it lets a tool call run and, where
// that is shorter than a delegate call may take, the setting scv raises. Checked against the pinned
// CLIs (test/real, and their `mcp add --help` in a throwaway HOME): claude 2.1.332, codex 0.171.0,
// gemini, qwen, copilot 1.0.102, opencode 1.18.33.

/** Placeholders in argument templates: the server's name, its command, its arguments (spread), and
 * its environment (spread: the host's `envFlag` and `NAME=value` for each variable). */
export const NAME = "{name}";
export const COMMAND = "{command}";
export const ARGS = "{args}";
export const ENV = "{env}";

/** A folder of the host's configuration: `$<variable>` when set, else `<fallback>` in HOME. */
export interface ConfigDir {
  readonly variable?: string;
  readonly fallback: string;
  /** A folder inside it. */
  readonly sub?: string;
}

/** Where scv sets the host's tool-call limit when its `mcp add` cannot. */
export type ToolTimeout =
  /** The host's default already outlasts a delegate call. */
  | { readonly kind: "default-suffices"; readonly why: string }
  /** A flag of its `mcp add` (in `add` already). */
  | { readonly kind: "in-add"; readonly why: string }
  /** A TOML key in the server's table of a config file, written after `mcp add`. */
  | {
      readonly kind: "toml-key";
      readonly dir: ConfigDir;
      readonly file: string;
      /** The server's table, with {name}. */
      readonly table: readonly string[];
      readonly key: string;
      readonly value: number;
    };

export type HostRegistration =
  | {
      readonly kind: "command";
      /** The adapter whose CLI runs the commands. */
      readonly agent: string;
      readonly add: readonly string[];
      /** The option of `add` that sets one variable of the server's environment. */
      readonly envFlag: string;
      readonly remove: readonly string[];
      /** What `remove` says when nothing is registered under the name (some exit 1 then). */
      readonly absent: RegExp;
      /** What `add` says when the name is taken (it does not replace it). */
      readonly taken?: RegExp;
      readonly timeout: ToolTimeout;
    }
  | {
      /** A JSON(C) config file the host reads, edited in place (comments and layout kept). */
      readonly kind: "json-file";
      readonly agent: string;
      readonly dir: ConfigDir;
      /** The files the host reads, in the order it picks the one it writes itself. */
      readonly files: readonly string[];
      /** Where the server goes in it, with {name}. */
      readonly path: readonly string[];
      /** The server's entry, with {command} and {args} in its arrays. */
      readonly entry: Readonly<Record<string, unknown>>;
      /** The entry's member that holds the server's environment, when it has one. */
      readonly envKey: string;
      readonly timeout: ToolTimeout;
    };

/** How long a tool call may take before a host with a 60-second default cuts it: a delegate call
 * answers within 55 s (its longest wait) plus the turn's start. */
export const HOST_TOOL_TIMEOUT_SECONDS = 120;

/** Gemini CLI's `mcp` commands, and Qwen Code's (a fork of it). */
const GEMINI_ADD = ["mcp", "add", "--scope", "user", ENV, NAME, COMMAND, ARGS] as const;
const GEMINI_REMOVE = ["mcp", "remove", "--scope", "user", NAME] as const;

export const MCP_HOSTS: Readonly<Record<string, HostRegistration>> = {
  claude: {
    kind: "command",
    agent: "claude",
    add: ["mcp", "add", "--scope", "user", NAME, ENV, "--", COMMAND, ARGS],
    envFlag: "-e",
    remove: ["mcp", "remove", "--scope", "user", NAME],
    absent: /No MCP server named/i,
    taken: /already exists/i,
    timeout: {
      kind: "default-suffices",
      why: "Claude Code lets a tool call run 27 hours by default (MCP_TOOL_TIMEOUT)",
    },
  },
  codex: {
    kind: "command",
    agent: "codex",
    add: ["mcp", "add", NAME, ENV, "--", COMMAND, ARGS],
    envFlag: "--env",
    remove: ["mcp", "remove", NAME],
    absent: /No MCP server named/i,
    timeout: {
      kind: "toml-key",
      dir: { variable: "CODEX_HOME", fallback: ".codex" },
      file: "config.toml",
      table: ["mcp_servers", NAME],
      key: "tool_timeout_sec",
      value: HOST_TOOL_TIMEOUT_SECONDS,
    },
  },
  gemini: {
    kind: "command",
    agent: "gemini",
    add: GEMINI_ADD,
    envFlag: "-e",
    remove: GEMINI_REMOVE,
    absent: /not found/i,
    timeout: { kind: "default-suffices", why: "Gemini CLI lets an MCP call run 10 minutes by default" },
  },
  qwen: {
    kind: "command",
    agent: "qwen",
    add: GEMINI_ADD,
    envFlag: "-e",
    remove: GEMINI_REMOVE,
    absent: /not found/i,
    timeout: { kind: "default-suffices", why: "Qwen Code lets an MCP call run 10 minutes by default" },
  },
  copilot: {
    kind: "command",
    agent: "copilot",
    add: [
      "mcp",
      "add",
      "--timeout",
      String(HOST_TOOL_TIMEOUT_SECONDS * 1000),
      ENV,
      NAME,
      "--",
      COMMAND,
      ARGS,
    ],
    envFlag: "--env",
    remove: ["mcp", "remove", NAME],
    absent: /not found/i,
    taken: /already exists/i,
    timeout: { kind: "in-add", why: "Copilot CLI cuts an MCP call at 60 s unless --timeout says otherwise" },
  },
  // `opencode mcp add` only asks its questions on a terminal.
  opencode: {
    kind: "json-file",
    agent: "opencode",
    dir: { variable: "XDG_CONFIG_HOME", fallback: ".config", sub: "opencode" },
    files: ["opencode.jsonc", "opencode.json", "config.json"],
    path: ["mcp", NAME],
    entry: {
      type: "local",
      command: [COMMAND, ARGS],
      enabled: true,
      timeout: HOST_TOOL_TIMEOUT_SECONDS * 1000,
    },
    envKey: "environment",
    timeout: {
      kind: "in-add",
      why: "OpenCode cuts an MCP call at 60 s unless the server's timeout says otherwise",
    },
  },
};

export const HOST_NAMES: readonly string[] = Object.keys(MCP_HOSTS);
