// The adapter descriptor as a zod schema: the one check every row passes, shipped (a test parses each
// row of ADAPTERS) or defined by the user in scv's config (`[agents.<name>]`). The type-level check
// at the end holds the schema and `AdapterDescriptor` equal, so a field added to one and not the other
// fails `npm run check`.
//
// A pattern (`idPattern`, `textNotices`) is a RegExp in the table and a string in a config file: the
// schema takes either and gives a RegExp, and a string must be anchored (`^…$`), since what it
// accepts goes into argv.

import * as z from "zod/mini";
import type { AdapterDescriptor } from "./adapters.js";
import { lazy } from "./lazy.js";

/** A name usable as a CLI token, a home folder `agents/<name>` and a handle's prefix. */
export const AGENT_NAME_PATTERN = /^[a-z][a-z0-9-]{0,30}$/;

const text = () => z.string().check(z.minLength(1));
const args = () => z.array(z.string());
const envName = () =>
  z
    .string()
    .check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: "expected a variable name such as FOO_HOME" }));
const envRule = () =>
  z
    .string()
    .check(
      z.regex(/^[A-Za-z_][A-Za-z0-9_]*\*?$/, { error: "expected a variable name, or a prefix ending in *" }),
    );
const envPair = () => z.tuple([envName(), z.string()]);
/** A path inside the agent home: relative, and never climbing out of it. */
const homePath = () =>
  z.string().check(
    z.refine((path: string) => !path.startsWith("/") && !path.split("/").includes(".."), {
      error: "expected a path relative to the agent home, without ..",
    }),
  );

function anchoredPattern(source: string): boolean {
  if (!source.startsWith("^") || !source.endsWith("$")) return false;
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

const PATTERN_ERROR = "expected a regular expression anchored at both ends, such as ^[0-9a-f-]{36}$";

const pattern = () =>
  z.pipe(
    z.unknown(),
    z.transform((value: unknown, context): RegExp => {
      if (value instanceof RegExp) return value;
      if (typeof value === "string" && anchoredPattern(value)) return new RegExp(value);
      context.issues.push({ code: "custom", message: PATTERN_ERROR, input: value });
      return z.NEVER;
    }),
  );

const needs = () => z.enum(["nothing", "terminal", "browser"]);

// The stores `--with-api-key` can write (apiKeyStore) are some of those a row's status, preflight and
// logout read (keyStore): each kind's shape is written once.
const claudeApiKeyStore = () =>
  z.strictObject({
    kind: z.literal("claude-api-key"),
    key: homePath(),
    settings: homePath(),
    credentials: homePath(),
  });
const codexAuthStore = () =>
  z.strictObject({ kind: z.literal("codex-auth"), auth: homePath(), loginArgs: args() });
const selectedKeyStore = () =>
  z.strictObject({
    kind: z.literal("selected-key"),
    variable: envName(),
    settings: homePath(),
    selectedType: text(),
    dotenv: z.optional(homePath()),
  });
const dshRefsStore = () =>
  z.strictObject({ kind: z.literal("dsh-refs"), path: homePath(), variable: envName() });

const keyStore = () =>
  z.discriminatedUnion("kind", [
    claudeApiKeyStore(),
    z.strictObject({ kind: z.literal("claude-account"), credentials: homePath(), config: homePath() }),
    codexAuthStore(),
    selectedKeyStore(),
    z.strictObject({ kind: z.literal("grok"), auth: homePath(), config: homePath() }),
    dshRefsStore(),
    z.strictObject({ kind: z.literal("pi"), dir: homePath() }),
  ]);

const apiKeyStore = () =>
  z.discriminatedUnion("kind", [claudeApiKeyStore(), codexAuthStore(), selectedKeyStore(), dshRefsStore()]);

const importFile = () => z.strictObject({ from: text(), to: homePath(), accept: z.literal("codex-api-key") });

const login = () =>
  z.discriminatedUnion("kind", [
    z.strictObject({
      kind: z.literal("command"),
      args: args(),
      needs: needs(),
      deviceCode: z.optional(args()),
      apiKey: z.optional(apiKeyStore()),
      import: z.optional(z.array(importFile())),
    }),
    z.strictObject({
      kind: z.literal("interactive"),
      args: args(),
      hint: text(),
      deviceCode: z.optional(args()),
      apiKey: z.optional(apiKeyStore()),
      import: z.optional(z.array(importFile())),
    }),
    z.strictObject({ kind: z.literal("api-key"), store: apiKeyStore() }),
    z.strictObject({ kind: z.literal("import"), files: z.array(importFile()) }),
  ]);

const status = () =>
  z.discriminatedUnion("kind", [
    z.strictObject({
      kind: z.literal("command"),
      args: args(),
      summary: z.enum(["codex-text", "claude-json", "exit-status"]),
    }),
    z.strictObject({ kind: z.literal("stored"), store: keyStore() }),
    z.strictObject({ kind: z.literal("unchecked") }),
  ]);

const logout = () =>
  z.discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("command"), args: args(), needs: needs() }),
    z.strictObject({ kind: z.literal("stored"), store: keyStore() }),
    z.strictObject({ kind: z.literal("interactive"), args: args(), hint: text() }),
  ]);

