// `scv agents show <agent>`: one row of the table, as docs/agents.md describes a shipped agent, for a
// row of scv's config as much as a shipped one. The agent's config `env` may hold secrets: only its
// variables' names are shown.

import { type AdapterDescriptor, shippedAdapter } from "../adapters.js";
import { requireAgent } from "../agents/lookup.js";
import { agentSettings, loadConfig } from "../home/config.js";
import type { CliIo } from "../io.js";

function argv(args: readonly string[]): string {
  return args.length === 0 ? "(none)" : args.join(" ");
}

function promptLine(entry: AdapterDescriptor): string {
  const prompt = entry.prompt;
  switch (prompt.kind) {
    case "positional":
      return `the last argument${prompt.endOfOptions ? " (after -- when it begins with -)" : ""}${prompt.onStdin ? `; on stdin when too long (${argv(prompt.onStdin.args)})` : ""}`;
    case "flag":
      return `${argv(prompt.args)} <prompt> (${prompt.joined}<prompt> when it begins with -)`;
    case "stdin":
      return "written to its stdin";
  }
}

function resumeLine(entry: AdapterDescriptor): string {
  const resume = entry.resume;
  if (resume.kind === "unsupported") return "no (each turn is a new conversation)";
  const parts = [
    resume.start ? `starts with ${argv(resume.start)}` : "its own session id, from its output",
    `continues with ${argv([...(resume.subcommand ?? []), ...resume.options, ...(resume.positional ?? [])])}`,
    `ids match ${resume.idPattern.source}`,
  ];
  return parts.join("; ");
}

function acpLine(entry: AdapterDescriptor): string {
  if (entry.acp === null) return "none known";
  const launch = `${entry.acp.command} ${entry.acp.args.join(" ")}`.trim();
  const variable = entry.acp.cliPathVariable;
  return variable === undefined
    ? launch
    : `${launch} (runs the ${entry.command} found for ${entry.name} through ${variable}, else its own copy)`;
}

function takeoverLine(entry: AdapterDescriptor): string {
  const takeover = entry.takeover;
  switch (takeover.kind) {
    case "unsupported":
      return "no";
    case "refused":
      return `refused: ${takeover.reason}`;
    case "supported":
      return `${entry.command} ${takeover.args.join(" ")}${takeover.verified?.kind === "lab" ? ` (verified with ${takeover.verified.version})` : ""}`;
  }
}

/** How a review runs it: read-only, and held to the findings' schema where its CLI can be. */
function reviewLine(entry: AdapterDescriptor): string {
  const { readOnlyArgs, schema } = entry.review;
  const readOnly =
    readOnlyArgs.length > 0 ? `read-only with ${argv(readOnlyArgs)}` : "read-only by the prompt alone";
  switch (schema.kind) {
    case "file":
    case "inline":
      return `${readOnly}; findings' schema given with ${argv(schema.args)}`;
    case "prompt":
      return `${readOnly}; findings' schema in the prompt`;
  }
}

function signInLine(entry: AdapterDescriptor): string {
  const login = entry.login;
  switch (login.kind) {
    case "command":
      return `${entry.command} ${login.args.join(" ")} (needs ${login.needs})`.replace("  ", " ");
    case "interactive":
      return `its own interface: ${login.hint}`;
    case "api-key":
      return "an API key scv stores (scv agents login --with-api-key)";
    case "import":
      return "your own configuration, copied (scv agents login --import)";
  }
}

function statusLine(entry: AdapterDescriptor): string {
  const status = entry.status;
  switch (status.kind) {
    case "command":
      return `${entry.command} ${status.args.join(" ")}`;
    case "stored":
      return "its key store, read by scv";
    case "unchecked":
      return "unchecked (scv agents check tries a real call)";
  }
}

/** How the row takes `base_url`, and the one the config gives (the key's variable by name only). */
function endpointLine(entry: AdapterDescriptor, settings: ReturnType<typeof agentSettings>): string {
  const endpoint = entry.endpoint;
  if (endpoint.kind === "unsupported") return `none (${endpoint.reason})`;
  const url = endpoint.url;
  const how = url.kind === "env" ? url.variable : `a provider of its own (${url.kind})`;
  const taken = `base_url serving ${endpoint.api}, given as ${how}, its key as ${endpoint.key}${endpoint.acp ? "" : "; not over ACP"}`;
  return settings.base_url === undefined
    ? taken
    : `${settings.base_url}, the key in ${settings.api_key_env} — ${taken}`;
}

