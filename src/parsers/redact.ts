// Removes secrets from the one-line tool summaries scv prints while a turn runs: an agent's shell
// commands and URLs routinely carry tokens, and progress lines end up in terminals and CI logs.

export const REDACTED = "…";

/** Words that make a variable, flag or parameter name hold a secret (`GH_TOKEN`, `apiKey`, `--password`). */
const SECRET_WORDS = new Set([
  "key",
  "apikey",
  "token",
  "secret",
  "password",
  "passwd",
  "pwd",
  "credential",
  "credentials",
]);

const JOINED_SECRET_SUFFIXES = ["apikey", "token", "secret", "password", "passwd"];

/** Token shapes worth hiding wherever they appear. */
const TOKEN_PATTERNS: readonly RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{6,}/g, // OpenAI, Anthropic (sk-ant-…), many proxies
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{6,}/g, // GitHub
  /\bgithub_pat_[A-Za-z0-9_]{6,}/g,
  /\bglpat-[A-Za-z0-9_-]{6,}/g, // GitLab
  /\bxox[abprs]-[A-Za-z0-9-]{6,}/g, // Slack
  /\bAKIA[0-9A-Z]{16}\b/g, // AWS access key id
  /\bAIza[0-9A-Za-z_-]{30,}/g, // Google API key
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, // JWT
];

/** One scan that every token shape needs to match: without it, none of the eight can. */
const TOKEN_HINT = /sk-|gh[pousr]_|github_pat_|glpat-|xox[abprs]-|AKIA|AIza|eyJ/;

const VALUE = String.raw`(?:"[^"]*"|'[^']*'|[^\s"'&]+)`;
const BEARER = /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{4,}/gi;
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+):[^\s@/]+@/gi;
const FLAG = new RegExp(String.raw`(^|\s)(--?[A-Za-z][\w-]*)(=|\s+)(${VALUE})`, "g");
const ASSIGNMENT = new RegExp(
  String.raw`(^|[\s?&;,{("'])([A-Za-z_][\w-]*)(["']?\s*(?:=|:(?=\s|["']))\s*)(${VALUE})`,
  "g",
);

/** The words of a name: `GH_TOKEN` → gh, token; `apiKey` → api, key; `--api-key` → api, key. */
function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "");
}

/** Names already judged: a stream repeats the same few flags and variables in every command. */
const secretNames = new Map<string, boolean>();
const SECRET_NAMES_KEPT = 512;

export function isSecretName(name: string): boolean {
  let secret = secretNames.get(name);
  if (secret === undefined) {
    secret = judgeName(name);
    if (secretNames.size >= SECRET_NAMES_KEPT) secretNames.clear();
    secretNames.set(name, secret);
  }
  return secret;
}

function judgeName(name: string): boolean {
  const words = nameWords(name);
  if (words.some((word) => SECRET_WORDS.has(word))) return true;
  // Run-together names (`APIKEY`, `PGPASSWORD`); plain `key` is too common a suffix (`MONKEY`) to join them.
  const joined = words.join("");
  return JOINED_SECRET_SUFFIXES.some((suffix) => joined.endsWith(suffix));
}

/** The text with tokens, `Bearer …` credentials, secret flags' values and secret assignments replaced by `…`.
 * Each pass runs only when the text holds what it needs to match (it runs on every tool call). */
export function redact(text: string): string {
  let out = text;
  if (TOKEN_HINT.test(out)) for (const pattern of TOKEN_PATTERNS) out = out.replace(pattern, REDACTED);
  out = out.replace(BEARER, `$1 ${REDACTED}`);
  if (out.includes("://")) out = out.replace(URL_PASSWORD, `$1:${REDACTED}@`);
  if (out.includes("-")) {
    out = out.replace(FLAG, (whole, lead: string, flag: string, separator: string) =>
      isSecretName(flag) ? `${lead}${flag}${separator}${REDACTED}` : whole,
    );
  }
  if (out.includes("=") || out.includes(":")) {
    out = out.replace(ASSIGNMENT, (whole, lead: string, name: string, separator: string) =>
      isSecretName(name) ? `${lead}${name}${separator}${REDACTED}` : whole,
    );
  }
  return out;
}