/** scv's parsers (src/parsers/), one per output format. */
export const OUTPUT_FORMATS = [
  "text",
  "claude-stream-json",
  "codex-jsonl",
  "pi-json",
  "gemini-stream-json",
  "qwen-stream-json",
  "opencode-json",
  "copilot-json",
  "cursor-stream-json",
  "amp-stream-json",
  "cline-json",
  "droid-stream-json",
] as const;

const output = () =>
  z.strictObject({
    kind: z.enum(OUTPUT_FORMATS),
    args: args(),
    lastMessageArgs: z.optional(args()),
  });

const promptOnStdin = () =>
  z.strictObject({
    args: args(),
    alters: z.enum(["nothing", "strips-end", "appends-two-newlines"]),
    maxBytes: z.optional(z.int().check(z.positive())),
  });

const prompt = () =>
  z.discriminatedUnion("kind", [
    z.strictObject({
      kind: z.literal("positional"),
      endOfOptions: z.boolean(),
      onStdin: z.optional(promptOnStdin()),
    }),
    z.strictObject({
      kind: z.literal("flag"),
      args: args(),
      joined: text(),
      onStdin: z.optional(promptOnStdin()),
    }),
    z.strictObject({ kind: z.literal("stdin"), trims: z.boolean() }),
  ]);

const resume = () =>
  z.discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("unsupported"), reason: z.optional(text()) }),
    z.strictObject({
      kind: z.literal("supported"),
      start: z.optional(args()),
      subcommand: z.optional(args()),
      options: args(),
      positional: z.optional(args()),
      idPattern: pattern(),
      sessionPath: z.optional(homePath()),
      lost: z.optional(pattern()),
    }),
  ]);

const verified = () =>
  z.discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("lab"), version: text() }),
    z.strictObject({ kind: z.literal("offline"), version: text(), reason: text() }),
    z.strictObject({ kind: z.literal("unverified"), reason: text() }),
  ]);

const acpFull = () =>
  z.discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("mode"), mode: text() }),
    z.strictObject({ kind: z.literal("option"), option: text(), value: text() }),
    z.strictObject({ kind: z.literal("args"), args: args() }),
    z.strictObject({ kind: z.literal("none") }),
  ]);

const homeSettings = () =>
  z.strictObject({
    file: homePath(),
    values: z.array(
      z.strictObject({ path: z.array(text()).check(z.minLength(1)), value: z.boolean(), why: text() }),
    ),
  });

const acpLaunch = () =>
  z.strictObject({
    command: text(),
    args: args(),
    modelArgs: z.optional(args()),
    package: z.optional(text()),
    cliPathVariable: z.optional(envName()),
    full: acpFull(),
    fullEnvironment: z.array(envPair()),
    cumulativeUsage: z.optional(z.boolean()),
    textNotices: z.optional(z.strictObject({ error: pattern(), info: pattern() })),
    verified: verified(),
    known: z.optional(text()),
    homeSettings: z.optional(homeSettings()),
    loadAfterMinute: z.optional(z.strictObject({ dir: homePath(), name: pattern() })),
  });

const takeover = () =>
  z.discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("unsupported") }),
    z.strictObject({ kind: z.literal("refused"), reason: text() }),
    z.strictObject({
      kind: z.literal("supported"),
      args: args(),
      fullArgs: args(),
      verified: z.optional(verified()),
    }),
  ]);

const mcpFileFormat = () => z.enum(["mcp-servers", "copilot-mcp-servers", "opencode-config"]);

const mcpPassing = () =>
  z.discriminatedUnion("kind", [
    z.strictObject({
      kind: z.literal("args-file"),
      format: mcpFileFormat(),
      args: args().check(
        z.refine(placeholderCheck("{file}"), { error: "expected {file} in one of its arguments" }),
      ),
      isolate: args(),
      verified: verified(),
    }),
    z.strictObject({ kind: z.literal("config-args"), flag: text(), table: text(), verified: verified() }),
    z.strictObject({
      kind: z.literal("settings-env"),
      variable: envName(),
      format: mcpFileFormat(),
      verified: verified(),
    }),
    z.strictObject({ kind: z.literal("unsupported"), reason: text() }),
  ]);

const endpointUrl = () =>
  z.discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("env"), variable: envName() }),
    z.strictObject({ kind: z.literal("config-args"), flag: text(), provider: providerName() }),
    z.strictObject({
      kind: z.literal("config-env"),
      variable: envName(),
      format: z.literal("opencode-config"),
      provider: providerName(),
    }),
    z.strictObject({
      kind: z.literal("extension-file"),
      args: args().check(
        z.refine(placeholderCheck("{file}"), { error: "expected {file} in one of its arguments" }),
      ),
      format: z.literal("pi-extension"),
      provider: providerName(),
    }),
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

