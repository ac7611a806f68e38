// How a CLI is pointed at a model endpoint or proxy of the user's own (`base_url` and `api_key_env`
// under `[agents.<name>]`; src/turn/turn-endpoint.ts renders it for one turn).

import * as z from "zod/mini";
import {
  args,
  argsWith,
  envName,
  type Field,
  homePath,
  keyPath,
  providerName,
  text,
  verified,
} from "./fields.js";

/** The API an endpoint of the user's own must serve to a CLI: `anthropic-messages` (Anthropic's
 * Messages API; `base_url` without `/v1`, the CLI appends `/v1/messages`), `openai-responses`
 * (OpenAI's Responses API; `base_url` ends in `/v1`), `openai-chat` (OpenAI's Chat Completions API;
 * `base_url` ends in `/v1`), `gemini` (Google's Gemini API; `base_url` without `/v1beta`). */
const endpointApi = () => z.enum(["anthropic-messages", "openai-responses", "openai-chat", "gemini"]);
export type EndpointApi = Field<typeof endpointApi>;

/** Where a CLI takes the base URL of an endpoint of the user's own. Each form is rendered for one
 * turn only: nothing is written into the CLI's own settings. */
const endpointUrl = () =>
  z.discriminatedUnion("kind", [
    /** A variable of its own. */
    z.strictObject({ kind: z.literal("env"), variable: envName() }),
    /** A model provider of its own, `provider`, given as `flag` overrides of its TOML config
     * (`-c model_providers.<provider>.base_url=…`), reading its key from the row's `key` variable;
     * `wireApi` is the provider's `wire_api`, the CLI's name of the row's `api`. */
    z.strictObject({
      kind: z.literal("config-args"),
      flag: text(),
      provider: providerName(),
      wireApi: text(),
    }),
    /** A provider `provider` in a JSON config given whole in `variable` (`{"provider": {…}, "model",
     * "small_model"}`), merged over its other config files, built from the AI SDK package `npm`
     * (bundled in the CLI) and reading its key from the row's `key` variable (`{env:…}`); the turn's
     * model is given as `<provider>/<model>`, and the provider lists it. */
    z.strictObject({
      kind: z.literal("config-env"),
      variable: envName(),
      provider: providerName(),
      npm: text(),
    }),
    /** A provider `provider` registered by an extension module scv writes into the turn's TMPDIR
     * (`export default function (api) { api.registerProvider(…) }`) and names with `args` (`{file}`),
     * speaking `api` (the CLI's name of the row's `api`), its key read from the row's `key` variable;
     * the turn's model is given as `<provider>/<model>`, and the provider lists it. */
    z.strictObject({
      kind: z.literal("extension-file"),
      args: argsWith("{file}"),
      provider: providerName(),
      api: text(),
    }),
    /** A settings file of `format` scv writes into the turn's TMPDIR, with a provider `provider` at
     * the endpoint serving the turn's model, but no key: the CLI reads it from the row's `key`
     * variable. It is named by `args` (`{file}`), or by the variable `variable`. `custom-models`: a
     * list of custom models (model, display name `provider`, `apiType` the settings' name of the
     * endpoint's API, base URL, key as `${VAR}`); `provider-settings`: a providers file whose last
     * used provider is `provider`. `modelName` is the model as the CLI is then told it (`{provider}`
     * replaced), absent for the turn's model as it is. */
    z.strictObject({
      kind: z.literal("settings-file"),
      format: z.enum(["custom-models", "provider-settings"]),
      provider: providerName(),
      args: args(),
      variable: z.optional(envName()),
      apiType: z.optional(text()),
      modelName: z.optional(text()),
    }),
  ]);

/** How a CLI is pointed at a model endpoint or proxy of the user's own: `base_url` under
 * `[agents.<name>]` in scv's config, and `api_key_env`, the variable of scv's environment holding its
 * key. The key goes only into the agent's environment, as `key`. */
export const endpoint = () =>
  z.discriminatedUnion("kind", [
    z
      .strictObject({
        kind: z.literal("supported"),
        api: endpointApi(),
        url: endpointUrl(),
        /** The variable that carries the key, set in this agent's environment only. */
        key: envName(),
        /** Arguments every such turn adds after the fixed ones (never the key). */
        args: args(),
        /** A value the CLI's own JSON settings must hold for it to use the key (a chosen sign-in
         * that no variable or flag overrides): scv sets it where none is set, and refuses a turn
         * where the user chose another. */
        requires: z.optional(z.strictObject({ file: homePath(), path: keyPath(), value: text() })),
        /** Whether the same rendering reaches its ACP server (`--transport acp`). */
        acp: z.boolean(),
        verified: verified(),
      })
      .check(
        // An ACP server gets the turn's variables, not its command line or files.
        z.refine((row) => !row.acp || (row.url.kind === "env" && row.args.length === 0), {
          error: "acp = true needs an endpoint given by variables only (url kind env, no args)",
        }),
      ),
    z.strictObject({ kind: z.literal("unsupported"), reason: text() }),
  ]);
export type Endpoint = Field<typeof endpoint>;
