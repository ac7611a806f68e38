// Grok Build's row of the table (src/adapters.ts); src/descriptor/ says what each field means.

import type { AdapterDescriptor } from "../descriptor/row.js";

export const grok = {
  name: "grok",
  product: "Grok Build",
  family: "grok",
  offers: "xAI's coding agent; it reads, edits, and runs code in a project and has live web and X search",
  packages: [],
  verified: { kind: "unverified", reason: "not on npm; the seed's facts are kept" },
  command: "grok",
  args: [],
  prompt: { kind: "flag", args: ["-p"], joined: "--prompt=" },
  modelArgs: ["-m", "{model}"],
  effortArgs: ["--reasoning-effort", "{effort}"],
  effortLevels: ["low", "medium", "high"],
  modelHint: "xAI Grok model id, such as grok-4.7.",
  homeEnvironment: [["GROK_HOME", ".grok"]],
  fixedEnvironment: [["GROK_DISABLE_AUTOUPDATER", "1"]],
  removedEnvironment: ["GROK_*", "XAI_*"],
  credentialWords: ["GROK"],
  // Web search is on unless `--disable-web-search` is passed.
  fullPermissionArgs: ["--always-approve"],
  review: { readOnlyArgs: [], schema: { kind: "prompt" } },
  modeReport: { kind: "none" },
  // The seed's: its profiles live in config.toml under GROK_HOME.
  ownConfig: { file: ".grok/config.toml", signsIn: false },
  endpoint: { kind: "unsupported", reason: "not on npm; no way to set its endpoint was verified" },
  searchDirs: [".grok/bin"],
  login: { kind: "command", args: ["login"], needs: "browser" },
  // `grok login` writes its sign-ins into auth.json; an API key may instead sit in a model profile of
  // config.toml (which profile is the default model's is the CLI's business: any key counts).
  status: {
    kind: "stored",
    store: {
      kind: "json-entries",
      file: ".grok/auth.json",
      tomlKey: { file: ".grok/config.toml", key: "api_key" },
    },
  },
  logout: { kind: "command", args: ["logout"], needs: "nothing" },
  // `--output-format json` exists but its success shape is unverified.
  output: { kind: "text", args: [] },
  resume: { kind: "unsupported" },
  conversationFiles: null,
  credentialFiles: [".grok/auth.json", ".grok/config.toml"],
  retries: { kind: "none", note: "no retry setting known (not on npm, not verified)" },
  // Its ACP server is its headless interface; `-p` prints text only.
  transport: "acp",
  acp: {
    command: "grok",
    args: ["agent", "{full}", "stdio"],
    full: { kind: "args", args: ["--always-approve"] },
    fullEnvironment: [],
    verified: { kind: "unverified", reason: "not on npm; the seed's launch is kept" },
  },
  cliTurns: true,
  mcpPassing: { kind: "unsupported", reason: "not on npm; no way to pass MCP servers was verified" },
  mcpHost: { kind: "unsupported", reason: "not on npm; no way to register an MCP server was verified" },
  takeover: { kind: "unsupported" },
} as const satisfies AdapterDescriptor;
