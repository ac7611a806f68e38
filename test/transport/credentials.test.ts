// Which inherited variables are credentials, by family: a wide table of names both ways, and the
// config's remove, keep and strict settings.

import { describe, expect, it } from "vitest";
import { ADAPTERS, type AdapterDescriptor, shippedAdapter, useConfiguredAgents } from "../../src/adapters.js";
import {
  CLOUD_SECRET_FRAGMENTS,
  CLOUD_WORDS,
  PROVIDER_WORDS,
  SECRET_FRAGMENTS,
  STRICT_PASSED,
} from "../../src/credentials.js";
import { isCredentialVariable, withheldVariables } from "../../src/transport/env.js";

/** Model-provider, model-cloud and agent credentials: none of these may reach any agent. */
const REMOVED = [
  // Named in the issue that found them passing.
  "OPENAI_ADMIN_KEY",
  "AZURE_OPENAI_KEY",
  "AZURE_OPENAI_AD_TOKEN",
  "AWS_SECURITY_TOKEN",
  "AZURE_CLIENT_SECRET",
  "GOOGLE_OAUTH_ACCESS_TOKEN",
  "CLOUDSDK_AUTH_ACCESS_TOKEN",
  "HF_TOKEN",
  // Provider families × secret words.
  "OPENAI_API_KEY",
  "OPENAI_KEY",
  "OPENAI_SECRET",
  "OPENAI_ACCESS_TOKEN",
  "OPENAI_SESSION_TOKEN",
  "OPEN_AI_KEY",
  "openai_api_key",
  "Openai_Token",
  "ANTHROPIC_AUTH_TOKEN",
  "ANTHROPIC_KEY",
  "MY_ANTHROPIC_TOKEN",
  "CLAUDE_CODE_OAUTH_TOKEN",
  "CLAUDE_SESSION_KEY",
  "CLAUDE_COOKIE",
  "GEMINI_KEY",
  "GOOGLE_GENAI_API_KEY",
  "GOOGLE_AI_STUDIO_KEY",
  "VERTEX_AI_TOKEN",
  "VERTEXAI_CREDENTIALS",
  "BEDROCK_TOKEN",
  "MISTRAL_TOKEN",
  "CODESTRAL_KEY",
  "GROQ_SECRET",
  "XAI_TOKEN",
  "GROK_KEY",
  "DEEPSEEK_TOKEN",
  "MOONSHOT_KEY",
  "KIMI_TOKEN",
  "OPENROUTER_KEY",
  "OPENROUTER_TOKEN",
  "TOGETHER_KEY",
  "TOGETHER_AI_TOKEN",
  "FIREWORKS_KEY",
  "COHERE_KEY",
  "PERPLEXITY_TOKEN",
  "PPLX_KEY",
  "HF_API_TOKEN",
  "HF_TOKEN_PATH",
  "HUGGING_FACE_HUB_TOKEN",
  "HUGGINGFACEHUB_API_TOKEN",
  "HUGGINGFACE_TOKEN",
  "REPLICATE_API_TOKEN",
  "DASHSCOPE_KEY",
  "QWEN_TOKEN",
  "ZHIPUAI_KEY",
  "ZAI_TOKEN",
  "MINIMAX_GROUP_KEY",
  "NVIDIA_NIM_TOKEN",
  "NGC_CLI_API_KEY",
  "CEREBRAS_TOKEN",
  "DEEPINFRA_TOKEN",
  "SILICONFLOW_SECRET",
  "VOYAGE_KEY",
  "MODAL_TOKEN_ID",
  "MODAL_TOKEN_SECRET",
  "OLLAMA_AUTH",
  "LITELLM_MASTER_KEY",
  "LANGSMITH_KEY",
  "LANGFUSE_SECRET_KEY",
  "LANGFUSE_PUBLIC_KEY",
  "PORTKEY_TOKEN",
  "HELICONE_AUTH",
  "WANDB_KEY",
  "FAL_KEY",
  "ELEVENLABS_KEY",
  "LLM_TOKEN",
  "LLM_KEY",
  "AI_TOKEN",
  "GPT_KEY",
  "CHATGPT_SESSION_TOKEN",
  "MY_AI_PASSWORD",
  // Coding agents without a row.
  "AIDER_OPENAI_KEY",
  "CODEIUM_TOKEN",
  "WINDSURF_AUTH",
  "SOURCEGRAPH_ACCESS_TOKEN",
  "CODY_TOKEN",
  "TABNINE_KEY",
  "AUGMENT_SESSION_AUTH",
  "CLINE_TOKEN",
  "GOOSE_PROVIDER_KEY",
  "JULES_TOKEN",
  "WARP_TOKEN",
  "CURSOR_TOKEN",
  "COPILOT_TOKEN",
  "GH_COPILOT_TOKEN",
  // Clouds that sell models: secrets, credential files and folders, identities.
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "AWS_BEARER_TOKEN_BEDROCK",
  "AWS_SHARED_CREDENTIALS_FILE",
  "AWS_CONFIG_FILE",
  "AWS_WEB_IDENTITY_TOKEN_FILE",
  "AWS_CONTAINER_CREDENTIALS_FULL_URI",
  "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
  "AWS_CONTAINER_AUTHORIZATION_TOKEN",
  "AWS_SECRET_KEY",
  "AWS_ACCESS_KEY",
  "aws_secret_access_key",
  "AZURE_OPENAI_API_KEY",
  "AZURE_OPENAI_ENDPOINT",
  "AZURE_API_KEY",
  "AZURE_CLIENT_CERTIFICATE_PATH",
  "AZURE_CLIENT_CERTIFICATE_PASSWORD",
  "AZURE_FEDERATED_TOKEN_FILE",
  "AZURE_PASSWORD",
  "AZURE_STORAGE_CONNECTION_STRING",
  "AZURE_STORAGE_SAS_TOKEN",
  "AZURE_CONFIG_DIR",
  "AZURE_AI_FOUNDRY_KEY",
  "ARM_CLIENT_SECRET",
  "ARM_ACCESS_KEY",
  "GOOGLE_APPLICATION_CREDENTIALS",
  "GOOGLE_CREDENTIALS",
  "GOOGLE_CLOUD_KEYFILE_JSON",
  "GOOGLE_CLIENT_SECRET",
  "GOOGLE_API_KEY",
  "GOOGLE_CLOUD_ACCESS_TOKEN",
  "GOOGLE_SERVICE_ACCOUNT",
  "GOOGLE_GHA_CREDS_PATH",
  "GCLOUD_KEYFILE_JSON",
  "GCLOUD_ACCESS_TOKEN",
  "GCP_SERVICE_ACCOUNT_KEY",
  "CLOUDSDK_CONFIG",
  "CLOUDSDK_AUTH_CREDENTIAL_FILE_OVERRIDE",
  "CLOUDSDK_AUTH_ACCESS_TOKEN_FILE",
  "BOTO_CONFIG",
  "OCI_CLI_KEY_FILE",
  "WATSONX_APIKEY",
  "IBM_CLOUD_API_KEY",
  "ALIBABA_CLOUD_ACCESS_KEY_SECRET",
  "TENCENTCLOUD_SECRET_KEY",
  "VOLCENGINE_ACCESS_KEY",
  "QIANFAN_AK",
  "QIANFAN_SK",
  // Every *_API_KEY, whoever it is for.
  "MY_SERVICE_API_KEY",
  "X_API_KEY",
  "API_KEY",
  "STRIPE_API_KEY",
  "SOME_APIKEY",
  "MY_API_KEYS",
  "serpapi_api_key",
  // Each row's own variables, by its rules.
  "OPENAI_BASE_URL",
  "ANTHROPIC_BASE_URL",
  "CLAUDE_CONFIG_DIR",
  "CLAUDECODE",
  "CLAUDE_CODE_ENTRYPOINT",
  "GEMINI_FOO",
  "GOOGLE_GENAI_USE_VERTEXAI",
  "GOOGLE_CLOUD_PROJECT",
  "DSH_X",
  "PI_X",
  "PI_CODING_AGENT_DIR",
  "GROK_HOME",
  "QWEN_OAUTH",
  "OPENCODE_CONFIG",
  "COPILOT_GITHUB_TOKEN",
  "GH_TOKEN",
  "GITHUB_TOKEN",
  "GITHUB_COPILOT_AGENT_GITHUB_TOKEN",
  "AMP_URL",
  "KIMI_X",
  "CODEX_HOME",
];

