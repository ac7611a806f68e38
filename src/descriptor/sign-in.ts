// How scv signs an agent in and out inside its private home, and tells whether it is signed in: the
// descriptor's `login`, `status`, `logout` and `preflight`, and the key stores they name.

import * as z from "zod/mini";
import { args, envName, type Field, homePath, keyPath, text } from "./fields.js";

// Every key store is named for what it reads and writes; its fields name the files and members, so
// that a new agent whose CLI keeps its sign-in the same way needs a row and no code. The stores
// `--with-api-key` can write (apiKeyStore) are some of those a row's status, preflight and logout
// read (keyStore): each kind's shape is written once.

/** A sign-in in the same home that a stored key competes with: a file whose presence means it,
 * `holds` naming it in messages ("a Claude subscription sign-in"). */
const otherSignIn = () => z.strictObject({ file: homePath(), holds: text() });

/** scv keeps the key in its own 0600 file `key` and sets `setting`, a member of the JSON `settings`,
 * to a command that prints it (the CLI runs it and uses its stdout as the key); `other` is a sign-in
 * beside it that the key should win over. */
const keyHelperStore = () =>
  z.strictObject({
    kind: z.literal("key-helper"),
    key: homePath(),
    settings: homePath(),
    setting: text(),
    other: z.optional(otherSignIn()),
  });

/** The JSON file the CLI's own sign-in writes: `loginArgs` make the CLI store a key read on its
 * stdin there (scv never writes it itself), `key` is the member holding an API key, and `tokens` the
 * object of an account's sign-in (`fields` that hold its tokens, `is` naming it), which the key
 * replaces. A `keyring` setting of the CLI's TOML config (`key` set to one of `values`) moves the
 * sign-in out of the file. */
const authJsonStore = () =>
  z.strictObject({
    kind: z.literal("auth-json"),
    file: homePath(),
    loginArgs: args(),
    key: keyPath(),
    tokens: z.strictObject({ path: keyPath(), fields: z.array(text()), is: text() }),
    keyring: z.optional(z.strictObject({ file: homePath(), key: text(), values: z.array(text()) })),
  });

/** The key as `variable` in the `dotenv` file, or without one in the `env` block of the JSON
 * `settings`, whose member at `selection.path` set to `selection.value` makes the CLI use it (a
 * sign-in chosen in its settings, which the key's variable alone does not override). `environment`:
 * the key is also set as `variable` for every run of the CLI, for a CLI that does not always read
 * its file (one that reads the first dotenv file it finds walking up from the project) — a variable
 * set wins over every file. */
const selectedKeyStore = () =>
  z.strictObject({
    kind: z.literal("selected-key"),
    variable: envName(),
    settings: homePath(),
    selection: z.strictObject({ path: keyPath(), value: text() }),
    dotenv: z.optional(homePath()),
    environment: z.optional(z.boolean()),
  });

/** A YAML file whose top-level mapping `map` holds the key under `variable` (`refs:` then
 * `  DEEPSEEK_API_KEY: "…"`); lines outside that mapping are kept as they are. */
const yamlEntryStore = () =>
  z.strictObject({ kind: z.literal("yaml-entry"), file: homePath(), map: text(), variable: envName() });

/** An OAuth sign-in the CLI writes into a JSON file: the object at `path` of `file`, its token,
 * expiry (milliseconds since the epoch) and plan in `fields`; `is` names it in messages. Where the
 * CLI keeps the tokens in the macOS keychain, `keychain` is the member its sign-in leaves on disk. */
const oauthFileStore = () =>
  z.strictObject({
    kind: z.literal("oauth-file"),
    file: homePath(),
    path: keyPath(),
    fields: z.strictObject({ access: text(), refresh: text(), expiresAt: text(), plan: text() }),
    is: text(),
    keychain: z.optional(z.strictObject({ file: homePath(), path: keyPath() })),
  });

/** Sign-ins the CLI's own login writes as the entries of a JSON object in `file` (each entry one
 * sign-in), or, in `tomlKey`, a filled `key` in any table of a TOML config file (left on sign-out:
 * the file is the CLI's own configuration). */
const jsonEntriesStore = () =>
  z.strictObject({
    kind: z.literal("json-entries"),
    file: homePath(),
    tomlKey: z.optional(z.strictObject({ file: homePath(), key: text() })),
  });

/** Keys per model provider: the CLI's own sign-ins in the JSON object `auth` (each entry
 * `{"type": "api_key", "key"}` or `{"type": "oauth", "refresh", "access"}`, removed whole on
 * sign-out), and custom providers in `models` (`providers.<name>.apiKey`: only the keys are removed,
 * the providers are the user's configuration). */
const providerKeysStore = () =>
  z.strictObject({ kind: z.literal("provider-keys"), auth: homePath(), models: homePath() });

/** A CLI's own credential files, relative to the agent home. */
export const keyStore = () =>
  z.discriminatedUnion("kind", [
    keyHelperStore(),
    authJsonStore(),
    selectedKeyStore(),
    yamlEntryStore(),
    oauthFileStore(),
    jsonEntriesStore(),
    providerKeysStore(),
  ]);
export type KeyStore = Field<typeof keyStore>;
export type KeyStoreKind = KeyStore["kind"];

/** The key stores scv can write an API key into (the others are written by the CLI's own sign-in). */
const apiKeyStore = () =>
  z.discriminatedUnion("kind", [keyHelperStore(), authJsonStore(), selectedKeyStore(), yamlEntryStore()]);
export type ApiKeyStore = Field<typeof apiKeyStore>;

/** What a CLI's own sign-in or sign-out needs from the person running it: `nothing` (it runs to its
 * end alone, within a time limit); `terminal` (a person at the terminal: it asks there — a picker, a
 * key, a pasted code); `browser` (a browser on this machine, which it opens and which finishes it, a
 * redirect to localhost; or, without a display, a person at the terminal who opens its link). */
const needs = () => z.enum(["nothing", "terminal", "browser"]);
export type Needs = Field<typeof needs>;

/** What an imported file must hold. `api-key-only`: an API key and no account tokens, as `store`
 * reads the file: an account's refresh token rotates, so two homes sharing it sign each other out —
 * it may live in one home only. */
const importCheck = () =>
  z.discriminatedUnion("kind", [z.strictObject({ kind: z.literal("api-key-only"), store: authJsonStore() })]);
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

/** How scv condenses a CLI's own status output into one line; the raw output names accounts or key
 * fragments, and is never shown. */
const statusSummary = () =>
  z.discriminatedUnion("kind", [
    /** Words in its text, case aside: one of `signedOut` means signed out, else the first of `says`
     * found names the sign-in (`signed in (<means>)`), else it is signed in. */
    z.strictObject({
      kind: z.literal("words"),
      signedOut: z.array(text()),
      says: z.array(z.strictObject({ word: text(), means: text() })),
    }),
    /** A JSON object: the member `signedIn` is `true` when signed in, and the value of `method` names
     * the sign-in where `methods` has it. */
    z.strictObject({
      kind: z.literal("json"),
      signedIn: text(),
      method: text(),
      methods: z.array(z.strictObject({ value: text(), means: text() })),
    }),
    /** The exit status alone. */
    z.strictObject({ kind: z.literal("exit-status") }),
  ]);
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
