// Kimi Code's row of the table (src/adapters.ts); src/descriptor/ says what each field means.

import type { AdapterDescriptor } from "../descriptor/row.js";

export const kimi = {
  name: "kimi",
  product: "Kimi Code",
  offers: "Moonshot AI's coding agent on Kimi models; it reads, edits, and runs code in a project",
  packages: [],
  verified: { kind: "unverified", reason: "not on npm; the seed's facts are kept" },
  command: "kimi",
  args: [],
  prompt: { kind: "positional", endOfOptions: false },
  modelArgs: [],
  effortArgs: [],
  effortLevels: [],
  modelHint: "a model its ACP server lists.",
  homeEnvironment: [],
  fixedEnvironment: [],
  removedEnvironment: ["KIMI_*", "MOONSHOT_*"],
  credentialWords: ["KIMI"],
  fullPermissionArgs: [],
  modeReport: { kind: "none" },
  // Its docs: ~/.kimi-code/config.toml (providers, models and keys).
  ownConfig: { file: ".kimi-code/config.toml", signsIn: false },
  endpoint: { kind: "unsupported", reason: "not on npm; no way to set its endpoint was verified" },
  searchDirs: [".kimi-code/bin"],
  login: {
    kind: "interactive",
    args: [],
    hint: "run /login, then /exit",
    deviceCode: ["login"],
  },
  status: { kind: "unchecked" },
  logout: { kind: "interactive", args: [], hint: "sign out with its own command, then /exit" },
  output: { kind: "text", args: [] },
  resume: { kind: "unsupported" },
  conversationFiles: null,
  credentialFiles: [],
  retries: { kind: "none", note: "no retry setting known (not on npm, not verified)" },
  transport: "acp",
  // Its one-prompt mode is unverified, so it runs over ACP only.
  acp: {
    command: "kimi",
    args: ["acp"],
    full: { kind: "none" },
    fullEnvironment: [],
    verified: { kind: "unverified", reason: "not on npm; the seed's launch is kept" },
  },
  cliTurns: false,
  mcpPassing: { kind: "unsupported", reason: "ACP only: its servers go in session/new" },
  mcpHost: { kind: "unsupported", reason: "not on npm; no way to register an MCP server was verified" },
  takeover: { kind: "unsupported" },
} as const satisfies AdapterDescriptor;
