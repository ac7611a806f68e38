// The table: the agent CLIs scv can delegate to, one row (a descriptor) each. Each row lives in its
// agent's file in src/table/; this file lists them and looks them up, with the rows the user's
// config adds. What each field of a row means is written once, in the descriptor's schema
// (src/descriptor/), whose output is the type of a row; the table reads it as types only.
//
// A row is the whole integration: the command line of one headless turn, where the CLI keeps its
// state inside scv's private agent home, which inherited variables it must never see, how scv signs
// it in and out and tells whether it is signed in, how it reports its mode, takes MCP servers and
// hosts scv's. Adding an agent is adding its file to src/table/ and its entry to ADAPTERS
// (docs/architecture.md, "Adding an agent"); nothing outside the table switches on an agent's name
// (`npm run check`'s scripts/agent-switch.ts) or names one (test/foundation/agent-names.test.ts).

import type { AdapterDescriptor } from "./descriptor/row.js";
import { amp } from "./table/amp.js";
import { auggie } from "./table/auggie.js";
import { claude, claudeAi } from "./table/claude.js";
import { cline } from "./table/cline.js";
import { codex } from "./table/codex.js";
import { copilot } from "./table/copilot.js";
import { crush } from "./table/crush.js";
import { cursor } from "./table/cursor.js";
import { droid } from "./table/droid.js";
import { dsh } from "./table/dsh.js";
import { gemini } from "./table/gemini.js";
import { grok } from "./table/grok.js";
import { kilo } from "./table/kilo.js";
import { kimi } from "./table/kimi.js";
import { opencode } from "./table/opencode.js";
import { pi } from "./table/pi.js";
import { qoder } from "./table/qoder.js";
import { qwen } from "./table/qwen.js";

export type { AcpFullPermission, AcpLaunch, Takeover, TransportKind } from "./descriptor/acp.js";
export type { Endpoint, EndpointApi } from "./descriptor/endpoint.js";
export type { Verified } from "./descriptor/fields.js";
export type { McpFileFormat, McpHost, McpPassing } from "./descriptor/mcp.js";

export type { AdapterDescriptor } from "./descriptor/row.js";
export type {
  ApiKeyStore,
  ImportCheck,
  ImportFile,
  KeyStore,
  KeyStoreKind,
  Login,
  Logout,
  Needs,
  Status,
  StatusSummary,
} from "./descriptor/sign-in.js";
export type {
  HomeSettings,
  ModeReport,
  OutputFormatKind,
  PromptOnStdin,
  PromptStyle,
  Resume,
} from "./descriptor/turn.js";

/** Every shipped row, in the order lists and docs show them. */
export const ADAPTERS = [
  claude,
  claudeAi,
  codex,
  grok,
  dsh,
  pi,
  gemini,
  qwen,
  opencode,
  copilot,
  cursor,
  amp,
  kimi,
  cline,
  kilo,
  droid,
  auggie,
  qoder,
  crush,
] as const satisfies readonly AdapterDescriptor[];

export type AgentName = (typeof ADAPTERS)[number]["name"];

/** The agents the examples in messages, help texts and tool descriptions name (`codex@work`,
 * `codex-k3f9x2`, `claude:opus`): rows of the table, so that no example names an agent scv lacks. */
export const EXAMPLE_AGENTS = [codex.name, claude.name] as const;

/** The products of the shipped rows, each once (a CLI's flavours as one: "Claude Code"), in the
 * table's order: what help texts and docs list. */
export function agentProducts(): string[] {
  return [
    ...new Set(
      (ADAPTERS as readonly AdapterDescriptor[]).map((entry) => entry.product.replace(/ \(.*\)$/, "")),
    ),
  ];
}

export const AGENT_NAMES: readonly AgentName[] = ADAPTERS.map((entry) => entry.name);

/** The shipped row named `name`; undefined for any other name. */
export function shippedAdapter(name: string): AdapterDescriptor | undefined {
  return (ADAPTERS as readonly AdapterDescriptor[]).find((entry) => entry.name === name);
}

// The rows of the user's config (`[agents.<name>]`): scv's entry point hands over how to read them,
// and they are read on the first lookup, so that a command that looks no agent up never reads the
// config (and a malformed one fails the commands that do, as before). The table does not import the
// config: the config imports the table.
let configuredRows: () => readonly AdapterDescriptor[] = () => [];
let cachedRows: readonly AdapterDescriptor[] | undefined;
let cachedTable: readonly AdapterDescriptor[] = ADAPTERS;

/** Makes `rows` (read once, on the first lookup) the config's rows of every later lookup. */
export function useConfiguredAgents(rows: () => readonly AdapterDescriptor[]): void {
  configuredRows = rows;
  cachedRows = undefined;
  cachedTable = ADAPTERS;
}

/** Every agent scv knows: the shipped rows, each replaced in place by a config row of its name
 * (`extends` of itself, or `replace = true`), then the config's own agents. */
export function allAdapters(): readonly AdapterDescriptor[] {
  if (cachedRows === undefined) {
    const rows = configuredRows();
    const byName = new Map(rows.map((row) => [row.name, row]));
    const shipped = (ADAPTERS as readonly AdapterDescriptor[]).map(
      (entry) => byName.get(entry.name) ?? entry,
    );
    const added = rows.filter((row) => shippedAdapter(row.name) === undefined);
    cachedTable = rows.length === 0 ? ADAPTERS : [...shipped, ...added];
    cachedRows = rows;
  }
  return cachedTable;
}

/** The descriptor for `name`, such as "codex" (the config's row where it defines one); undefined for
 * an unknown name. */
export function adapter(name: string): AdapterDescriptor | undefined {
  return allAdapters().find((entry) => entry.name === name);
}

export function unreachable(value: never): never {
  throw new Error(`unreachable: ${JSON.stringify(value)}`);
}
