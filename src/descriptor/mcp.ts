// How a CLI run for one turn is given the MCP servers of that turn (src/turn/mcp-servers.ts renders
// them).

import * as z from "zod/mini";
import { args, argsWith, envName, type Field, keyPath, pattern, text, verified } from "./fields.js";

/** The shape of a file of MCP servers scv writes for one turn. A stdio server's variables are never
 * in it: they go to a 0600 file of their own that `/bin/sh` sources. `mcp-servers`: `{"mcpServers":
 * {name: {command, args} | {type: "http", url, headers}}}`; `mcp-servers-typed`: the same with every
 * server typed (`type: "local"` for a command) and `tools: ["*"]` on each; `mcp-local-remote`:
 * `{"mcp": {name: {type: "local", command: [command, ...args]} | {type: "remote", url, headers}}}`,
 * each `enabled`. */
const mcpFileFormat = () => z.enum(["mcp-servers", "mcp-servers-typed", "mcp-local-remote"]);
export type McpFileFormat = Field<typeof mcpFileFormat>;

/** How a CLI is given the MCP servers of one turn (`--mcp`, `[agents.<name>] mcp`), and kept from
 * others it would load. What scv renders lives for the turn only. */
export const mcpPassing = () =>
  z.discriminatedUnion("kind", [
    /** A file of `format` named on the command line by `args` (`{file}`); `isolate` are arguments
     * given on every turn, servers or none, that keep the CLI's other MCP servers out. */
    z.strictObject({
      kind: z.literal("args-file"),
      format: mcpFileFormat(),
      args: argsWith("{file}"),
      isolate: args(),
      verified: verified(),
    }),
    /** `-c mcp_servers.<name>.<key>=<TOML value>` overrides: no file, so an http server's headers,
     * which `ps` would show there, are refused. */
    z.strictObject({ kind: z.literal("config-args"), flag: text(), table: text(), verified: verified() }),
    /** A config file of `format` named by `variable`, merged over the CLI's others. */
    z.strictObject({
      kind: z.literal("settings-env"),
      variable: envName(),
      format: mcpFileFormat(),
      verified: verified(),
    }),
    z.strictObject({ kind: z.literal("unsupported"), reason: text() }),
  ]);
export type McpPassing = Field<typeof mcpPassing>;

/** A folder of the host's configuration: `$<variable>` when set, else `<fallback>` in HOME, and
 * `sub` a folder inside it. */
const configDir = () =>
  z.strictObject({ variable: z.optional(envName()), fallback: text(), sub: z.optional(text()) });

/** How long the host lets a tool call run, and where scv raises it when that is shorter than a
 * delegate call may take. */
const toolTimeout = () =>
  z.discriminatedUnion("kind", [
    /** The host's default already outlasts a delegate call (`why` says how long it is). */
    z.strictObject({ kind: z.literal("default-suffices"), why: text() }),
    /** A flag of its `mcp add`, or a member of the entry, given already. */
    z.strictObject({ kind: z.literal("in-add"), why: text() }),
    /** A TOML `key` in the server's `table` (with `{name}`) of a config file, written after `mcp add`. */
    z.strictObject({
      kind: z.literal("toml-key"),
      dir: configDir(),
      file: text(),
      table: keyPath(),
      key: text(),
      value: z.int().check(z.positive()),
    }),
    /** A JSON member at `path` (with `{name}`) of a config file, set after `mcp add` (which writes the
     * server's entry whole, without it). */
    z.strictObject({
      kind: z.literal("json-key"),
      dir: configDir(),
      file: text(),
      path: keyPath(),
      value: z.int().check(z.positive()),
    }),
  ]);

/** The bytes of a tool result's text the host gives its model whole, where that is less than what scv
 * holds a result to (src/mcp/shown-size.ts): the server is registered with `SCV_MCP_SHOWN_BYTES` set to
 * it, so a longer reply comes in parts the host shows whole instead of one the host cuts. */
const shownBytes = () => z.optional(z.int().check(z.positive()));

/** How `scv mcp install <agent>` registers scv's MCP server in the agent's user configuration, so
 * that the agent can delegate through scv: with its own `mcp add` where it has one that runs without
 * questions, else by editing its config file the way the CLI itself does. In templates `{name}` is the
 * server's name, `{command}` its command, `{args}` its arguments (spread), `{env}` its environment
 * (spread: `envFlag` and `NAME=value` for each variable). */
export const mcpHost = () =>
  z.discriminatedUnion("kind", [
    /** The CLI's own commands: `remove` drops an earlier registration (`absent` is what it says when
     * there is none: some exit 1 then), `add` registers (`taken`: what it says when the name is taken,
     * since it does not replace it). */
    z.strictObject({
      kind: z.literal("command"),
      add: args(),
      envFlag: text(),
      remove: args(),
      absent: pattern(),
      taken: z.optional(pattern()),
      timeout: toolTimeout(),
      shownBytes: shownBytes(),
      verified: verified(),
    }),
    /** A JSON(C) config file the host reads, edited in place (comments and layout kept): the first of
     * `files` in `dir` that exists (the one the host writes itself), else the first; the server's
     * `entry` (with `{command}` and `{args}` in its arrays) at `path` (with `{name}`), its environment
     * in the entry's member `envKey`. */
    z.strictObject({
      kind: z.literal("json-file"),
      dir: configDir(),
      files: z.array(text()).check(z.minLength(1)),
      path: keyPath(),
      entry: z.record(z.string(), z.unknown()),
      envKey: text(),
      timeout: toolTimeout(),
      shownBytes: shownBytes(),
      verified: verified(),
    }),
    /** Not a host scv registers with, and why. */
    z.strictObject({ kind: z.literal("unsupported"), reason: text() }),
  ]);
export type McpHost = Field<typeof mcpHost>;
