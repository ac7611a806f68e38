// Which inherited variables are model-provider, cloud or agent credentials, as families rather than
// a list of today's names: a provider's or a cloud's word anywhere in a variable's name, together
// with a word that names a secret, makes it one (`AZURE_OPENAI_AD_TOKEN`, `HF_TOKEN`,
// `MY_ANTHROPIC_KEY`). Data only; `src/transport/env.ts` matches names against it, and each row's
// own `removedEnvironment` and `credentialWords` (src/table/) are applied beside it.
//
// Names are compared in upper case and split into words at every character that is not a letter or
// a digit: `azure-openai.key` is the words AZURE, OPENAI, KEY.

/** Removed from every agent whatever else is configured: scv's own variables (a turn sets its own
 * after isolation) — not even the config's `keep` passes these. */
export const SCV_OWN = "SCV_";

/** Removed from every agent, as names or `*` prefixes, besides each row's `removedEnvironment`: the
 * endpoint that points a CLI at Azure OpenAI. */
export const ALWAYS_REMOVED: readonly string[] = ["AZURE_OPENAI_ENDPOINT"];

/** Model providers, model gateways and coding agents without a row in the table, each as the words
 * of a variable name (a space joins two words: `HUGGING FACE` is `HUGGING_FACE_…`). An agent with a
 * row names its own words there (`credentialWords`), and its whole prefix goes by its
 * `removedEnvironment`; the words here catch the secrets of every other one. */
export const PROVIDER_WORDS: readonly string[] = [
  // Model providers and their usual spellings in variable names.
  "OPENAI",
  "OPEN AI",
  "ANTHROPIC",
  "GENAI",
  "VERTEX",
  "VERTEXAI",
  "BEDROCK",
  "MISTRAL",
  "CODESTRAL",
  "GROQ",
  "XAI",
  "MOONSHOT",
  "OPENROUTER",
  "TOGETHER",
  "TOGETHERAI",
  "FIREWORKS",
  "COHERE",
  "PERPLEXITY",
  "PPLX",
  "HF",
  "HUGGINGFACE",
  "HUGGING FACE",
  "HUGGINGFACEHUB",
  "REPLICATE",
  "DASHSCOPE",
  "ZHIPU",
  "ZHIPUAI",
  "BIGMODEL",
  "ZAI",
  "GLM",
  "MINIMAX",
  "BAICHUAN",
  "STEPFUN",
  "SILICONFLOW",
  "NOVITA",
  "DEEPINFRA",
  "CEREBRAS",
  "SAMBANOVA",
  "NVIDIA",
  "NGC",
  "NIM",
  "AI21",
  "ALEPH ALPHA",
  "ANYSCALE",
  "OCTOAI",
  "LEPTON",
  "HYPERBOLIC",
  "NEBIUS",
  "FRIENDLI",
  "BASETEN",
  "MODAL",
  "RUNPOD",
  "VOYAGE",
  "JINA",
  "LLAMA",
  "OLLAMA",
  "LMSTUDIO",
  "LM STUDIO",
  "VLLM",
  "LITELLM",
  "PORTKEY",
  "HELICONE",
  "LANGCHAIN",
  "LANGSMITH",
  "LANGFUSE",
  "BRAINTRUST",
  "WANDB",
  "ELEVENLABS",
  "ASSEMBLYAI",
  "DEEPGRAM",
  "STABILITY",
  "FAL",
  "ARK",
  // Coding agents.
  "SOURCEGRAPH",
  "CODY",
  "CODEIUM",
  "WINDSURF",
  "TABNINE",
  "AIDER",
  "CLINE",
  "ROO",
  "KILO",
  "KILOCODE",
  "AUGMENT",
  "GOOSE",
  "JULES",
  "WARP",
  "CRUSH",
  "QODO",
  // Generic words for a model's credential.
  "AI",
  "LLM",
  "GPT",
  "CHATGPT",
];

/** Clouds that sell model access (Bedrock, Vertex, Azure OpenAI, Watsonx, Qianfan, …). Besides
 * secrets, the files and folders their SDKs read credentials from (`AWS_CONFIG_FILE`,
 * `CLOUDSDK_CONFIG`) and their identity settings go: see CLOUD_SECRET_FRAGMENTS. */
export const CLOUD_WORDS: readonly string[] = [
  "AWS",
  "AZURE",
  "ARM",
  "GOOGLE",
  "GCLOUD",
  "CLOUDSDK",
  "GCP",
  "BOTO",
  "OCI",
  "IBM",
  "IBMCLOUD",
  "WATSONX",
  "ALIBABA",
  "ALIBABACLOUD",
  "ALICLOUD",
  "ALIYUN",
  "TENCENTCLOUD",
  "HUAWEICLOUD",
  "VOLCENGINE",
  "VOLC",
  "BAIDU",
  "QIANFAN",
];

/** Parts of a word that make a variable of a provider or cloud a secret: `APIKEY`, `ACCESSKEY`,
 * `PASSWORD`, `AUTHTOKEN`, `CLIENT_SECRET`, `KEYFILE`, `CONNECTION_STRING`. */
export const SECRET_FRAGMENTS: readonly string[] = [
  "KEY",
  "TOKEN",
  "SECRET",
  "PASS",
  "CREDENTIAL",
  "CREDS",
  "AUTH",
  "CERT",
  "PRIVATE",
  "COOKIE",
  "JWT",
  "BEARER",
  "SESSION",
  "SIGNATURE",
  "CONN",
];

/** Whole words that are secrets too short to look for inside a word (Qianfan's `AK`/`SK`, Azure's
 * `SAS`, a `PAT`, `PWD`). */
export const SECRET_WORDS: readonly string[] = ["AK", "SK", "PAT", "SAS", "PW", "PWD", "PSK", "DSN"];

/** For clouds also: where their SDKs find credentials (`AWS_CONFIG_FILE`, `CLOUDSDK_CONFIG`,
 * `AZURE_CONFIG_DIR`, `BOTO_CONFIG`) and which identity they assume (`AWS_WEB_IDENTITY_…`,
 * `AZURE_FEDERATED_…`, a service account). */
export const CLOUD_SECRET_FRAGMENTS: readonly string[] = ["CONFIG", "IDENTITY", "FEDERAT", "ACCOUNT"];

/** Any `*_API_KEY` goes, whoever it is for: the ending of the words of a name. */
export const API_KEY_ENDINGS: readonly string[] = ["API KEY", "API KEYS", "APIKEY", "APIKEYS"];

/** What the config's `strict = true` passes (besides its `keep` list and what scv sets itself):
 * the command path, who the user is and their shell, locale, terminal, time zone, proxies and
 * certificate paths. A trailing `*` is a prefix. */
export const STRICT_PASSED: readonly string[] = [
  "PATH",
  "USER",
  "LOGNAME",
  "SHELL",
  "LANG",
  "LANGUAGE",
  "LC_*",
  "TERM",
  "COLORTERM",
  "TERM_PROGRAM",
  "TERM_PROGRAM_VERSION",
  "TERMINFO",
  "TERMINFO_DIRS",
  "COLUMNS",
  "LINES",
  "NO_COLOR",
  "FORCE_COLOR",
  "TZ",
  "TZDIR",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "ALL_PROXY",
  "FTP_PROXY",
  "NO_PROXY",
  "NODE_USE_ENV_PROXY",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "REQUESTS_CA_BUNDLE",
  "CURL_CA_BUNDLE",
  "GIT_SSL_CAINFO",
  "GIT_SSL_CAPATH",
];
