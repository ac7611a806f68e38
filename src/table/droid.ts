// Factory Droid's row of the table (src/adapters.ts); src/descriptor/ says what each field means.

import type { AdapterDescriptor } from "../descriptor/row.js";

export const droid = {
  name: "droid",
  product: "Factory Droid",
  family: null,
  offers:
    "Factory's coding agent; it reads, edits, and runs code in a project, on Factory's models or the user's own",
  packages: ["@factory/cli"],
  // 0.225.1 names @factory/cli-linux-x64@0.225.1, which the registry lacks, and npm skips it
  // without a word ("Could not find the droid binary"): its newest platform package goes beside it.
  platformPackage: "@factory/cli-{platform}-{arch}",
  // The package's version; its platform binary answers 0.225.2.
  verified: { kind: "lab", version: "0.225.1" },
  command: "droid",
  args: ["exec"],
  // Lab (0.225.2): `--` keeps a prompt beginning with `-` or `@` a prompt, verbatim.
  prompt: { kind: "positional", endOfOptions: true },
  modelArgs: ["-m", "{model}"],
  effortArgs: ["-r", "{effort}"],
  // What its ACP server offered for a model (reasoning_effort).
  effortLevels: ["none", "off", "low", "medium", "high"],
  modelHint:
    "a model Droid offers, such as claude-sonnet-4-5, or custom:<name>-<n> for one of its settings' customModels.",
  homeEnvironment: [],
  // Keys kept in its files in the agent home rather than the system keyring.
  fixedEnvironment: [
    ["FACTORY_DROID_AUTO_UPDATE_ENABLED", "false"],
    ["FACTORY_DISABLE_KEYRING", "1"],
  ],
  removedEnvironment: ["FACTORY_*", "DROID_*"],
  credentialWords: ["FACTORY", "DROID"],
  fullPermissionArgs: ["--skip-permissions-unsafe"],
  // Its help (0.225.1): without --auto, exec runs read-only (no file or system changes).
  review: { readOnlyArgs: [], schema: { kind: "prompt" } },
  modeReport: { kind: "none" },
  // Its `customModels` (model, provider, baseUrl, apiKey) sign it in without a Factory account.
  ownConfig: { file: ".factory/settings.json", signsIn: true },
  // Lab (0.225.2): `--settings <file>` merges a runtime settings file for the run, and a custom
  // model's apiKey `${VAR}` is read from the variable.
  endpoint: {
    kind: "supported",
    api: "openai-chat",
    url: {
      kind: "settings-file",
      format: "custom-models",
      provider: "scv-endpoint",
      args: ["--settings", "{file}"],
      // Its name of an OpenAI-compatible chat API; a custom model is named by its display name and
      // place in the list.
      apiType: "generic-chat-completion-api",
      modelName: "custom:{provider}-0",
    },
    key: "SCV_ENDPOINT_API_KEY",
    args: [],
    acp: false,
    verified: { kind: "lab", version: "0.225.1" },
  },
  searchDirs: [".npm-global/bin"],
  // Its CLI has no login, logout or status command: /login in its UI, or FACTORY_API_KEY in
  // [agents.droid.env].
  login: {
    kind: "interactive",
    args: [],
    hint: "run /login, then /exit (or set FACTORY_API_KEY in [agents.droid.env])",
  },
  status: { kind: "unchecked" },
  logout: { kind: "interactive", args: [], hint: "run /logout, then /exit" },
  output: { kind: "droid-stream-json", args: ["-o", "stream-json"] },
  // Lab (0.225.2): `exec -s <id>` fetches the session from api.factory.ai, even with a custom model
  // and the transcript on disk: offline or without a Factory account it exits 1 saying nothing.
  // Its ACP server loads the same sessions offline.
  resume: {
    kind: "unsupported",
    reason: "its headless resume fetches the session from Factory's service",
  },
  // `.factory/sessions/<cwd slug>/<session id>.jsonl`, beside a .settings.json of the same name.
  conversationFiles: { dir: ".factory/sessions", extension: "jsonl" },
  credentialFiles: [".factory/auth.json", ".factory/auth.encrypted"],
  retries: { kind: "none", note: "none known: a 429 was retried 4 times over about 90 s" },
  transport: "process",
  acp: {
    command: "droid",
    args: ["exec", "--output-format", "acp"],
    modelArgs: ["-m", "{model}"],
    // Its modes: normal (read-only), spec, auto-low, auto-medium, auto-high ("auto-approves all
    // actions").
    full: { kind: "mode", mode: "auto-high" },
    fullEnvironment: [],
    // Contract suite (0.225.2, test/real/new-clis.test.ts: a turn and -c over ACP): with a custom
    // model, FACTORY_API_KEY set to anything and FACTORY_AIRGAP_ENABLED=1 in [agents.droid.env]; it
    // loads its sessions offline.
    verified: { kind: "lab", version: "0.225.1" },
    known:
      "its session/new asks for Factory's sign-in, or FACTORY_API_KEY (any value with FACTORY_AIRGAP_ENABLED=1 for custom models only), even where exec runs without one",
  },
  cliTurns: true,
  mcpPassing: {
    kind: "unsupported",
    reason: "not verified; over ACP (--transport acp) session/new takes them",
  },
  // Checked against the pinned CLI (its `mcp add --help`, 0.225.1): `mcp add` writes ~/.factory/mcp.json
  // and refuses a name it has; `mcp remove` of a missing one exits 1.
  mcpHost: {
    kind: "command",
    add: ["mcp", "add", "{name}", "{env}", "--", "{command}", "{args}"],
    envFlag: "--env",
    remove: ["mcp", "remove", "{name}"],
    absent: /not found in configuration/i,
    taken: /already exists/i,
    // Its binary: a server's `timeout` (ms), else 180 000 (`timeout:d.config.timeout??Fq`, `Fq=180000`).
    timeout: { kind: "default-suffices", why: "Factory Droid lets an MCP call run 180 s by default" },
    // test/real/mcp-install.test.ts.
    verified: { kind: "lab", version: "0.225.1" },
  },
  takeover: { kind: "unsupported" },
} as const satisfies AdapterDescriptor;
