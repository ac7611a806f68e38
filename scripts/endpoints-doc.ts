// The table of how each agent takes an endpoint of the user's own (`base_url`, `api_key_env`), from
// the rows' `endpoint`: in docs/endpoints.md (between its markers) and in docs/agents.md.

import { ADAPTERS, type AdapterDescriptor, type Endpoint, type EndpointApi } from "../src/adapters.js";

const API: Record<EndpointApi, string> = {
  "anthropic-messages": "Anthropic Messages, `base_url` without `/v1`",
  "openai-responses": "OpenAI Responses, `base_url` ending in `/v1`",
  "openai-chat": "OpenAI Chat Completions, `base_url` ending in `/v1`",
  gemini: "Gemini API, `base_url` without `/v1beta`",
};

function code(text: string): string {
  return `\`${text}\``;
}

/** Where the CLI gets the URL and the key, as the row renders them. */
function howCell(endpoint: Extract<Endpoint, { kind: "supported" }>): string {
  const url = endpoint.url;
  const args = endpoint.args.length === 0 ? "" : `; adds ${code(endpoint.args.join(" "))}`;
  const requires =
    endpoint.requires === undefined
      ? ""
      : `; needs ${code(`${endpoint.requires.path.join(".")}`)} = ${code(endpoint.requires.value)} in ${code(endpoint.requires.file)}, set where unset`;
  switch (url.kind) {
    case "env":
      return `${code(url.variable)}, key in ${code(endpoint.key)}${args}${requires}`;
    case "config-args":
      return `${code(`${url.flag} model_providers.${url.provider}.*`)} overrides, key in ${code(endpoint.key)} (\`env_key\`)${args}${requires}`;
    case "config-env":
      return `provider ${code(url.provider)} in ${code(url.variable)}, key in ${code(endpoint.key)}; model given as ${code(`${url.provider}/<model>`)}${args}${requires}`;
    case "extension-file":
      return `provider ${code(url.provider)} registered by an extension file (${code(url.args.join(" "))}) in the turn's TMPDIR, key in ${code(endpoint.key)}; model given as ${code(`${url.provider}/<model>`)}${args}${requires}`;
  }
}

function cells(entry: AdapterDescriptor): string[] {
  const endpoint = entry.endpoint;
  if (endpoint.kind === "unsupported")
    return [code(entry.name), "—", `not supported: ${endpoint.reason}`, "—"];
  const checked = endpoint.verified.kind === "lab" ? `verified (${endpoint.verified.version})` : "unverified";
  return [
    code(entry.name),
    API[endpoint.api],
    howCell(endpoint),
    `${checked}${endpoint.acp ? "; over ACP too" : "; per-turn CLI only"}`,
  ];
}

/** The table, one row per agent. */
export function renderEndpointsTable(): string {
  const header = ["agent", "the endpoint speaks", "how scv gives it to the CLI", "checked"];
  return [
    `| ${header.join(" | ")} |`,
    `| ${header.map(() => "---").join(" | ")} |`,
    ...(ADAPTERS as readonly AdapterDescriptor[]).map(
      (entry) =>
        `| ${cells(entry)
          .map((cell) => cell.replaceAll("|", "\\|"))
          .join(" | ")} |`,
    ),
  ].join("\n");
}

export const ENDPOINTS_START = "<!-- endpoints: generated from src/adapters.ts by `npm run docs` -->";
export const ENDPOINTS_END = "<!-- /endpoints -->";

/** `page` (docs/endpoints.md) with its endpoints table replaced by today's. */
export function withEndpoints(page: string): string {
  const start = page.indexOf(ENDPOINTS_START);
  const end = page.indexOf(ENDPOINTS_END);
  if (start === -1 || end < start) throw new Error("docs/endpoints.md has no endpoints markers");
  return `${page.slice(0, start)}${ENDPOINTS_START}\n${renderEndpointsTable()}\n${page.slice(end)}`;
}
