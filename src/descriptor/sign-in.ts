// How scv signs an agent in and out inside its private home, and tells whether it is signed in: the
// descriptor's `login`, `status`, `logout` and `preflight`, and the key stores they name.

import * as z from "zod/mini";
import { args, envName, type Field, homePath, text } from "./fields.js";

// The stores `--with-api-key` can write (apiKeyStore) are some of those a row's status, preflight and
// logout read (keyStore): each kind's shape is written once.

/** Claude Code with an API key: scv keeps the key in `key` (0600) and points an `apiKeyHelper` in
 * `settings` at it; `credentials` is checked for a conflicting subscription sign-in. */
const claudeApiKeyStore = () =>
  z.strictObject({
    kind: z.literal("claude-api-key"),
    key: homePath(),
    settings: homePath(),
    credentials: homePath(),
  });

/** Codex's `auth.json`: `loginArgs` (`login --with-api-key`) store a key read on stdin there, an API
 * key (`auth_mode` "apikey") or a ChatGPT sign-in (`tokens` with a refresh token). */
const codexAuthStore = () =>
  z.strictObject({ kind: z.literal("codex-auth"), auth: homePath(), loginArgs: args() });

/** Gemini CLI and its fork Qwen Code: the key as `variable` in the `dotenv` file, or without one in
 * the `env` block of the JSON `settings`, whose `security.auth.selectedType` set to `selectedType`
 * makes the CLI use it. */
const selectedKeyStore = () =>
  z.strictObject({
    kind: z.literal("selected-key"),
    variable: envName(),
    settings: homePath(),
    selectedType: text(),
    dotenv: z.optional(homePath()),
  });

/** DeepSeek Harness `.credentials.yaml`, holding `refs.<variable>`. */
const dshRefsStore = () =>
  z.strictObject({ kind: z.literal("dsh-refs"), path: homePath(), variable: envName() });

/** A CLI's own credential files, relative to the agent home. */
export const keyStore = () =>
  z.discriminatedUnion("kind", [
    claudeApiKeyStore(),
    /** Claude Code's subscription sign-in (`/login` or `auth login`) and its config file. */
    z.strictObject({ kind: z.literal("claude-account"), credentials: homePath(), config: homePath() }),
    codexAuthStore(),
    selectedKeyStore(),
    /** Grok: sign-ins from `grok login` in `auth` (a JSON object of entries), or an API key in the
     * `config` profile of its default model. */
    z.strictObject({ kind: z.literal("grok"), auth: homePath(), config: homePath() }),
    dshRefsStore(),
    /** pi's agent directory: `auth.json`, plus an OpenAI-compatible endpoint in `models.json`. */
    z.strictObject({ kind: z.literal("pi"), dir: homePath() }),
  ]);
export type KeyStore = Field<typeof keyStore>;
export type KeyStoreKind = KeyStore["kind"];

/** The key stores scv can write an API key into (the others are written by the CLI's own sign-in). */
export const apiKeyStore = () =>
  z.discriminatedUnion("kind", [claudeApiKeyStore(), codexAuthStore(), selectedKeyStore(), dshRefsStore()]);
export type ApiKeyStore = Field<typeof apiKeyStore>;

/** What a CLI's own sign-in or sign-out needs from the person running it: `nothing` (it runs to its
 * end alone, within a time limit); `terminal` (a person at the terminal: it asks there — a picker, a
 * key, a pasted code); `browser` (a browser on this machine, which it opens and which finishes it, a
 * redirect to localhost; or, without a display, a person at the terminal who opens its link). */
const needs = () => z.enum(["nothing", "terminal", "browser"]);
export type Needs = Field<typeof needs>;

/** What an imported file must hold. `codex-api-key`: a Codex `auth.json` holding an API key and no
 * ChatGPT tokens: a ChatGPT sign-in's refresh token rotates, so two homes sharing it sign each other
 * out — it may live in one home only. */
const importCheck = () => z.literal("codex-api-key");
export type ImportCheck = Field<typeof importCheck>;

/** One file `import` copies from the user's own home into the agent home. */
const importFile = () =>
  z.strictObject({
    /** Relative to the user's home. */
    from: text(),
    /** Relative to the agent home. */
    to: homePath(),
    /** What the file must hold to be copied. */
    accept: importCheck(),
  });
export type ImportFile = Field<typeof importFile>;

/** What every sign-in that runs the CLI may offer besides: `deviceCode` names the CLI's own arguments
 * for a sign-in that needs neither a terminal nor a display (a code shown here, entered on any
 * device), taken after `--`; `apiKey` offers `login --with-api-key`; `import` offers `login --import`. */
const alternatives = () => ({
  deviceCode: z.optional(args()),
  apiKey: z.optional(apiKeyStore()),
  import: z.optional(z.array(importFile())),
});

/** How scv signs an agent in, inside its private agent home. */
export const login = () =>
  z.discriminatedUnion("kind", [
    /** Run the CLI's own sign-in command with the terminal attached. */
    z.strictObject({ kind: z.literal("command"), args: args(), needs: needs(), ...alternatives() }),
    /** Open the CLI interactively (it needs a terminal); `hint` names its in-app sign-in. */
    z.strictObject({ kind: z.literal("interactive"), args: args(), hint: text(), ...alternatives() }),
    /** Read an API key (no echo, or stdin) and store it in the CLI's own credential file. */
    z.strictObject({ kind: z.literal("api-key"), store: apiKeyStore() }),
    /** Copy the user's own configuration of the CLI into its scv home. */
    z.strictObject({ kind: z.literal("import"), files: z.array(importFile()) }),
  ]);
export type Login = Field<typeof login>;

/** How scv condenses a CLI's own status output; the raw output names accounts or key fragments.
 * `codex-text`: `codex login status`, "API key" or "ChatGPT" in its text; `claude-json`: `claude auth
 * status` JSON, `loggedIn` and `authMethod`; `exit-status`: the exit status alone. */
const statusSummary = () => z.enum(["codex-text", "claude-json", "exit-status"]);
export type StatusSummary = Field<typeof statusSummary>;

/** How scv tells whether an agent is signed in. */
export const status = () =>
  z.discriminatedUnion("kind", [
    /** The CLI prints its own status and exits non-zero when signed out. */
    z.strictObject({ kind: z.literal("command"), args: args(), summary: statusSummary() }),
    /** scv inspects the key store without printing secrets. */
    z.strictObject({ kind: z.literal("stored"), store: keyStore() }),
    /** No verified way to tell: `scv agents check` tells by calling it. */
    z.strictObject({ kind: z.literal("unchecked") }),
  ]);
export type Status = Field<typeof status>;

/** How scv signs an agent out. An `interactive` one removes a key scv stored (the login's `apiKey`)
 * first, and opens the CLI only where a sign-in of its own may remain. */
export const logout = () =>
  z.discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("command"), args: args(), needs: needs() }),
    /** scv removes the credential files of the key store. */
    z.strictObject({ kind: z.literal("stored"), store: keyStore() }),
    z.strictObject({ kind: z.literal("interactive"), args: args(), hint: text() }),
  ]);
export type Logout = Field<typeof logout>;
