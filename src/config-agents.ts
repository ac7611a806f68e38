// The agents a user defines or changes in scv's config (`[agents.<name>]`), made into descriptor rows
// and checked with the table's own schema (src/descriptor/row.ts), so that a user row is held to
// exactly what a shipped one is. A table of settings alone (model, env, …) changes no row; one
// naming a descriptor field, `extends` or `extra_args` is a row. A shipped name is shadowed only when
// the table says so (`extends` of itself, or `replace = true`).

import * as z from "zod/mini";
import { type AdapterDescriptor, AGENT_NAMES, shippedAdapter } from "./adapters.js";
import { AGENT_NAME_PATTERN } from "./descriptor/fields.js";
import { descriptorSchema } from "./descriptor/row.js";
import { ScvError } from "./errors.js";
import { issueAt, issueText } from "./validation.js";

/** The keys of `[agents.<name>]` that change the row rather than set a turn's defaults. */
export const ROW_MODIFIERS = ["extends", "replace", "extra_args"] as const;

/** The descriptor's fields a config table may give, in the descriptor's own names. `name` is the
 * table's key; `command` and `transport` are also settings of a shipped agent. */
export function descriptorKeys(): string[] {
  return Object.keys(descriptorSchema().shape).filter((key) => key !== "name");
}

/** Fields that are settings of every agent as well as descriptor fields: giving them changes no row. */
const SETTING_FIELDS: ReadonlySet<string> = new Set(["command", "transport"]);

/** One `[agents.<name>]` table as the config's schema passed it: settings, the row modifiers, and
 * descriptor fields not yet checked. */
export type AgentTable = Readonly<Record<string, unknown>> & {
  readonly extends?: string;
  readonly replace?: boolean;
  readonly extra_args?: readonly string[];
};

function refuse(path: string, key: string, what: string): never {
  throw new ScvError("BAD_CONFIG", `${path}: ${key}: ${what}`);
}

/** The rows the config's `[agents]` tables define, in their order; each checked whole, or the first
 * bad one refused (naming `path`, its key path and what was expected). */
export function configuredAgentRows(
  agents: Readonly<Record<string, AgentTable>>,
  path: string,
): AdapterDescriptor[] {
  const rows: AdapterDescriptor[] = [];
  for (const [name, table] of Object.entries(agents)) {
    const row = agentRow(name, table, path);
    if (row !== undefined) rows.push(row);
  }
  return rows;
}

function agentRow(name: string, table: AgentTable, path: string): AdapterDescriptor | undefined {
  const at = `agents.${name}`;
  const keys = descriptorKeys();
  const fields = Object.fromEntries(Object.entries(table).filter(([key]) => keys.includes(key)));
  const rowKeys = [
    ...Object.keys(fields).filter((key) => !SETTING_FIELDS.has(key)),
    ...ROW_MODIFIERS.filter((key) => table[key] !== undefined),
  ];
  const shipped = shippedAdapter(name);
  const known = AGENT_NAMES.join(", ");
  if (shipped !== undefined) {
    if (rowKeys.length === 0) return undefined;
    if (table.extends === undefined && table.replace !== true) {
      refuse(
        path,
        `${at}.${rowKeys[0]}`,
        `'${name}' is a shipped agent — to change its row add extends = "${name}", or replace = true to define it whole`,
      );
    }
    if (table.extends !== undefined && table.extends !== name && table.replace !== true) {
      refuse(
        path,
        `${at}.extends`,
        `a shipped agent's row extends only itself — write extends = "${name}", or add replace = true to make '${name}' a copy of '${table.extends}'`,
      );
    }
  } else {
    if (!AGENT_NAME_PATTERN.test(name)) {
      refuse(path, at, "expected an agent name: lower-case letters, digits and -, at most 31 characters");
    }
    if (table.replace === true) {
      refuse(
        path,
        `${at}.replace`,
        `'${name}' is not a shipped agent, so there is nothing to replace — remove it`,
      );
    }
    if (table.extends === undefined && table.command === undefined) {
      refuse(
        path,
        at,
        `unknown agent — known: ${known}; to define it, give its command, or extends = "<a shipped agent>"`,
      );
    }
  }
  let base: AdapterDescriptor;
  if (table.extends !== undefined) {
    const extended = shippedAdapter(table.extends);
    if (extended === undefined) refuse(path, `${at}.extends`, `expected a shipped agent — known: ${known}`);
    base = extended;
  } else {
    base = newRowDefaults(name, path);
  }
  const merged: Record<string, unknown> = {
    ...base,
    name,
    verified: { kind: "unverified", reason: `defined in ${path} [${at}]` },
    ...fields,
  };
  // An ACP server that is the CLI itself follows the CLI to its new command.
  if (
    typeof fields.command === "string" &&
    fields.acp === undefined &&
    base.acp !== null &&
    base.acp.command === base.command
  ) {
    merged.acp = { ...base.acp, command: fields.command };
  }
  if (table.extra_args !== undefined) {
    const headless = Array.isArray(merged.headlessArgs) ? merged.headlessArgs : [];
    merged.headlessArgs = [...headless, ...table.extra_args];
  }
  const result = descriptorSchema().safeParse(merged, { error: issueText });
  if (!result.success) {
    const { keyPath, message } = issueAt(result.error.issues[0], descriptorSchema());
    refuse(path, [at, ...keyPath].join("."), message);
  }
  return result.data as AdapterDescriptor;
}

/** What a row defined from nothing but its command has: a positional prompt, plain text out, no
 * resume, no sign-in scv knows how to check. */
function newRowDefaults(name: string, path: string): AdapterDescriptor {
  return {
    name,
    product: name,
    family: null,
    offers: `an agent defined in ${path}`,
    packages: [],
    verified: { kind: "unverified", reason: `defined in ${path}` },
    command: name,
    args: [],
    prompt: { kind: "positional", endOfOptions: false },
    modelArgs: [],
    effortArgs: [],
    effortLevels: [],
    modelHint: "a model its CLI accepts",
    homeEnvironment: [],
    fixedEnvironment: [],
    removedEnvironment: [],
    credentialWords: [],
    fullPermissionArgs: [],
    modeReport: { kind: "none" },
    searchDirs: [],
    login: { kind: "interactive", args: [], hint: "sign in with its own command, then quit" },
    ownConfig: { file: `.config/${name}`, signsIn: false },
    endpoint: { kind: "unsupported", reason: `no way to set its endpoint is defined in ${path}` },
    status: { kind: "unchecked" },
    logout: { kind: "interactive", args: [], hint: "sign out with its own command, then quit" },
    output: { kind: "text", args: [] },
    resume: { kind: "unsupported" },
    conversationFiles: null,
    credentialFiles: [],
    retries: { kind: "none", note: "none known to scv (an agent of the user's config)" },
    transport: "process",
    acp: null,
    cliTurns: true,
    mcpPassing: { kind: "unsupported", reason: `no way to pass MCP servers is defined in ${path}` },
    mcpHost: { kind: "unsupported", reason: `no way to register an MCP server is defined in ${path}` },
    takeover: { kind: "unsupported" },
    review: { readOnlyArgs: [], schema: { kind: "prompt" } },
  };
}

/** The raw form of a descriptor field in a config table: checked later, by the descriptor's schema. */
export const rowField = () => z.optional(z.unknown());
