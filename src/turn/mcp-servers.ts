// The MCP servers one turn gets (`--mcp`, `[agents.<name>] mcp`), rendered into the form its CLI
// reads (the row's `mcpPassing`): a file named on its command line, `-c` overrides, or a settings file named
// by a variable; for an ACP turn, `session/new`'s `mcpServers`. What is rendered lives in a private
// folder of the turn and goes with it. A turn names none by default, and a row's `isolate` then keeps
// out the servers the CLI would otherwise load from the project or itself.
//
// A stdio server's `env` (its secrets) never enters a command line or a CLI's config: it is written
// to a 0600 file, and the server is started as `/bin/sh -c '<source it>; exec "$@"' <file> <command>
// <args…>`, so only that server's process gets the variables.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AdapterDescriptor, McpFileFormat, McpPassing } from "../adapters.js";
import { ScvError } from "../errors.js";
import type { Config, McpServerConfig } from "../home/config.js";
import { MCP_SERVER_NAME } from "../home/config-schema.js";

export interface NamedMcpServer {
  readonly name: string;
  readonly server: McpServerConfig;
}

/** One file scv writes for the turn (0600), removed with the turn's MCP folder. */
interface McpFile {
  readonly path: string;
  readonly text: string;
}

/** What a turn's CLI gets: arguments placed after its fixed ones, variables, and the files these
 * name. */
export interface RenderedMcp {
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly files: readonly McpFile[];
}

const NOTHING: RenderedMcp = { args: [], env: {}, files: [] };

/** The shell that sources a server's variables from the file named by `$0`, then becomes the server. */
const LAUNCH_SHELL = "/bin/sh";
export const LAUNCH_SCRIPT = 'set -a; . "$0"; set +a; exec "$@"';

/** The servers a turn asked for (`--mcp`, else the agent's `mcp` in the config, else none), checked
 * against the config and the agent's row. */
export function chooseMcpServers(
  asked: readonly string[] | undefined,
  agentDefault: readonly string[] | undefined,
  config: Config,
  entry: AdapterDescriptor,
  acp: boolean,
): NamedMcpServer[] {
  const names = [...new Set(asked ?? agentDefault ?? [])];
  const declared = config.mcp_servers ?? {};
  const servers = names.map((name) => {
    const server = MCP_SERVER_NAME.test(name) ? declared[name] : undefined;
    if (server === undefined) {
      const known = Object.keys(declared);
      throw new ScvError(
        "USAGE",
        `--mcp '${name}': no [mcp_servers.${name}] in scv's config — ${known.length === 0 ? "declare it there first" : `known: ${known.join(", ")}`}`,
      );
    }
    return { name, server };
  });
  if (servers.length === 0 || acp) return servers;
  const passing = entry.mcpPassing;
  if (passing.kind === "unsupported")
    throw new ScvError(
      "USAGE",
      `${entry.product} cannot be given MCP servers on its command line (${passing.reason}) — ${entry.acp === null ? "drop --mcp (or its agent's mcp in the config)" : "use --transport acp, or drop --mcp"}`,
    );
  if (passing.kind === "config-args") {
    const withHeaders = servers.find(({ server }) => "url" in server && server.headers !== undefined);
    if (withHeaders !== undefined)
      throw new ScvError(
        "USAGE",
        `${entry.product} takes an MCP server's headers only on its command line, where any user's ps would show them — give [mcp_servers.${withHeaders.name}] no headers, or pass it to another agent`,
      );
  }
  return servers;
}

/** What `passing` needs for `servers`, its files in `dir` (a private folder of the turn). Pure. */
export function renderMcp(passing: McpPassing, servers: readonly NamedMcpServer[], dir: string): RenderedMcp {
  switch (passing.kind) {
    case "unsupported":
      return NOTHING;
    case "config-args": {
      const { launched, files } = launchable(servers, dir);
      const args = launched.flatMap(({ name, server }) =>
        configOverrides(server).flatMap(([key, value]) => [
          passing.flag,
          `${passing.table}.${name}.${key}=${value}`,
        ]),
      );
      return { args, env: {}, files };
    }
    case "args-file": {
      if (servers.length === 0) return { args: [...passing.isolate], env: {}, files: [] };
      const { launched, files } = launchable(servers, dir);
      const path = join(dir, "mcp.json");
      return {
        args: [...passing.args.map((arg) => arg.replaceAll("{file}", path)), ...passing.isolate],
        env: {},
        files: [...files, { path, text: fileText(passing.format, launched) }],
      };
    }
    case "settings-env": {
      if (servers.length === 0) return NOTHING;
      const { launched, files } = launchable(servers, dir);
      const path = join(dir, "settings.json");
      return {
        args: [],
        env: { [passing.variable]: path },
        files: [...files, { path, text: fileText(passing.format, launched) }],
      };
    }
  }
}

