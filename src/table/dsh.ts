// DeepSeek Harness's row of the table (src/adapters.ts); src/descriptor/ says what each field means.

import type { AdapterDescriptor } from "../descriptor/row.js";
import type { KeyStore } from "../descriptor/sign-in.js";

// Its `.credentials.yaml` holds `refs.<variable>`.
const DSH_STORE = {
  kind: "yaml-entry",
  file: ".dsh/.credentials.yaml",
  map: "refs",
  variable: "DEEPSEEK_API_KEY",
} as const satisfies KeyStore;

export const dsh = {
  name: "dsh",
  product: "DeepSeek Harness",
  family: "deepseek",
  offers: "a coding agent on DeepSeek models; it reads, edits, and runs code in a project",
  packages: [],
  verified: { kind: "unverified", reason: "not on npm; the seed's facts are kept" },
  command: "dsh",
  args: ["--profile", "headless"],
  prompt: { kind: "positional", endOfOptions: false },
  modelArgs: [],
  effortArgs: [],
  effortLevels: [],
  modelHint: "DeepSeek Harness chooses its model from its profile; omit model.",
  homeEnvironment: [["DSH_HOME", ".dsh"]],
  fixedEnvironment: [],
  removedEnvironment: ["DSH_*", "DEEPSEEK_*"],
  credentialWords: ["DSH", "DEEPSEEK"],
  fullPermissionArgs: [],
  // Bypasses its file sandbox and sets its approval policy to `never`.
  fullPermissionEnvironment: [["DSH_PERMISSION_MODE", "danger-full-access"]],
  review: { readOnlyArgs: [], schema: { kind: "prompt" } },
  modeReport: { kind: "none" },
  // Its published docs: `$DSH_HOME/settings.yaml` (providers, models) beside .credentials.yaml.
  ownConfig: { file: ".dsh/settings.yaml", signsIn: false },
  endpoint: { kind: "unsupported", reason: "not on npm; no way to set its endpoint was verified" },
  searchDirs: [],
  login: { kind: "api-key", store: DSH_STORE },
  status: { kind: "stored", store: DSH_STORE },
  logout: { kind: "stored", store: DSH_STORE },
  output: { kind: "text", args: [] },
  resume: { kind: "unsupported" },
  conversationFiles: null,
  credentialFiles: [".dsh/.credentials.yaml"],
  retries: { kind: "none", note: "no retry setting known (not on npm, not verified)" },
  // Its ACP server is its headless interface; its headless profile prints text only.
  transport: "acp",
  acp: {
    command: "dsh",
    args: ["--profile", "acp"],
    full: { kind: "none" },
    fullEnvironment: [["DSH_PERMISSION_MODE", "danger-full-access"]],
    verified: { kind: "unverified", reason: "not on npm; the seed's launch is kept" },
  },
  cliTurns: true,
  mcpPassing: { kind: "unsupported", reason: "not on npm; no way to pass MCP servers was verified" },
  mcpHost: { kind: "unsupported", reason: "not on npm; no way to register an MCP server was verified" },
  takeover: { kind: "unsupported" },
} as const satisfies AdapterDescriptor;
