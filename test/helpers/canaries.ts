// Credential-shaped variables no delegated agent may see, and ordinary ones every agent must keep.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { ADAPTERS, type AdapterDescriptor } from "../../src/adapters.js";

/** Every adapter's removed names (two samples per prefix rule), `*_API_KEY`s, cloud keys, scv's own
 * and Claude Code's nesting markers; each with a value that names it. */
export function canaryVariables(): Record<string, string> {
  const names = new Set<string>([
    "OPENROUTER_API_KEY",
    "GROQ_API_KEY",
    "MY_SERVICE_API_KEY",
    "MISTRAL_API_KEY",
    "AZURE_OPENAI_API_KEY",
    "AZURE_OPENAI_ENDPOINT",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_BEARER_TOKEN_BEDROCK",
    "CLAUDECODE",
    "CLAUDE_CODE_ENTRYPOINT",
    "SCV_CONFIG_CANARY",
    "SCV_DEPTH",
    // Provider, cloud and agent families beyond any row's names (test/transport/credentials.test.ts
    // has the wide table).
    "OPENAI_ADMIN_KEY",
    "AZURE_OPENAI_KEY",
    "AZURE_OPENAI_AD_TOKEN",
    "AWS_SECURITY_TOKEN",
    "AWS_SHARED_CREDENTIALS_FILE",
    "AZURE_CLIENT_SECRET",
    "GOOGLE_OAUTH_ACCESS_TOKEN",
    "CLOUDSDK_AUTH_ACCESS_TOKEN",
    "HF_TOKEN",
    "HUGGING_FACE_HUB_TOKEN",
    "REPLICATE_API_TOKEN",
    "OPENROUTER_KEY",
    "MISTRAL_SECRET",
    "TOGETHER_TOKEN",
    "FIREWORKS_KEY",
    "COHERE_TOKEN",
    "PERPLEXITY_KEY",
    "LITELLM_MASTER_KEY",
    "openai_api_key",
    // The sign-ins of the CLIs added for issue 40, by the names each reads (their rows strip them by
    // prefix for every agent).
    "CLINE_API_KEY",
    "CLINE_PROVIDER",
    "FACTORY_API_KEY",
    "AUGMENT_SESSION_AUTH",
    "AUGMENT_API_TOKEN",
    "QODER_PAT",
    "QODER_AUTH_MANAGED_TOKEN",
    "KILO_API_KEY",
    "KILOCODE_TOKEN",
  ]);
  for (const entry of ADAPTERS as readonly AdapterDescriptor[]) {
    for (const rule of entry.removedEnvironment) {
      if (rule.endsWith("*")) {
        names.add(`${rule.slice(0, -1)}CANARY_TOKEN`);
        names.add(`${rule.slice(0, -1)}API_BASE`);
      } else {
        names.add(rule);
      }
    }
  }
  const canaries: Record<string, string> = {};
  for (const name of names) canaries[name] = `canary-value-of-${name}`;
  return canaries;
}

/** Variables (and near-misses of removed ones) every agent keeps, with their values. */
export const KEPT: Readonly<Record<string, string>> = {
  LANG: "C.UTF-8",
  TERM: "dumb",
  HTTPS_PROXY: "http://proxy.invalid:3128",
  HTTP_PROXY: "http://proxy.invalid:3128",
  NO_PROXY: "localhost,127.0.0.1",
  https_proxy: "http://proxy.invalid:3128",
  no_proxy: "localhost",
  GH_HOST: "github.example.com",
  GH_TOKENS_DIR: "kept",
  GROKKING: "kept",
  PIPX_HOME: "/opt/pipx",
  AWS_PROFILE: "kept-profile",
  AWS_REGION: "eu-west-1",
  AWS_CA_BUNDLE: "/etc/ssl/aws.pem",
  NODE_EXTRA_CA_CERTS: "/etc/ssl/corp.pem",
  SSL_CERT_FILE: "/etc/ssl/cert.pem",
  TZ: "Europe/Paris",
  LC_ALL: "C.UTF-8",
  COLORTERM: "truecolor",
  NPM_TOKEN: "kept-npm-token",
  DATABASE_URL: "postgres://localhost/kept",
  SSH_AUTH_SOCK: "/tmp/ssh-kept/agent.1",
  HF_HOME: "/opt/hf",
  API_KEY_ROTATION: "kept",
  SCVX: "kept",
};

/** Every file below `dir` whose bytes contain `text` (a secret that must be on no disk), relative. */
export function filesHolding(dir: string, text: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const path = join(dir, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat?.isFile() && readFileSync(path).includes(text)) found.push(name);
  }
  return found;
}
