// Host apps: the agents scv can register its MCP server with (`scv mcp install <host>`), so that
// they call scv as an MCP client (not ACP session hosts, src/acp/session-host/): the rows whose
// `mcpHost` says how (src/descriptor/mcp.ts), and the placeholders of their templates.

import { ADAPTERS, type AdapterDescriptor, adapter, type McpHost } from "../adapters.js";

/** Placeholders in argument templates: the server's name, its command, its arguments (spread), and
 * its environment (spread: the host's `envFlag` and `NAME=value` for each variable). */
export const NAME = "{name}";
export const COMMAND = "{command}";
export const ARGS = "{args}";
export const ENV = "{env}";

/** A registration scv can make. */
export type HostAppRegistration = Exclude<McpHost, { kind: "unsupported" }>;

export type ConfigDir = Extract<HostAppRegistration, { kind: "json-file" }>["dir"];

/** A row that can host scv's MCP server, with its registration. */
export interface HostAppRow {
  readonly entry: AdapterDescriptor;
  readonly registration: HostAppRegistration;
}

function hostAppRow(entry: AdapterDescriptor | undefined): HostAppRow | undefined {
  if (entry === undefined || entry.mcpHost.kind === "unsupported") return undefined;
  return { entry, registration: entry.mcpHost };
}

/** The shipped rows that can host scv's MCP server, in the table's order. */
export function shippedHostApps(): HostAppRow[] {
  return (ADAPTERS as readonly AdapterDescriptor[]).flatMap((entry) => hostAppRow(entry) ?? []);
}

/** The host named `name` (a row of the config's too), or undefined when it cannot host scv. */
export function hostAppNamed(name: string): HostAppRow | undefined {
  return hostAppRow(adapter(name));
}
