// A model endpoint or proxy of the user's own (`base_url` and `api_key_env` under `[agents.<name>]`),
// rendered for one turn the way the agent's row says its CLI takes one (`endpoint` in
// src/adapters.ts): a variable of its own, `-c` overrides of its TOML config, a JSON config in a
// variable, or an extension file in the turn's TMPDIR. The key's value goes only into the agent's
// environment, under the variable its CLI reads a key from; nothing else (argv, files, records,
// messages) ever holds it. Planning checks what can be checked before anything starts; rendering is
// pure.

import { join } from "node:path";
import type { AdapterDescriptor, Endpoint, TransportKind } from "../adapters.js";
import { ScvError } from "../errors.js";
import type { AgentConfig } from "../home/config.js";
import { requireSetting } from "../home/home-settings.js";
import type { Env } from "../home/paths.js";

type SupportedEndpoint = Extract<Endpoint, { kind: "supported" }>;

/** The endpoint a turn uses, as planned: no key in it, only the variable it is read from. */
export interface TurnEndpoint {
  readonly endpoint: SupportedEndpoint;
  readonly url: string;
  /** The variable of scv's environment holding the key (the config's `api_key_env`). */
  readonly keyVariable: string;
}

/** What the turn's CLI gets: arguments after its fixed ones, variables, files for its TMPDIR. */
export interface RenderedEndpoint {
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly files: readonly { readonly path: string; readonly text: string }[];
}

/** The turn's endpoint, or undefined when the agent has none. Throws what the user must fix before
 * anything starts: a transport the rendering does not reach, a model the endpoint's provider must
 * list. */
export function planEndpoint(
  entry: AdapterDescriptor,
  settings: AgentConfig,
  transport: TransportKind,
  model: string | undefined,
): TurnEndpoint | undefined {
  const url = settings.base_url;
  const keyVariable = settings.api_key_env;
  if (url === undefined || keyVariable === undefined) return undefined;
  const endpoint = entry.endpoint;
  const where = `[agents.${entry.name}] of scv's config`;
  if (endpoint.kind === "unsupported")
    throw new ScvError(
      "BAD_CONFIG",
      `${entry.product} takes no endpoint from scv (${endpoint.reason}) — remove base_url from ${where}`,
    );
  if (transport === "acp" && !endpoint.acp)
    throw new ScvError(
      "USAGE",
      `${entry.product}'s ACP server takes no base_url from scv — use --transport process, or remove base_url from ${where}`,
    );
  if (model === undefined && listsModel(endpoint))
    throw new ScvError(
      "USAGE",
      `${entry.product} with base_url needs the model the endpoint serves — pass -m <model>, or set model in ${where}`,
    );
  return { endpoint, url, keyVariable };
}

/** The endpoint's key, from scv's environment when the agent starts; an unset variable is a sign-in
 * missing (exit 4), said without any value. */
export function endpointKey(entry: AdapterDescriptor, turn: TurnEndpoint, env: Env): string {
  const key = env[turn.keyVariable] ?? "";
  if (key === "")
    throw new ScvError(
      "NOT_SIGNED_IN",
      `${turn.keyVariable} is not set, and it holds the key of ${entry.name}'s endpoint (api_key_env in [agents.${entry.name}] of scv's config) — export it, or name another variable there`,
    );
  return key;
}

/** Whether the CLI is given the endpoint as a provider of its own that lists the turn's model. */
function listsModel(endpoint: SupportedEndpoint): boolean {
  const kind = endpoint.url.kind;
  return kind === "config-env" || kind === "extension-file" || kind === "settings-file";
}

/** The model as the CLI is given it: `<provider>/<model>` where the endpoint is a provider of its
 * own (a model already named so is kept), else as asked. */
export function endpointModel(turn: TurnEndpoint | undefined, model: string | undefined): string | undefined {
  if (turn === undefined || model === undefined) return model;
  const url = turn.endpoint.url;
  if (url.kind === "settings-file") return settingsFileModel(url, model);
  if (url.kind !== "config-env" && url.kind !== "extension-file") return model;
  return `${url.provider}/${providerModel(url.provider, model)}`;
}

type SettingsFile = Extract<SupportedEndpoint["url"], { kind: "settings-file" }>;

/** The model as a settings file's CLI names it: the row's `modelName` (a custom model named by its
 * display name, the provider), or the turn's model as it is. */
function settingsFileModel(url: SettingsFile, model: string): string {
  return url.modelName?.replaceAll("{provider}", url.provider) ?? model;
}

function providerModel(provider: string, model: string): string {
  return model.startsWith(`${provider}/`) ? model.slice(provider.length + 1) : model;
}

function required(value: string | undefined, what: string): string {
  if (value === undefined) throw new Error(`the endpoint's row names ${what}, which scv cannot render`);
  return value;
}

/** Everything the turn's CLI gets for the endpoint. `key` is the key's value (from `keyVariable`),
 * `model` the turn's model as asked, `dir` a private folder of the turn for files. Pure. */
