// Points each real agent CLI at a loopback mock model server by writing the CLI's own config files into an
// agent home, with a dummy key — the recipes that made each CLI finish a turn offline (scv lab notes).
// Nothing here spawns a CLI: callers run it with HOME=<home> plus the returned `env`.
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { MockShape } from "./mock/server.mjs";

export const REAL_CLIS = ["claude", "codex", "pi", "gemini", "qwen", "opencode", "copilot"] as const;
export type RealCli = (typeof REAL_CLIS)[number];

/** The mock API shape each CLI talks to when configured by this module. */
export const MOCK_SHAPE = {
  claude: "anthropic",
  codex: "openai-responses",
  pi: "openai-chat",
  gemini: "gemini",
  qwen: "openai-chat",
  opencode: "openai-chat",
  copilot: "openai-chat",
} as const satisfies Record<RealCli, MockShape>;

/** Model ids the mock setups use (what to pass as the CLI's model flag). */
export const MOCK_MODEL = {
  claude: "sonnet",
  codex: "gpt-5.5",
  pi: "mock/mock-model",
  gemini: "gemini-2.5-flash",
  qwen: "mock-model",
  opencode: "mock/mock-model",
  copilot: "mock-model",
} as const satisfies Record<RealCli, string>;

export interface MockConfigOptions {
  /** The agent home: the CLI runs with HOME set to it. Created if missing. */
  home: string;
  /** The mock's origin, `http://127.0.0.1:<port>` (no `/v1`). */
  mockUrl: string;
  /** Dummy key; a per-CLI default is used when omitted. */
  apiKey?: string;
  /**
   * Set the CLI's own retry knobs to this many retries, so a 429/500 turn ends quickly (0 = fail on the
   * first error where the CLI allows it). Knobs: claude `CLAUDE_CODE_MAX_RETRIES` (settings env), codex
   * `stream_max_retries`/`request_max_retries` (provider table), pi `retry.maxRetries` (+ SDK retries 0),
   * gemini `general.maxAttempts` (= retries + 1), qwen `model.generationConfig.maxRetries` (qwen still
   * makes 7 quick attempts per try on a 429: that inner loop has no setting). opencode and copilot have
   * no knob (they give up on a 429 within ~10 s by themselves).
   */
  retries?: number;
  /**
   * Write the dummy key too (default). False writes only the endpoint and settings, for a CLI whose key
   * `scv agents login <agent> --with-api-key` stores (claude, codex, gemini, qwen): those files are merged
   * by scv's key store, and the key lands where scv's status check looks for it.
   */
  withKey?: boolean;
}

export interface MockConfig {
  cli: RealCli;
  /** Variables the CLI process needs besides HOME (and the usual PATH/LANG). */
  env: Record<string, string>;
  /** Absolute paths of the files written. */
  files: string[];
  /** Model id to pass to the CLI. */
  model: string;
}

const DEFAULT_KEY = {
  claude: "sk-ant-mock-dummy-key",
  codex: "sk-mock-dummy-key",
  pi: "sk-mock-dummy-key",
  gemini: "mock-gemini-dummy-key",
  qwen: "sk-mock-dummy-key",
  opencode: "sk-mock-dummy-key",
  copilot: "sk-mock-dummy-key",
} as const satisfies Record<RealCli, string>;

async function put(path: string, content: string, mode = 0o600): Promise<string> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFile(path, content, { mode });
  await chmod(path, mode);
  return path;
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** POSIX shell single-quoting. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

export interface ClaudeMockOptions extends MockConfigOptions {
  /** Claude's config folder (settings.json, .claude.json, projects/); default `<home>/.claude`. */
  configDir?: string;
  /** Set CLAUDE_CONFIG_DIR even when configDir is the default. Default true. */
  setConfigDirEnv?: boolean;
  /** Keep the key in a 0600 file read by `apiKeyHelper: cat '<file>'` (default) or inline `echo <key>`;
   * `none` writes no helper (scv's `agents login claude --with-api-key` adds its own). */
  keyIn?: "file" | "inline" | "none";
}

