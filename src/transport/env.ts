// The environment of a delegated agent, as a pure function of the parent's environment, the
// descriptor, the agent home, the policy and the config's isolation settings. No agent inherits
// any agent's, model provider's or model cloud's credential variables (the families in
// src/credentials.ts, every adapter's own list in src/adapters.ts); the user's config may remove
// more, keep some, or pass only an allow-list.

import { join } from "node:path";
import { ADAPTERS, type AdapterDescriptor, allAdapters } from "../adapters.js";
import {
  ALWAYS_REMOVED,
  API_KEY_ENDINGS,
  CLOUD_SECRET_FRAGMENTS,
  CLOUD_WORDS,
  PROVIDER_WORDS,
  SCV_OWN,
  SECRET_FRAGMENTS,
  SECRET_WORDS,
  STRICT_PASSED,
} from "../credentials.js";

export type Policy = "auto" | "default";

/** The config's `[isolation]`: names or `*` prefixes to remove as well, to keep although a rule
 * removes them, and whether to pass only STRICT_PASSED (and `keep`). */
export interface IsolationSettings {
  readonly remove?: readonly string[];
  readonly keep?: readonly string[];
  readonly strict?: boolean;
}

export interface AgentEnvRequest {
  readonly parent: Readonly<Record<string, string | undefined>>;
  readonly entry: AdapterDescriptor;
  /** The agent's private home (absolute). */
  readonly home: string;
  readonly policy: Policy;
  /** Variables from the agent's section of scv's config; set last, on purpose. */
  readonly extra?: Readonly<Record<string, string>>;
  readonly isolation?: IsolationSettings;
}

/** XDG base variables, each pointing inside the agent home. */
const XDG_DIRS: readonly (readonly [string, string])[] = [
  ["XDG_CONFIG_HOME", ".config"],
  ["XDG_DATA_HOME", ".local/share"],
  ["XDG_CACHE_HOME", ".cache"],
  ["XDG_STATE_HOME", ".local/state"],
];

export function agentEnvironment(request: AgentEnvRequest): Record<string, string> {
  const { entry, home, policy } = request;
  const env = passedEnvironment(request.parent, request.isolation);
  env.HOME = home;
  for (const [name, dir] of XDG_DIRS) env[name] = join(home, dir);
  for (const [name, dir] of entry.homeEnvironment) env[name] = dir === "" ? home : join(home, dir);
  for (const [name, value] of entry.fixedEnvironment) env[name] = value;
  if (policy === "auto") {
    for (const [name, value] of entry.fullPermissionEnvironment ?? []) env[name] = value;
  }
  for (const [name, value] of Object.entries(request.extra ?? {})) env[name] = value;
  return env;
}

/** What of `parent` any agent may inherit under `isolation` (`withheldVariables`): the same for
 * every agent, so a background turn's runner is handed this rather than the caller's whole
 * environment (jobs/job.ts). */
export function passedEnvironment(
  parent: Readonly<Record<string, string | undefined>>,
  isolation?: IsolationSettings,
): Record<string, string> {
  const withheld = withheldVariables(isolation);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value !== undefined && !withheld(name)) env[name] = value;
  }
  return env;
}

/** Names and `*` prefixes, matched in upper case. */
interface NameRules {
  readonly exact: ReadonlySet<string>;
  readonly prefixes: readonly string[];
}

function nameRules(rules: readonly string[]): NameRules {
  const upper = rules.map((rule) => rule.toUpperCase());
  return {
    exact: new Set(upper.filter((rule) => !rule.endsWith("*"))),
    prefixes: upper.filter((rule) => rule.endsWith("*")).map((rule) => rule.slice(0, -1)),
  };
}

function matchesRules(upperName: string, rules: NameRules): boolean {
  return rules.exact.has(upperName) || rules.prefixes.some((prefix) => upperName.startsWith(prefix));
}

const wordsOf = (phrase: string): string[] => phrase.split(" ");

/** Phrases (each as its words) by their first word: a name's few words are looked up, rather than
 * every phrase tried at every word — a turn tests every inherited variable (docs/benchmarks.md). */
type PhraseIndex = ReadonlyMap<string, readonly (readonly string[])[]>;

function phraseIndex(phrases: readonly string[]): PhraseIndex {
  const index = new Map<string, (readonly string[])[]>();
  for (const phrase of phrases) {
    const words = wordsOf(phrase);
    const first = words[0] as string;
    const list = index.get(first);
    if (list === undefined) index.set(first, [words]);
    else list.push(words);
  }
  return index;
}

/** What every agent loses by the rows of a table: each row's `removedEnvironment` and the common
 * list, by name; the model providers' words and each row's `credentialWords`, beside a secret's word. */
interface TableRules {
  readonly names: NameRules;
  readonly words: PhraseIndex;
}