/** What agents and the delegated work need, other secrets the work may need, and near-misses. */
const KEPT = [
  "PATH",
  "HOME",
  "USER",
  "SHELL",
  "LANG",
  "LC_ALL",
  "TERM",
  "COLORTERM",
  "TZ",
  "TMPDIR",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "https_proxy",
  "no_proxy",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "REQUESTS_CA_BUNDLE",
  "CURL_CA_BUNDLE",
  "AWS_CA_BUNDLE",
  "AWS_PROFILE",
  "AWS_REGION",
  "AWS_DEFAULT_REGION",
  "AZURE_SUBSCRIPTION_ID",
  "CLOUDSDK_CORE_PROJECT",
  // Secrets that are not a model's or an agent's: they pass unless the config removes them.
  "NPM_TOKEN",
  "NODE_AUTH_TOKEN",
  "DATABASE_URL",
  "SSH_AUTH_SOCK",
  "GITLAB_TOKEN",
  "CARGO_REGISTRY_TOKEN",
  "PGPASSWORD",
  // Near-misses of the rules.
  "GH_HOST",
  "GH_TOKENS_DIR",
  "GROKKING",
  "PIPX_HOME",
  "PIP_INDEX_URL",
  "API_KEY_ROTATION",
  "SCVX",
  "GEMINIX",
  "HF_HOME",
  "OLLAMA_HOST",
  "MISTRAL_MODEL",
  "KEYBOARD_LAYOUT",
  "EDITOR",
  "PWD",
  "OLDPWD",
  "SHLVL",
  "DISPLAY",
  "XAUTHORITY",
  "DBUS_SESSION_BUS_ADDRESS",
  "SSH_CONNECTION",
];