/**
 * claude: `settings.json` with `env.ANTHROPIC_BASE_URL` and an `apiKeyHelper`; no ANTHROPIC_* in the
 * process env. As root, `IS_SANDBOX=1` is added (claude refuses bypassPermissions for uid 0 otherwise).
 */
export async function configureClaude(options: ClaudeMockOptions): Promise<MockConfig> {
  const { home, mockUrl, retries, setConfigDirEnv = true } = options;
  const keyIn = options.keyIn ?? (options.withKey === false ? "none" : "file");
  const configDir = options.configDir ?? join(home, ".claude");
  const key = options.apiKey ?? DEFAULT_KEY.claude;
  const files: string[] = [];
  let apiKeyHelper = `echo ${shellQuote(key)}`;
  if (keyIn === "file") {
    const keyFile = await put(join(configDir, "scv-api-key"), `${key}\n`);
    files.push(keyFile);
    apiKeyHelper = `cat ${shellQuote(keyFile)}`;
  }
  const env: Record<string, string> = { ANTHROPIC_BASE_URL: mockUrl };
  if (retries !== undefined) env.CLAUDE_CODE_MAX_RETRIES = String(retries);
  const settings = keyIn === "none" ? { env } : { env, apiKeyHelper };
  files.push(await put(join(configDir, "settings.json"), json(settings)));
  const processEnv: Record<string, string> = {};
  if (setConfigDirEnv) processEnv.CLAUDE_CONFIG_DIR = configDir;
  if (process.getuid?.() === 0) processEnv.IS_SANDBOX = "1";
  return { cli: "claude", env: processEnv, files, model: MOCK_MODEL.claude };
}

export interface CodexMockOptions extends MockConfigOptions {
  /** Write `auth.json` the way `codex login --with-api-key` does (default), or leave codex signed out. */
  signedIn?: boolean;
  /** CODEX_HOME; default `<home>/.codex` (scv's own codex home is the agent home itself). */
  codexHome?: string;
}

/** codex: `$CODEX_HOME/config.toml` with a custom Responses provider using the key from `auth.json`. */
export async function configureCodex(options: CodexMockOptions): Promise<MockConfig> {
  const { home, mockUrl, retries } = options;
  const signedIn = options.signedIn ?? options.withKey !== false;
  const codexHome = options.codexHome ?? join(home, ".codex");
  const key = options.apiKey ?? DEFAULT_KEY.codex;
  // A 429 on the Responses stream is retried stream_max_retries times (default 5);
  // request_max_retries bounds retries of the initial HTTP request (default 4).
  const retryKeys =
    retries === undefined ? "" : `request_max_retries = ${retries}\nstream_max_retries = ${retries}\n`;
  const toml = `model = "${MOCK_MODEL.codex}"
model_provider = "mock"
check_for_update_on_startup = false
cli_auth_credentials_store = "file"

[analytics]
enabled = false

[feedback]
enabled = false

[otel]
exporter = "none"

[model_providers.mock]
name = "Mock Responses"
base_url = "${mockUrl}/v1"
wire_api = "responses"
requires_openai_auth = true
${retryKeys}`;
  const files = [await put(join(codexHome, "config.toml"), toml)];
  if (signedIn) {
    // Same content and mode as `printf 'sk-…\n' | codex login --with-api-key` writes.
    const auth = JSON.stringify({ auth_mode: "apikey", OPENAI_API_KEY: key }, null, 2);
    files.push(await put(join(codexHome, "auth.json"), auth));
  }
  return { cli: "codex", env: { CODEX_HOME: codexHome }, files, model: MOCK_MODEL.codex };
}

