// One agent's row of the table, as a zod schema with each field's meaning: the one check every row
// passes, shipped (a test parses each row of ADAPTERS) or defined by the user in scv's config
// (`[agents.<name>]`, src/config-agents.ts). `AdapterDescriptor`, the type every module reads a row
// as, is this schema's output: the descriptor is written once, here. The schema is built only when a
// row is parsed; a plain turn reads the shipped rows and never builds it.

import * as z from "zod/mini";
import { lazy } from "../lazy.js";
import { acpLaunch, takeover, transportKind } from "./acp.js";
import { endpoint } from "./endpoint.js";
import {
  AGENT_NAME_PATTERN,
  args,
  argsWith,
  envName,
  envPair,
  envRule,
  type Field,
  homePath,
  text,
  verified,
} from "./fields.js";
import { mcpHost, mcpPassing } from "./mcp.js";
import { review } from "./review.js";
import { keyStore, login, logout, status } from "./sign-in.js";
import {
  conversationFiles,
  homeSettings,
  modeReport,
  output,
  ownConfig,
  prompt,
  resume,
  retries,
} from "./turn.js";

const row = () =>
  z.strictObject({
    /** The CLI token (`scv delegate <name>`) and the home folder `agents/<name>`. */
    name: z.string().check(
      z.regex(AGENT_NAME_PATTERN, {
        error: "expected a lower-case name of at most 31 characters: letters, digits and -",
      }),
    ),
    /** Product name for messages. */
    product: text(),
    /** The family of the models the CLI runs (`claude`, `gpt`, `gemini`, …), so a review goes to
     * another family than the author's; null where the user picks among makers' models (the family
     * is then read from the model's id: src/review/family.ts). */
    family: z.nullable(text()),
    /** What this agent offers, as one factual clause (`scv agents list --json`). */
    offers: text(),
    /** npm package(s) that install the CLI; empty when it is not on npm. */
    packages: z.array(text()),
    /** Other npm packages whose folder may hold the executable (a dependency's), read for its
     * version. */
    binPackages: z.optional(z.array(text())),
    /** An npm package of the CLI's binary for this platform (`{platform}`, `{arch}`), installed
     * beside `packages` where the registry lacks the version their optional dependency names. */
    platformPackage: z.optional(text()),
    /** The oldest Node.js its package runs on (its `engines`), where that is newer than scv's own:
     * npm on an older Node quietly installs an older release of it, and a newer one fails to start.
     * `scv agents install` refuses an older `node` on PATH, and `agents status` says so. */
    nodeFloor: z.optional(
      z.string().check(z.regex(/^\d+\.\d+\.\d+$/, { error: "expected a version such as 22.19.0" })),
    ),
    verified: verified(),
    command: text(),
    /** Fixed arguments right after the command. */
    args: args(),
    /** Arguments every headless turn needs, after the resume subcommand when continuing. */
    headlessArgs: z.optional(args()),
    prompt: prompt(),
    modelArgs: argsWith("{model}"),
    effortArgs: argsWith("{effort}"),
    /** Effort levels the CLI accepts; empty when it takes none. */
    effortLevels: z.array(text()),
    modelHint: text(),
    /** The CLI's model ids may contain `/` (`provider/model`): `agent:a/b` with a `b` that is no
     * effort level is then read as the model `a/b`; without it, such a spec is refused as a misspelt
     * effort. */
    modelsMayHaveSlash: z.optional(z.boolean()),
    /** Variables pointing the CLI's state into the agent home, as paths relative to it. */
    homeEnvironment: z.array(z.tuple([envName(), homePath()])),
    /** Fixed variables for every delegated turn. */
    fixedEnvironment: z.array(envPair()),
    /** Credential, endpoint and state variables no delegated agent inherits; a trailing `*` is a
     * prefix. */
    removedEnvironment: z.array(envRule()),
    /** Words that name this agent, or the models its vendor sells, in a variable's name: with a
     * secret's word beside them (`MY_CODEX_TOKEN`, `KIMI_AUTH`) no agent gets the variable, as for a
     * model provider's (src/credentials.ts). Its own prefix goes whole by `removedEnvironment`. */
    credentialWords: z.array(
      z
        .string()
        .check(z.regex(/^[A-Z0-9]+( [A-Z0-9]+)*$/, { error: "expected upper-case words, such as ACME" })),
    ),
    /** Under policy `auto`: the CLI's own switches that turn off approval prompts and sandbox. */
    fullPermissionArgs: args(),
    fullPermissionEnvironment: z.optional(z.array(envPair())),
    /** The variable with which a CLI that refuses its full-permission mode to root is told it runs in
     * a sandbox (a container or VM) and grants it after all. scv never sets it; the hint after such a
     * refusal names it, for the user to set in the agent's config `env` or with `--env`. */
    rootSandboxEnvironment: z.optional(envPair()),
    modeReport: modeReport(),
    /** Per-user install directories searched before `PATH`, relative to the user's home. */
    searchDirs: z.array(homePath()),
    login: login(),
    /** The CLI's own settings file inside the agent home (the README's table of each CLI's files is
     * generated from it): where its settings go, such as a custom endpoint or MCP servers. */
    ownConfig: ownConfig(),
    /** How `base_url` and `api_key_env` under `[agents.<name>]` point the CLI at an endpoint of the
     * user's own; a refused sign-in is then that key's, not the CLI's own sign-in's. */
    endpoint: endpoint(),
    status: status(),
    /** A key store read before every turn when `status` is not itself a stored one: a signed-out
     * verdict refuses the turn before spawning (exit 4), where the CLI would otherwise retry its
     * network for minutes. Absent when no file tells. */
    preflight: z.optional(keyStore()),
    logout: logout(),
    output: output(),
    resume: resume(),
    /** Transcripts `scv agents gc` may remove; null when unknown. */
    conversationFiles: z.nullable(conversationFiles()),
    /** Files in the agent home that hold its sign-in or keys, relative to it. */
    credentialFiles: z.array(homePath()),
    /** Values scv keeps in the agent home's own JSON settings file before it starts the CLI there (a
     * turn over either transport, `scv attach`, `scv run`, its own sign-in and sign-out); an ACP
     * server's own are `acp.homeSettings`. */
    homeSettings: z.optional(homeSettings()),
    /** How the user bounds the CLI's own retries (docs/agents.md, "Retries"). */
    retries: retries(),
    /** The transport a turn uses unless `--transport` or the config's `transport` says otherwise. */
    transport: transportKind(),
    /** Its ACP server; null when scv knows none. */
    acp: z.nullable(acpLaunch()),
    /** Whether its CLI has a verified one-process-per-turn mode (the `process` transport). */
    cliTurns: z.boolean(),
    takeover: takeover(),
    /** How a per-turn CLI gets MCP servers (an ACP turn gets them in `session/new`). */
    mcpPassing: mcpPassing(),
    /** How `scv mcp install <agent>` registers scv's MCP server with the agent as a host. */
    mcpHost: mcpHost(),
    /** How a review turn runs it: read-only, held to the findings' schema where it can be. */
    review: review(),
  });

/** The schema of one row (src/adapters.ts), built on first use. */
export const descriptorSchema = lazy(row);

/** One agent's row: everything scv must know about its CLI. */
export type AdapterDescriptor = Field<typeof row>;
