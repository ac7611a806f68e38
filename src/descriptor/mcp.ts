// How a CLI run for one turn is given the MCP servers of that turn (src/turn/mcp-servers.ts renders
// them).

import * as z from "zod/mini";
import { args, argsWith, envName, type Field, text, verified } from "./fields.js";

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