export function renderEndpoint(
  turn: TurnEndpoint,
  request: { readonly key: string; readonly model?: string; readonly effort?: string; readonly dir: string },
): RenderedEndpoint {
  const { endpoint, url } = turn;
  const keyEnv = { [endpoint.key]: request.key };
  const form = endpoint.url;
  switch (form.kind) {
    case "env":
      return { args: [...endpoint.args], env: { [form.variable]: url, ...keyEnv }, files: [] };
    case "config-args": {
      const table = `model_providers.${form.provider}`;
      const overrides = [
        `model_provider=${tomlString(form.provider)}`,
        `${table}.name=${tomlString(form.provider)}`,
        `${table}.base_url=${tomlString(url)}`,
        `${table}.env_key=${tomlString(endpoint.key)}`,
        `${table}.wire_api=${tomlString(form.wireApi)}`,
      ];
      return {
        args: [...endpoint.args, ...overrides.flatMap((override) => [form.flag, override])],
        env: keyEnv,
        files: [],
      };
    }
    case "config-env": {
      const id = providerModel(form.provider, required(request.model, "a model"));
      const model = `${form.provider}/${id}`;
      const config = {
        provider: {
          [form.provider]: {
            npm: form.npm,
            name: form.provider,
            options: { baseURL: url, apiKey: `{env:${endpoint.key}}` },
            // With reasoning, an effort (`--variant`) is sent; without, it would be dropped.
            models: { [id]: { name: id, ...(request.effort === undefined ? {} : { reasoning: true }) } },
          },
        },
        // Its session titles use small_model, else a model of its own provider (the network).
        model,
        small_model: model,
      };
      return {
        args: [...endpoint.args],
        env: { [form.variable]: JSON.stringify(config), ...keyEnv },
        files: [],
      };
    }
    case "extension-file": {
      const id = providerModel(form.provider, required(request.model, "a model"));
      const path = join(request.dir, "endpoint-provider.mjs");
      const provider = {
        baseUrl: url,
        // Its config values: `${NAME}` is the variable's value, any other text the key itself (since
        // its 0.77; 0.73 read a bare variable name, a literal now).
        apiKey: variableReference(endpoint.key),
        api: form.api,
        models: [
          {
            id,
            name: id,
            reasoning: request.effort !== undefined && request.effort !== "off",
            input: ["text"],
            cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
            contextWindow: 128000,
            maxTokens: 16384,
          },
        ],
      };
      const text = `// Written by scv for one turn: the endpoint of [agents.<name>] base_url, as a provider.\nexport default function (api) {\n  api.registerProvider(${JSON.stringify(form.provider)}, ${JSON.stringify(provider, null, 2)});\n}\n`;
      return {
        args: [...endpoint.args, ...form.args.map((arg) => arg.replaceAll("{file}", path))],
        env: keyEnv,
        files: [{ path, text }],
      };
    }
    case "settings-file": {
      const path = join(request.dir, `endpoint-${form.format}.json`);
      const text = `${JSON.stringify(settingsFile(form, endpoint, url, required(request.model, "a model")), null, 2)}\n`;
      return {
        args: [...endpoint.args, ...form.args.map((arg) => arg.replaceAll("{file}", path))],
        env: { ...(form.variable === undefined ? {} : { [form.variable]: path }), ...keyEnv },
        files: [{ path, text }],
      };
    }
  }
}

/** A settings file's content: the endpoint as a provider serving the model, the key left to the
 * variable the CLI reads it from (`custom-models`: a custom model's key `${VAR}` is expanded;
 * `provider-settings`: its provider reads the row's key variable when the file holds none). */
function settingsFile(form: SettingsFile, endpoint: SupportedEndpoint, url: string, model: string): unknown {
  switch (form.format) {
    case "custom-models":
      return {
        customModels: [
          {
            model,
            displayName: form.provider,
            provider: required(form.apiType, "the API's name in its settings"),
            baseUrl: url,
            apiKey: variableReference(endpoint.key),
            maxOutputTokens: 16384,
          },
        ],
      };
    case "provider-settings":
      return {
        version: 1,
        lastUsedProvider: form.provider,
        modes: {},
        providers: {
          [form.provider]: {
            settings: { provider: form.provider, model, baseUrl: url },
            updatedAt: "1970-01-01T00:00:00.000Z",
            tokenSource: "manual",
          },
        },
      };
  }
}

/** A reference to a variable in a CLI's JSON config, expanded by the CLI when it reads it. */
function variableReference(name: string): string {
  return `\${${name}}`;
}

/** A TOML basic string: JSON's escapes are TOML's, and a URL scv accepts has no control character. */
function tomlString(text: string): string {
  return JSON.stringify(text);
}

/** What the endpoint needs in place when the agent starts: its key (returned), and the setting its
 * row requires in the CLI's own settings, set where the user set none. Throws the one line to fix. */
export async function readyEndpoint(
  entry: AdapterDescriptor,
  turn: TurnEndpoint,
  home: string,
  env: Env,
  label: string,
): Promise<string> {
  const key = endpointKey(entry, turn, env);
  const requires = turn.endpoint.requires;
  if (requires === undefined) return key;
  const setting = await requireSetting(home, requires);
  const at = `${requires.path.join(".")} in ${requires.file} of ${label}'s home`;
  if (setting.kind === "other")
    throw new ScvError(
      "BAD_CONFIG",
      `${entry.product} signs in with ${JSON.stringify(setting.value)} (${at}), and base_url needs ${JSON.stringify(requires.value)} there — set it (scv run ${label}, or edit the file), or remove base_url from [agents.${entry.name}]`,
    );
  if (setting.kind === "unreadable")
    throw new ScvError(
      "BAD_CONFIG",
      `base_url needs ${at} set to ${JSON.stringify(requires.value)}, but that file cannot be read (${setting.reason}) — fix or remove it`,
    );
  return key;
}
