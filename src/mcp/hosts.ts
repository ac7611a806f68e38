// The agents scv can register its MCP server with (`scv mcp install <host>`): the rows whose
// `mcpHost` says how (src/descriptor/mcp.ts), and the placeholders of their templates.

import { ADAPTERS, type AdapterDescriptor, adapter, type McpHost } from "../adapters.js";

/** Placeholders in argument templates: the server's name, its command, its arguments (spread), and
 * its environment (spread: the host's `envFlag` and `NAME=value` for each variable). */
export const NAME = "{name}";
export const COMMAND = "{command}";
export const ARGS = "{args}";
export const ENV = "{env}";

/** A registration scv can make. */
export type HostRegistration = Exclude<McpHost, { kind: "unsupported" }>;

export type ConfigDir = Extract<HostRegistration, { kind: "json-file" }>["dir"];

/** A row that can host scv's MCP server, with its registration. */
export interface HostRow {
  readonly entry: AdapterDescriptor;
  readonly registration: HostRegistration;
}

function hostRow(entry: AdapterDescriptor | undefined): HostRow | undefined {
  if (entry === undefined || entry.mcpHost.kind === "unsupported") return undefined;
  return { entry, registration: entry.mcpHost };
}

/** The shipped rows that can host scv's MCP server, in the table's order. */
export function shippedHosts(): HostRow[] {
  return (ADAPTERS as readonly AdapterDescriptor[]).flatMap((entry) => hostRow(entry) ?? []);
}

/** The host named `name` (a row of the config's too), or undefined when it cannot host scv. */
export function hostNamed(name: string): HostRow | undefined {
  return hostRow(adapter(name));
}