/** A provider's id: a TOML bare key, a JSON key and a model id's prefix alike. */
const providerName = () =>
  z.string().check(z.regex(/^[a-z][a-z0-9-]{0,30}$/, { error: "expected a name such as my-endpoint" }));

const endpoint = () =>
  z.discriminatedUnion("kind", [
    z
      .strictObject({
        kind: z.literal("supported"),
        api: z.enum(["anthropic-messages", "openai-responses", "openai-chat", "gemini"]),
        url: endpointUrl(),
        key: envName(),
        args: args(),
        requires: z.optional(
          z.strictObject({ file: homePath(), path: z.array(text()).check(z.minLength(1)), value: text() }),
        ),
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

const modeReport = () =>
  z.discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("claude-init"), full: text(), settings: homePath() }),
    z.strictObject({
      kind: z.literal("codex-rollout"),
      dir: homePath(),
      full: text(),
      settings: homePath(),
      settingKey: text(),
    }),
    z.strictObject({ kind: z.literal("none") }),
  ]);

const retries = () =>
  z.discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("env"), variable: envName(), note: text() }),
    z.strictObject({ kind: z.literal("config"), file: homePath(), setting: text(), note: text() }),
    z.strictObject({ kind: z.literal("none"), note: text() }),
  ]);

const replySchema = () =>
  z.discriminatedUnion("kind", [
    z.strictObject({
      kind: z.literal("file"),
      args: args().check(
        z.refine(placeholderCheck("{file}"), { error: "expected {file} in one of its arguments" }),
      ),
    }),
    z.strictObject({
      kind: z.literal("inline"),
      args: args().check(
        z.refine(placeholderCheck("{schema}"), { error: "expected {schema} in one of its arguments" }),
      ),
    }),
    z.strictObject({ kind: z.literal("prompt") }),
  ]);

const review = () => z.strictObject({ readOnlyArgs: args(), schema: replySchema() });

function placeholderCheck(placeholder: string) {
  return (list: readonly string[]) => list.length === 0 || list.some((arg) => arg.includes(placeholder));
}

/** The schema of one adapter descriptor (src/adapters.ts). */
export const descriptorSchema = lazy(() =>
  z.strictObject({
    name: z.string().check(
      z.regex(AGENT_NAME_PATTERN, {
        error: "expected a lower-case name of at most 31 characters: letters, digits and -",
      }),
    ),
    product: text(),
    family: z.nullable(text()),
    offers: text(),
    packages: z.array(text()),
    binPackages: z.optional(z.array(text())),
    platformPackage: z.optional(text()),

    verified: verified(),
    command: text(),
    args: args(),
    headlessArgs: z.optional(args()),
    prompt: prompt(),
    modelArgs: args().check(
      z.refine(placeholderCheck("{model}"), { error: "expected {model} in one of its arguments" }),
    ),
    effortArgs: args().check(
      z.refine(placeholderCheck("{effort}"), {
        error: "expected {effort} in one of its arguments",
      }),
    ),
    effortLevels: z.array(text()),
    modelHint: text(),
    modelsMayHaveSlash: z.optional(z.boolean()),
    homeEnvironment: z.array(z.tuple([envName(), homePath()])),
    fixedEnvironment: z.array(envPair()),
    removedEnvironment: z.array(envRule()),
    fullPermissionArgs: args(),
    fullPermissionEnvironment: z.optional(z.array(envPair())),
    rootSandboxEnvironment: z.optional(envPair()),
    modeReport: modeReport(),
    searchDirs: z.array(homePath()),
    login: login(),
    ownConfig: z.strictObject({ file: homePath(), signsIn: z.boolean() }),
    endpoint: endpoint(),
    status: status(),
    preflight: z.optional(keyStore()),
    logout: logout(),
    output: output(),
    resume: resume(),
    conversationFiles: z.nullable(
      z.strictObject({
        dir: homePath(),
        extension: text(),
        idPrefix: z.optional(z.int().check(z.gte(8))),
      }),
    ),
    credentialFiles: z.array(homePath()),
    homeSettings: z.optional(homeSettings()),
    retries: retries(),
    transport: z.enum(["process", "acp"]),
    acp: z.nullable(acpLaunch()),
    cliTurns: z.boolean(),
    mcpPassing: mcpPassing(),
    takeover: takeover(),
    review: review(),
  }),
);

type DeepReadonly<T> = T extends RegExp
  ? T
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** The schema's output, read-only as the table is. */
export type ParsedDescriptor = DeepReadonly<z.output<ReturnType<typeof descriptorSchema>>>;

// The schema and the descriptor type are the same type: each is assignable to the other, and they
// have the same fields (an optional one missing from either would pass assignability). Nested
// objects are strict, so a shipped row using a field the schema lacks fails the table's test.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaIsTheDescriptor: Same<ParsedDescriptor, AdapterDescriptor> = true;
const sameFields: Same<keyof ParsedDescriptor, keyof AdapterDescriptor> = true;
void schemaIsTheDescriptor;
void sameFields;
