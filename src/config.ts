// scv's config file (TOML), validated with zod. A malformed file is an error naming the file, the
// key and what was expected: scv never runs on a half-loaded config.

import { existsSync, readFileSync } from "node:fs";
import { parse as parseToml } from "smol-toml";
import * as z from "zod/mini";
import { AGENT_NAMES } from "./adapters.js";
import { isWaitable, parseDuration } from "./duration.js";
import { ScvError } from "./errors.js";
import { configCandidates, type Env } from "./home/paths.js";
import { lazy } from "./lazy.js";
import { issueText } from "./validation.js";

const duration = lazy(() =>
  z.string().check(
    z.refine((text: string) => isWaitable(parseDuration(text)), {
      error: "a duration from 1ms to 24d, such as 90s, 20m or 1h",
    }),
  ),
);
const policy = lazy(() => z.enum(["auto", "default"]));
const envName = lazy(() =>
  z
    .string()
    .check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: "expected a variable name such as IS_SANDBOX" })),
);
const text = lazy(() => z.string().check(z.minLength(1)));

const agentConfig = lazy(() =>
  z.strictObject({
    /** A path or command name that replaces the descriptor's command. */
    command: z.optional(text()),
    model: z.optional(text()),
    effort: z.optional(text()),
    policy: z.optional(policy()),
    timeout: z.optional(duration()),
    idle_timeout: z.optional(duration()),
    /** Extra variables for this agent only (e.g. IS_SANDBOX=1); set after isolation. */
    env: z.optional(z.record(envName(), z.string())),
  }),
);

const configSchema = lazy(() =>
  z.strictObject({
    /** How many turns `scv delegate a b c` runs at once. */
    parallel: z.optional(z.int().check(z.gte(1), z.lte(64))),
    /** How deep agents may delegate to agents through scv. */
    max_depth: z.optional(z.int().check(z.gte(0), z.lte(16))),
    defaults: z.optional(
      z.strictObject({
        policy: z.optional(policy()),
        timeout: z.optional(duration()),
        idle_timeout: z.optional(duration()),
      }),
    ),
    agents: z.optional(z.partialRecord(z.enum(AGENT_NAMES as [string, ...string[]]), agentConfig())),
  }),
);

export type Config = z.infer<ReturnType<typeof configSchema>>;
export type AgentConfig = z.infer<ReturnType<typeof agentConfig>>;

export interface LoadedConfig {
  readonly path: string;
  readonly exists: boolean;
  readonly config: Config;
}

export function loadConfig(env: Env = process.env): LoadedConfig {
  const candidates = configCandidates(env);
  const path = candidates.find((candidate) => existsSync(candidate));
  if (path === undefined) {
    if (env.SCV_CONFIG) {
      throw new ScvError("BAD_CONFIG", `config file ${env.SCV_CONFIG} (from SCV_CONFIG) does not exist`);
    }
    return { path: candidates.at(-1) ?? "config.toml", exists: false, config: {} };
  }
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ScvError("BAD_CONFIG", `cannot read config file ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return { path, exists: true, config: parseConfig(text, path) };
}

/** Parse and validate config text; `path` names the file in messages. */
export function parseConfig(text: string, path: string): Config {
  let raw: unknown;
  try {
    raw = parseToml(text);
  } catch (error) {
    const reason = ((error as Error).message.split("\n")[0] ?? "").trim();
    throw new ScvError("BAD_CONFIG", `${path} is not valid TOML: ${reason}`, { cause: error });
  }
  const result = configSchema().safeParse(raw, { error: issueText });
  if (!result.success) {
    const issue = result.error.issues[0];
    const keyPath = (issue?.path ?? []).map(String);
    // An unknown key is reported at its parent; name the key itself.
    if (issue?.code === "unrecognized_keys" && issue.keys[0] !== undefined) keyPath.push(issue.keys[0]);
    const key = keyPath.length > 0 ? keyPath.join(".") : "(top level)";
    const underAgents =
      issue?.code === "unrecognized_keys" && keyPath.length === 2 && keyPath[0] === "agents";
    const expected = underAgents ? `unknown agent — known: ${AGENT_NAMES.join(", ")}` : describeIssue(issue);
    throw new ScvError("BAD_CONFIG", `${path}: ${key}: ${expected}`);
  }
  return result.data;
}

function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (issue === undefined) return "invalid";
  switch (issue.code) {
    case "unrecognized_keys":
      return "unknown key";
    case "invalid_key":
      return issue.path.length === 1 && issue.path[0] === "agents"
        ? "unknown agent (see scv agents list)"
        : issue.message;
    default:
      // Specific: parsed with `issueText`, or the schema's own message.
      return issue.message;
  }
}

/** The settings for one agent: its own section over `[defaults]`. */
export function agentSettings(config: Config, name: string): AgentConfig {
  const own = config.agents?.[name] ?? {};
  return { ...config.defaults, ...own };
}