describe("isCredentialVariable", () => {
  it.each(REMOVED)("removes %s", (name) => expect(isCredentialVariable(name)).toBe(true));
  it.each(KEPT)("keeps %s", (name) => expect(isCredentialVariable(name)).toBe(false));

  it("applies every adapter's list to every agent", () => {
    for (const entry of ADAPTERS as readonly AdapterDescriptor[]) {
      for (const rule of entry.removedEnvironment) {
        const sample = rule.endsWith("*") ? `${rule.slice(0, -1)}ANYTHING` : rule;
        expect(isCredentialVariable(sample), sample).toBe(true);
      }
    }
  });

  it("applies every row's credential words beside a secret's word, wherever they sit", () => {
    for (const entry of ADAPTERS as readonly AdapterDescriptor[]) {
      for (const word of entry.credentialWords) {
        const sample = `MY_${word.replaceAll(" ", "_")}_TOKEN`;
        expect(isCredentialVariable(sample), `${entry.name}: ${sample}`).toBe(true);
        expect(isCredentialVariable(`MY_${word}_COLOUR`), `${entry.name}: no secret's word`).toBe(false);
      }
    }
  });

  it("finds every provider's and cloud's phrase beside a secret's word, wherever it sits", () => {
    for (const phrase of PROVIDER_WORDS) {
      const words = phrase.replaceAll(" ", "_");
      expect(isCredentialVariable(`${words}_TOKEN`), phrase).toBe(true);
      expect(isCredentialVariable(`MY_OLD_${words}_PASSWORD`), phrase).toBe(true);
    }
    for (const phrase of CLOUD_WORDS) {
      const words = phrase.replaceAll(" ", "_");
      expect(isCredentialVariable(`${words}_CONFIG_FILE`), phrase).toBe(true);
      expect(isCredentialVariable(`X_${words}_SECRET`), phrase).toBe(true);
    }
  });

  it("matches secret fragments as written: capital letters and digits", () => {
    // env.ts joins them into one pattern, and names are compared in upper case.
    for (const fragment of [...SECRET_FRAGMENTS, ...CLOUD_SECRET_FRAGMENTS])
      expect(fragment).toMatch(/^[A-Z0-9]+$/);
  });

  it("applies the credential words of a row the config defines", () => {
    const codex = shippedAdapter("codex") as AdapterDescriptor;
    expect(isCredentialVariable("MY_ACME_TOKEN")).toBe(false);
    useConfiguredAgents(() => [{ ...codex, name: "acme", credentialWords: ["ACME"] }]);
    try {
      expect(isCredentialVariable("MY_ACME_TOKEN")).toBe(true);
      expect(isCredentialVariable("MY_CODEX_TOKEN")).toBe(true);
    } finally {
      useConfiguredAgents(() => []);
    }
    expect(isCredentialVariable("MY_ACME_TOKEN")).toBe(false);
  });
});

describe("withheldVariables", () => {
  it("withholds scv's own SCV_* always, even from keep", () => {
    const withheld = withheldVariables({ keep: ["SCV_HOME", "SCV*"], strict: true });
    expect(withheld("SCV_HOME")).toBe(true);
    expect(withheld("SCV_DEPTH")).toBe(true);
  });

  it("removes the config's extra names and prefixes as well", () => {
    const withheld = withheldVariables({ remove: ["NPM_TOKEN", "CORP_*"] });
    expect(withheld("NPM_TOKEN")).toBe(true);
    expect(withheld("CORP_VAULT")).toBe(true);
    expect(withheld("CORPORATE")).toBe(false);
    expect(withheld("DATABASE_URL")).toBe(false);
    expect(withheld("OPENAI_ADMIN_KEY")).toBe(true);
  });

  it("passes what keep names, though a rule would remove it", () => {
    const withheld = withheldVariables({ keep: ["GH_TOKEN", "AWS_*"], remove: ["AWS_X"] });
    expect(withheld("GH_TOKEN")).toBe(false);
    expect(withheld("GITHUB_TOKEN")).toBe(true);
    expect(withheld("AWS_SECRET_ACCESS_KEY")).toBe(false);
    expect(withheld("AWS_X")).toBe(false);
  });

  it("under strict, passes only the allow-list and keep", () => {
    const withheld = withheldVariables({ strict: true, keep: ["DATABASE_URL"] });
    for (const name of ["PATH", "LANG", "LC_CTYPE", "TERM", "TZ", "HTTPS_PROXY", "https_proxy", "NO_PROXY"])
      expect(withheld(name), name).toBe(false);
    for (const name of ["NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "USER", "SHELL", "DATABASE_URL"])
      expect(withheld(name), name).toBe(false);
    for (const name of [
      "NPM_TOKEN",
      "SSH_AUTH_SOCK",
      "EDITOR",
      "NODE_OPTIONS",
      "OPENAI_API_KEY",
      "AWS_REGION",
    ])
      expect(withheld(name), name).toBe(true);
    // Nothing on the allow-list is a credential.
    for (const rule of STRICT_PASSED)
      expect(isCredentialVariable(rule.replace("*", "ALL")), rule).toBe(false);
  });
});