function tableRulesOf(rows: readonly AdapterDescriptor[]): TableRules {
  return {
    names: nameRules([...ALWAYS_REMOVED, ...rows.flatMap((entry) => entry.removedEnvironment)]),
    words: phraseIndex([...PROVIDER_WORDS, ...rows.flatMap((entry) => entry.credentialWords)]),
  };
}

/** Every shipped row's rules, applied to every agent so that no agent sees another's. A config row
 * replacing a shipped one keeps the shipped rules all the same. */
const SHIPPED_RULES = tableRulesOf(ADAPTERS);
const STRICT_RULES = nameRules(STRICT_PASSED);

let configuredRules: { readonly table: readonly AdapterDescriptor[]; readonly rules: TableRules } | undefined;

/** SHIPPED_RULES and the rules of the agents scv's config defines (read once per table). */
function everyAgentsRules(): TableRules {
  const table = allAdapters();
  if (table === ADAPTERS) return SHIPPED_RULES;
  if (configuredRules?.table !== table) {
    configuredRules = { table, rules: tableRulesOf([...ADAPTERS, ...table]) };
  }
  return configuredRules.rules;
}

const CLOUDS = phraseIndex(CLOUD_WORDS);
const API_KEYS = API_KEY_ENDINGS.map(wordsOf);
const SHORT_SECRETS: ReadonlySet<string> = new Set(SECRET_WORDS);

/** The words of a variable name: `azure-openai.key` → AZURE, OPENAI, KEY. */
function nameWords(upperName: string): string[] {
  return upperName.split(/[^A-Z0-9]+/).filter((word) => word !== "");
}

/** Whether one of `phrases` occurs in `words` as consecutive words. */
function containsPhrase(words: readonly string[], phrases: PhraseIndex): boolean {
  for (let start = 0; start < words.length; start += 1) {
    for (const phrase of phrases.get(words[start] as string) ?? []) {
      if (
        start + phrase.length <= words.length &&
        phrase.every((word, offset) => words[start + offset] === word)
      )
        return true;
    }
  }
  return false;
}

function endsWithPhrase(words: readonly string[], phrase: readonly string[]): boolean {
  const start = words.length - phrase.length;
  return start >= 0 && phrase.every((word, offset) => words[start + offset] === word);
}

/** A test of a word for any of `fragments` (capital letters and digits), as one pattern: a turn
 * tests every word of every inherited variable's name. */
function fragmentTest(fragments: readonly string[]): RegExp {
  return new RegExp(fragments.join("|"));
}

function namesSecret(words: readonly string[], fragments: RegExp): boolean {
  return words.some((word) => SHORT_SECRETS.has(word) || fragments.test(word));
}

const SECRETS = fragmentTest(SECRET_FRAGMENTS);
const CLOUD_SECRETS = fragmentTest([...SECRET_FRAGMENTS, ...CLOUD_SECRET_FRAGMENTS]);

/** Whether `name` is a model-provider, model-cloud or coding-agent credential (or an agent's own
 * state variable, by its row in the table), whatever the config says: any `*_API_KEY`; a provider's
 * or agent's word with a secret's word (`HF_TOKEN`, `AZURE_OPENAI_AD_TOKEN`); a cloud's word with a
 * secret's or a credential location's word (`AWS_SECURITY_TOKEN`, `AWS_CONFIG_FILE`); every
 * adapter's `removedEnvironment`. Case does not matter. */
export function isCredentialVariable(name: string): boolean {
  const upper = name.toUpperCase();
  const rules = everyAgentsRules();
  if (matchesRules(upper, rules.names)) return true;
  const words = nameWords(upper);
  if (words.length === 0) return false;
  if (API_KEYS.some((ending) => endsWithPhrase(words, ending))) return true;
  // The secret's word first: most names have none.
  if (namesSecret(words, SECRETS) && containsPhrase(words, rules.words)) return true;
  return namesSecret(words, CLOUD_SECRETS) && containsPhrase(words, CLOUDS);
}

/** The test deciding which inherited variables a delegated agent does not get, under `isolation`:
 * scv's own `SCV_*` always; then what `keep` names passes; under `strict` nothing else but
 * STRICT_PASSED; otherwise what `remove` names and every credential (`isCredentialVariable`). */
export function withheldVariables(isolation: IsolationSettings = {}): (name: string) => boolean {
  const keep = nameRules(isolation.keep ?? []);
  const remove = nameRules(isolation.remove ?? []);
  const strict = isolation.strict === true;
  return (name) => {
    const upper = name.toUpperCase();
    if (upper.startsWith(SCV_OWN)) return true;
    if (matchesRules(upper, keep)) return false;
    if (strict) return !matchesRules(upper, STRICT_RULES);
    return matchesRules(upper, remove) || isCredentialVariable(name);
  };
}
