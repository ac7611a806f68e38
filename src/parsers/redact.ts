// Removes secrets from the one-line tool summaries scv prints while a turn runs (progress lines,
// `--events`, records, error lines): an agent's shell commands and URLs routinely carry tokens, and
// these lines end up in terminals and CI logs. Secrets are found by their shapes: tokens of the
// well-known kinds wherever they are, the value of anything whose name says it is a secret (a flag,
// a variable, a header, a JSON or query field, a `config set` key), passwords in URLs and `user:pass`
// arguments, a few commands' own password flags, and PEM private keys.

export const REDACTED = "…";

/** Words that make a variable, flag, header or field name hold a secret (`GH_TOKEN`, `apiKey`,
 * `--password`, `Authorization`, `sig` of a signed URL). */
const SECRET_WORDS = new Set([
  "key",
  "apikey",
  "token",
  "secret",
  "password",
  "passwd",
  "passphrase",
  "pwd",
  "credential",
  "credentials",
  "authorization",
  "cookie",
  "dsn",
  "sig",
  "signature",
]);

const JOINED_SECRET_SUFFIXES = ["apikey", "token", "secret", "password", "passwd", "passphrase"];

/** Token shapes worth hiding wherever they appear. */
const TOKEN_PATTERNS: readonly RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{6,}/g, // OpenAI, Anthropic (sk-ant-…), DeepSeek, many proxies
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{6,}/g, // GitHub
  /\bgithub_pat_[A-Za-z0-9_]{6,}/g,
  /\bgl(?:pat|dt|ptt|rt|cbt|imt|oas|ft|agent)-[A-Za-z0-9_-]{6,}/g, // GitLab
  /\bxox[abposre]-[A-Za-z0-9-]{6,}/g, // Slack
  /\bxapp-[A-Za-z0-9-]{6,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, // AWS access key ids, long-term and temporary
  /\bAIza[0-9A-Za-z_-]{30,}/g, // Google API key
  /\bya29\.[0-9A-Za-z_-]{20,}/g, // Google OAuth access token
  /\bGOCSPX-[0-9A-Za-z_-]{10,}/g, // Google OAuth client secret
  /\bnpm_[A-Za-z0-9]{20,}/g, // npm
  /\bhf_[A-Za-z0-9]{20,}/g, // Hugging Face
  /\br8_[A-Za-z0-9]{20,}/g, // Replicate
  /\b(?:xai|pplx|gsk|fw|csk)[-_][A-Za-z0-9]{20,}/g, // xAI, Perplexity, Groq, Fireworks, Cerebras
  /\b[sr]k_(?:live|test)_[0-9A-Za-z]{10,}/g, // Stripe
  /\bSG\.[\w-]{16,}\.[\w-]{16,}/g, // SendGrid
  /\bpypi-[A-Za-z0-9_-]{20,}/g, // PyPI
  /\bdop_v1_[a-f0-9]{32,}/g, // DigitalOcean
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, // JWT
];

/** One scan that every token shape needs to match: without it, none of them can. */
const TOKEN_HINT =
  /sk-|gh[pousr]_|github_pat_|gl[a-z]+-|xox|xapp-|AKIA|ASIA|AIza|ya29\.|GOCSPX-|npm_|hf_|r8_|xai-|pplx-|gsk_|fw_|csk-|k_live_|k_test_|SG\.|pypi-|dop_v1_|eyJ/;

const VALUE = String.raw`(?:"[^"]*"|'[^']*'|[^\s"'&]+)`;
const BEARER = /\b(Bearer)\s+[A-Za-z0-9._~+/=-]{4,}/gi;
/** Other schemes only in a header: `Token abc` alone is as likely `grep token src`. */
const AUTH_SCHEME = /(Authorization:\s*)(Basic|Token|Digest|Negotiate)\s+[A-Za-z0-9._~+/=-]{4,}/gi;
/** What a header's value begins with when it names its scheme; the credential after it is redacted. */
const SCHEME_WORD = /^(?:Bearer|Basic|Token|Digest|Negotiate)$/i;
/** `scheme://user:password@` (the user may be empty: `redis://:password@`). */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*):[^\s@/]+@/gi;
/** `scheme://token@`: a user part long and random enough to be a key (a Sentry DSN, a token as user). */
const URL_TOKEN_USER = /\b([a-z][a-z0-9+.-]*:\/\/)[A-Za-z0-9_-]{20,}@/gi;
/** A flag and its value; a value is not itself a flag (`--pass-with-no-tests --ci`). */
const FLAG = new RegExp(String.raw`(^|\s)(--?[A-Za-z][\w-]*)(=|\s+)((?!-)${VALUE})`, "g");
/** openssl's `-passin pass:secret`. */
const OPENSSL_PASS = /(\s-pass(?:in|out)?\s+pass:)(\S+)/g;
const ASSIGNMENT = new RegExp(
  String.raw`(^|[\s?&;,{("'=])([A-Za-z_][\w.-]*)(["']?\s*(?:=|:(?=\s|["']))\s*)(${VALUE})`,
  "g",
);
/** `-u user:password`, `--user=user:password` (curl, wget, httpie), `-U user%password` (smbclient). */
const USER_PASSWORD =
  /(^|\s)(-u|-U|--user|--proxy-user|--auth)(=|\s+)(["']?)([^\s:%"']+)([:%])(?!\/\/)([^\s"']+)\4/g;