/** pi: a custom `openai-completions` provider in `$PI_CODING_AGENT_DIR/models.json`. */
export async function configurePi(options: MockConfigOptions): Promise<MockConfig> {
  const { home, mockUrl, retries } = options;
  const agentDir = join(home, ".pi", "agent");
  const models = {
    providers: {
      mock: {
        baseUrl: `${mockUrl}/v1`,
        api: "openai-completions",
        apiKey: options.apiKey ?? DEFAULT_KEY.pi,
        models: [
          { id: "mock-model", name: "Mock Model", reasoning: true, contextWindow: 128000, maxTokens: 8192 },
        ],
      },
    },
  };
  const files = [await put(join(agentDir, "models.json"), json(models))];
  if (retries !== undefined) {
    const retry = {
      enabled: retries > 0,
      maxRetries: retries,
      baseDelayMs: 200,
      provider: { maxRetries: 0 },
    };
    files.push(await put(join(agentDir, "settings.json"), json({ retry })));
  }
  return {
    cli: "pi",
    env: { PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1", PI_TELEMETRY: "0", PI_SKIP_VERSION_CHECK: "1" },
    files,
    model: MOCK_MODEL.pi,
  };
}

/**
 * gemini: API-key auth in `~/.gemini/settings.json`, key and endpoint in `~/.gemini/.env` (read only for a
 * trusted folder: run with `--skip-trust`).
 */
export async function configureGemini(options: MockConfigOptions): Promise<MockConfig> {
  const { home, mockUrl, retries } = options;
  const dir = join(home, ".gemini");
  const general: Record<string, unknown> = { disableAutoUpdate: true, disableUpdateNag: true };
  if (retries !== undefined) general.maxAttempts = Math.min(10, retries + 1);
  const settings = {
    security: { auth: { selectedType: "gemini-api-key" } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general,
  };
  const keyLine = options.withKey === false ? "" : `GEMINI_API_KEY=${options.apiKey ?? DEFAULT_KEY.gemini}\n`;
  const dotenv = `${keyLine}GOOGLE_GEMINI_BASE_URL=${mockUrl}\n`;
  const files = [await put(join(dir, "settings.json"), json(settings)), await put(join(dir, ".env"), dotenv)];
  // The endpoint as a variable too: a project's own .env hides ~/.gemini/.env (the CLI reads the first
  // .env it finds walking up), and scv gives the key it holds as a variable, not the endpoint.
  return {
    cli: "gemini",
    env: { GEMINI_TELEMETRY_ENABLED: "false", GOOGLE_GEMINI_BASE_URL: mockUrl },
    files,
    model: MOCK_MODEL.gemini,
  };
}

/** qwen: OpenAI-compatible auth with key and endpoint in the `env` block of `~/.qwen/settings.json`. */
export async function configureQwen(options: MockConfigOptions): Promise<MockConfig> {
  const { home, mockUrl, retries } = options;
  const model: Record<string, unknown> = { name: MOCK_MODEL.qwen };
  if (retries !== undefined) {
    // maxRetries bounds both the OpenAI SDK's retries and qwen's rate-limit loop (default 10, 60 s apart).
    model.generationConfig = { maxRetries: retries, retryInitialDelayMs: 200, retryMaxDelayMs: 1000 };
  }
  const settings = {
    security: { auth: { selectedType: "openai" } },
    env: {
      ...(options.withKey === false ? {} : { OPENAI_API_KEY: options.apiKey ?? DEFAULT_KEY.qwen }),
      OPENAI_BASE_URL: `${mockUrl}/v1`,
      OPENAI_MODEL: MOCK_MODEL.qwen,
    },
    model,
    // Without this every turn makes a second model request (memory extraction).
    memory: { enableManagedAutoMemory: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
  };
  const files = [await put(join(home, ".qwen", "settings.json"), json(settings))];
  return { cli: "qwen", env: { QWEN_TELEMETRY_ENABLED: "false" }, files, model: MOCK_MODEL.qwen };
}

/** opencode: an `@ai-sdk/openai-compatible` provider in `$XDG_CONFIG_HOME/opencode/opencode.json`. */
export async function configureOpencode(options: MockConfigOptions): Promise<MockConfig> {
  const { home, mockUrl } = options;
  const configHome = join(home, ".config");
  const config = {
    $schema: "https://opencode.ai/config.json",
    autoupdate: false,
    share: "disabled",
    model: MOCK_MODEL.opencode,
    small_model: MOCK_MODEL.opencode,
    provider: {
      mock: {
        npm: "@ai-sdk/openai-compatible",
        name: "Mock",
        options: { baseURL: `${mockUrl}/v1`, apiKey: options.apiKey ?? DEFAULT_KEY.opencode },
        // reasoning: true makes `--variant high` send reasoning_effort "high" (without it the flag sends nothing).
        models: { "mock-model": { name: "Mock Model", reasoning: true } },
      },
    },
  };
  const files = [await put(join(configHome, "opencode", "opencode.json"), json(config))];
  return {
    cli: "opencode",
    env: {
      XDG_CONFIG_HOME: configHome,
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_SHARE: "1",
      OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      // Each run starts a background `npm install @opencode-ai/plugin` in its config folder (registry.npmjs.org);
      // offline, npm answers from its empty cache and opencode logs a warning instead of going to the network.
      npm_config_offline: "true",
    },
    files,
    model: MOCK_MODEL.opencode,
  };
}

/** copilot: BYOK through environment variables only; no GitHub login and no files. */
export async function configureCopilot(options: MockConfigOptions): Promise<MockConfig> {
  await mkdir(options.home, { recursive: true, mode: 0o700 });
  return {
    cli: "copilot",
    env: {
      COPILOT_PROVIDER_BASE_URL: `${options.mockUrl}/v1`,
      COPILOT_PROVIDER_API_KEY: options.apiKey ?? DEFAULT_KEY.copilot,
      COPILOT_OFFLINE: "true",
      COPILOT_AUTO_UPDATE: "false",
    },
    files: [],
    model: MOCK_MODEL.copilot,
  };
}

/** One headless turn, as the lab's recipes ran it. */
export function headlessTurn(cli: RealCli, model: string, prompt: string): string[] {
  switch (cli) {
    case "claude":
      return ["claude", "-p", "--output-format", "stream-json", "--verbose", "--model", model, "--", prompt];
    case "codex":
      return [
        "codex",
        "exec",
        "--json",
        "-m",
        model,
        "--dangerously-bypass-approvals-and-sandbox",
        "--",
        prompt,
      ];
    case "pi":
      return ["pi", "-p", "--mode", "json", "--model", model, "--no-session", prompt];
    case "gemini":
      return [
        "gemini",
        "-m",
        model,
        "--output-format",
        "stream-json",
        "--yolo",
        "--skip-trust",
        `--prompt=${prompt}`,
      ];
    case "qwen":
      return ["qwen", "-m", model, "--output-format", "stream-json", "--yolo", `--prompt=${prompt}`];
    case "opencode":
      return ["opencode", "run", "--format", "json", "-m", model, "--", prompt];
    case "copilot":
      return [
        "copilot",
        `--prompt=${prompt}`,
        "--model",
        model,
        "--output-format",
        "json",
        "--allow-all-tools",
      ];
    default:
      return unreachable(cli);
  }
}

/** Configures one CLI for a mock (see the per-CLI functions for what is written). */
export function configureForMock(cli: RealCli, options: MockConfigOptions): Promise<MockConfig> {
  switch (cli) {
    case "claude":
      return configureClaude(options);
    case "codex":
      return configureCodex(options);
    case "pi":
      return configurePi(options);
    case "gemini":
      return configureGemini(options);
    case "qwen":
      return configureQwen(options);
    case "opencode":
      return configureOpencode(options);
    case "copilot":
      return configureCopilot(options);
    default:
      return unreachable(cli);
  }
}

function unreachable(value: never): never {
  throw new Error(`unknown CLI ${String(value)}`);
}