/** What was checked of the row, at which version. */
function verifiedLine(entry: AdapterDescriptor): string {
  const verified = entry.verified;
  switch (verified.kind) {
    case "lab":
      return `lab, ${verified.version}`;
    case "offline":
      return `offline only, ${verified.version} (its turns are unverified: ${verified.reason})`;
    case "unverified":
      return verified.reason;
  }
}

/** Where a row comes from: shipped, or the config (its own, or changing a shipped one). */
function origin(entry: AdapterDescriptor): string {
  if (shippedAdapter(entry.name) === entry) return "shipped with scv";
  return entry.verified.kind === "unverified" ? entry.verified.reason : "scv's config";
}

/** The lines describing `entry` and its settings. */
export function describeAgent(
  entry: AdapterDescriptor,
  settings: ReturnType<typeof agentSettings>,
): string[] {
  const lines: [string, string][] = [
    ["agent", `${entry.name} — ${entry.product}`],
    ["from", origin(entry)],
    ["family", entry.family ?? "its model's (it runs many makers' models)"],
    ["offers", entry.offers],
    ["command", settings.command ?? entry.command],
    ["turn", argv([...entry.args, ...(entry.headlessArgs ?? []), ...entry.output.args])],
    ["prompt", promptLine(entry)],
    ["output", entry.output.kind],
    ["model", entry.modelArgs.length > 0 ? `${argv(entry.modelArgs)} — ${entry.modelHint}` : entry.modelHint],
    [
      "effort",
      entry.effortLevels.length > 0 ? `${argv(entry.effortArgs)}: ${entry.effortLevels.join(", ")}` : "none",
    ],
    ["resume", resumeLine(entry)],
    ["transport", `${settings.transport ?? entry.transport}${entry.cliTurns ? "" : " (ACP only)"}`],
    ["acp", acpLine(entry)],
    ["auto", argv(entry.fullPermissionArgs)],
    [
      "removed env",
      entry.removedEnvironment.join(", ") || "(none of its own; every agent's credentials are)",
    ],
    ["sign-in", signInLine(entry)],
    ["status", statusLine(entry)],
    ["takeover", takeoverLine(entry)],
    ["review", reviewLine(entry)],
    ["endpoint", endpointLine(entry, settings)],
    ["verified", verifiedLine(entry)],
  ];
  const defaults = [
    settings.model === undefined ? undefined : `model ${settings.model}`,
    settings.effort === undefined ? undefined : `effort ${settings.effort}`,
    settings.policy === undefined ? undefined : `policy ${settings.policy}`,
  ].filter((part) => part !== undefined);
  if (defaults.length > 0) lines.push(["defaults", defaults.join(", ")]);
  const envNames = Object.keys(settings.env ?? {});
  if (envNames.length > 0) lines.push(["env", `${envNames.join(", ")} (values not shown)`]);
  const width = Math.max(...lines.map(([label]) => label.length));
  return lines.map(([label, value]) => `${`${label}:`.padEnd(width + 2)}${value}`);
}

/** A row's variables that carry a value of the user's own choosing (a row of scv's config may set a
 * token there, as in `env`). */
const VALUE_FIELDS: ReadonlySet<string> = new Set([
  "fixedEnvironment",
  "fullPermissionEnvironment",
  "rootSandboxEnvironment",
  "fullEnvironment",
]);

/** The row as JSON: patterns as their source; the config's env as names only, and so the variables
 * of a row from the config, whose values may be secrets. */
function rowJson(entry: AdapterDescriptor, settings: ReturnType<typeof agentSettings>): unknown {
  const fromConfig = shippedAdapter(entry.name) !== entry;
  const hidden = (pairs: unknown): unknown =>
    Array.isArray(pairs) && typeof pairs[0] === "string"
      ? [pairs[0], "(value not shown)"]
      : Array.isArray(pairs)
        ? pairs.map(hidden)
        : pairs;
  const row = JSON.parse(
    JSON.stringify(entry, (key, value: unknown) => {
      if (value instanceof RegExp) return value.source;
      return fromConfig && VALUE_FIELDS.has(key) ? hidden(value) : value;
    }),
  ) as Record<string, unknown>;
  return { ...row, settings: { ...settings, env: Object.keys(settings.env ?? {}) } };
}

export async function agentsShowCommand(
  io: CliIo,
  agent: string,
  options: { json?: boolean },
): Promise<number> {
  const entry = requireAgent(agent);
  const settings = agentSettings(loadConfig(io.env).config, entry.name);
  if (options.json) {
    io.stdout.write(`${JSON.stringify(rowJson(entry, settings), null, 2)}\n`);
  } else {
    io.stdout.write(`${describeAgent(entry, settings).join("\n")}\n`);
  }
  return 0;
}