/** The words after which a setting's name and value follow: `git config credential.password X`, `aws
 * configure set aws_secret_access_key X`, `npm config set //registry/:_authToken X`. */
const SETTING_VERB = /(?:^|\s)(?:config|configure)\s/;
/** A setting's name is an identifier, not a word of prose (`configure your key in …`). */
const SETTING_NAME = /[_.:/]|[a-z][A-Z]/;
const SHELL_SEPARATOR = /^(?:\||\|\||&&|;|&)$/;
/** A PEM private key, to its END line or, cut short, to the end of the text. */
const PEM_PRIVATE_KEY =
  /(-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----)[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g;

/** Commands whose short flags take a password, and how: `mysql -pX` (glued only: `mysql -p db`
 * asks for it), `sshpass -p X`, `redis-cli -a X`, `docker login -p X`. */
const PASSWORD_FLAGS: readonly { readonly command: RegExp; readonly flag: RegExp }[] = [
  {
    command:
      /\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|mysqlpump|mariadb|mariadb-dump)\b/,
    flag: /(\s-p)([^\s-]\S*)/g,
  },
  {
    command: /\b(?:sshpass|mongo|mongosh|mongodump|mongorestore|mongoexport|mongoimport)\b/,
    flag: /(\s-p\s*)(\S+)/g,
  },
  { command: /\bredis-cli\b/, flag: /(\s-a\s*)(\S+)/g },
  {
    command: /\b(?:docker|podman|buildah|skopeo|helm|oras|nerdctl)\b[^|;&]*\blogin\b/,
    flag: /(\s-p\s*)(\S+)/g,
  },
];

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

/** Whether a setting's last word names a secret: `credential.password`, `_authToken`, not
 * `credential.helper`. */
function isSecretSetting(name: string): boolean {
  const words = nameWords(name);
  const last = words.at(-1);
  return (
    last !== undefined &&
    (SECRET_WORDS.has(last) || JOINED_SECRET_SUFFIXES.some((suffix) => last.endsWith(suffix)))
  );
}

/** The text with every secret found by its shape replaced by `…`. Each pass runs only when the text
 * holds what it needs to match (it runs on every tool call). */
export function redact(text: string): string {
  let out = text;
  if (out.includes("-----BEGIN")) out = out.replace(PEM_PRIVATE_KEY, `$1${REDACTED}`);
  if (TOKEN_HINT.test(out)) for (const pattern of TOKEN_PATTERNS) out = out.replace(pattern, REDACTED);
  out = out.replace(BEARER, `$1 ${REDACTED}`);
  if (out.includes("uthorization")) out = out.replace(AUTH_SCHEME, `$1$2 ${REDACTED}`);
  if (out.includes("://")) {
    out = out.replace(URL_PASSWORD, `$1:${REDACTED}@`).replace(URL_TOKEN_USER, `$1${REDACTED}@`);
  }
  if (out.includes("-")) {
    out = out.replace(USER_PASSWORD, (whole, ...groups: string[]) => {
      const [lead, flag, separator, quote, user, colon, secret = ""] = groups;
      // `docker run -u 1000:1000` is a uid and gid.
      return /^\d+$/.test(secret)
        ? whole
        : `${lead}${flag}${separator}${quote}${user}${colon}${REDACTED}${quote}`;
    });
    out = out.replace(OPENSSL_PASS, `$1${REDACTED}`);
    for (const { command, flag } of PASSWORD_FLAGS) {
      if (command.test(out)) out = out.replace(flag, `$1${REDACTED}`);
    }
    out = out.replace(FLAG, (whole, lead: string, flag: string, separator: string) =>
      isSecretName(flag) ? `${lead}${flag}${separator}${REDACTED}` : whole,
    );
  }
  if (out.includes("=") || out.includes(":")) {
    out = out.replace(ASSIGNMENT, (whole, lead: string, name: string, separator: string, value: string) =>
      isSecretName(name) && !SCHEME_WORD.test(value) ? `${lead}${name}${separator}${REDACTED}` : whole,
    );
  }
  if (SETTING_VERB.test(out)) out = redactSettings(out);
  return out;
}

/** The value after each setting whose name ends in a secret's word, after `config` or `configure`
 * and before the end of that shell command. */
function redactSettings(text: string): string {
  const parts = text.split(/(\s+)/);
  let inSetting = false;
  for (let index = 0; index < parts.length; index += 2) {
    const word = parts[index] ?? "";
    if (SHELL_SEPARATOR.test(word)) inSetting = false;
    else if (word === "config" || word === "configure") inSetting = true;
    else if (inSetting && SETTING_NAME.test(word) && isSecretSetting(word)) {
      const value = parts[index + 2];
      if (value !== undefined && value !== "" && !value.startsWith("-") && value !== REDACTED)
        parts[index + 2] = REDACTED;
    }
  }
  return parts.join("");
}