/** A server as the CLI is told to start or reach it, its variables moved into a file of their own. */
type Launched =
  | { name: string; server: { command: string; args: readonly string[] } }
  | { name: string; server: { url: string; headers: Readonly<Record<string, string>> } };

function launchable(
  servers: readonly NamedMcpServer[],
  dir: string,
): { launched: Launched[]; files: McpFile[] } {
  const files: McpFile[] = [];
  const launched = servers.map(({ name, server }): Launched => {
    if ("url" in server) return { name, server: { url: server.url, headers: server.headers ?? {} } };
    const args = server.args ?? [];
    const env = Object.entries(server.env ?? {});
    if (env.length === 0) return { name, server: { command: server.command, args } };
    const path = join(dir, `${name}.env`);
    files.push({ path, text: env.map(([key, value]) => `${key}=${shellQuote(value)}\n`).join("") });
    return {
      name,
      server: { command: LAUNCH_SHELL, args: ["-c", LAUNCH_SCRIPT, path, server.command, ...args] },
    };
  });
  return { launched, files };
}

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** The `-c` keys and TOML values of a `config-args` passing (a JSON string is a TOML basic string). */
function configOverrides(server: Launched["server"]): Array<[string, string]> {
  if ("url" in server) return [["url", JSON.stringify(server.url)]];
  return [
    ["command", JSON.stringify(server.command)],
    ["args", `[${server.args.map((arg) => JSON.stringify(arg)).join(",")}]`],
  ];
}

function fileText(format: McpFileFormat, servers: readonly Launched[]): string {
  return `${JSON.stringify(fileObject(format, servers), null, 2)}\n`;
}

function fileObject(format: McpFileFormat, servers: readonly Launched[]): unknown {
  const each = (shape: (server: Launched["server"]) => unknown) =>
    Object.fromEntries(servers.map(({ name, server }) => [name, shape(server)]));
  switch (format) {
    case "mcp-servers":
      return {
        mcpServers: each((server) =>
          "url" in server
            ? { type: "http", url: server.url, headers: server.headers }
            : { command: server.command, args: server.args },
        ),
      };
    case "mcp-servers-typed":
      return {
        mcpServers: each((server) =>
          "url" in server
            ? { type: "http", url: server.url, headers: server.headers, tools: ["*"] }
            : { type: "local", command: server.command, args: server.args, tools: ["*"] },
        ),
      };
    case "mcp-local-remote":
      return {
        mcp: each((server) =>
          "url" in server
            ? { type: "remote", url: server.url, headers: server.headers, enabled: true }
            : { type: "local", command: [server.command, ...server.args], enabled: true },
        ),
      };
  }
}

/** `session/new`'s `mcpServers` (ACP): variables and headers travel in the request, on a pipe. */
export function acpMcpServers(servers: readonly NamedMcpServer[]): unknown[] {
  return servers.map(({ name, server }) =>
    "url" in server
      ? {
          type: "http",
          name,
          url: server.url,
          headers: Object.entries(server.headers ?? {}).map(([key, value]) => ({ name: key, value })),
        }
      : {
          name,
          command: server.command,
          args: server.args ?? [],
          env: Object.entries(server.env ?? {}).map(([key, value]) => ({ name: key, value })),
        },
  );
}

/** Writes the rendered files, each 0600, into `dir` (already made 0700). */
export function writeMcpFiles(rendered: RenderedMcp): void {
  for (const file of rendered.files) writeFileSync(file.path, file.text, { mode: 0o600, flag: "wx" });
}
