// Auggie's row of the table (src/adapters.ts); src/descriptor/ says what each field means.

import type { AdapterDescriptor } from "../descriptor/row.js";

export const auggie = {
  name: "auggie",
  product: "Auggie (Augment Code)",
  family: null,
  offers:
    "Augment Code's coding agent with its codebase context engine; it reads, edits, and runs code in a project",
  packages: ["@augmentcode/auggie"],
  verified: {
    kind: "offline",
    version: "0.36.0",
    reason: "it talks only to Augment's own API (its session's tenant URL), which no mock serves",
  },
  command: "auggie",
  args: ["--print"],
  prompt: { kind: "positional", endOfOptions: false },
  modelArgs: ["-m", "{model}"],
  effortArgs: ["--reasoning-effort", "{effort}"],
  effortLevels: ["low", "medium", "high"],
  modelHint: "a model Augment offers (auggie model list).",
  homeEnvironment: [],
  fixedEnvironment: [["AUGMENT_DISABLE_AUTO_UPDATE", "1"]],
  // AUGMENT_SESSION_AUTH, AUGMENT_API_TOKEN and AUGMENT_API_URL are its sign-in.
  removedEnvironment: ["AUGMENT_*"],
  credentialWords: ["AUGMENT", "AUGGIE"],
  fullPermissionArgs: [],
  // Its help (0.36.0): `--ask` allows retrieval and non-editing tools only.
  review: { readOnlyArgs: ["--ask"], schema: { kind: "prompt" } },
  modeReport: { kind: "none" },
  ownConfig: { file: ".augment/settings.json", signsIn: false },
  endpoint: { kind: "unsupported", reason: "it talks only to Augment's own API" },
  searchDirs: [".npm-global/bin"],
  // Its OAuth sign-in opens a browser (auth.augmentcode.com).
  login: { kind: "command", args: ["login", "--headless"], needs: "browser" },
  // Lab (0.36.0): signed out, "You are not currently logged in to Augment." and exit 1.
  status: { kind: "command", args: ["account", "status"], summary: { kind: "exit-status" } },
  logout: { kind: "command", args: ["logout"], needs: "nothing" },
  // `--quiet`: only the final assistant message. Its `--output-format json` shape is unknown: no
  // turn could complete here.
  output: { kind: "text", args: ["--quiet"] },
  resume: {
    kind: "unsupported",
    reason: "its `-r <id>` needs the session id, which its text output does not give (not verified)",
  },
  conversationFiles: { dir: ".augment/sessions", extension: "json" },
  credentialFiles: [".augment/session.json"],
  retries: { kind: "none", note: "its `--retry-timeout <sec>` bounds rate-limit retries (not verified)" },
  transport: "process",
  acp: {
    command: "auggie",
    args: ["--acp"],
    full: { kind: "none" },
    fullEnvironment: [],
    verified: {
      kind: "unverified",
      reason: 'signed out, session/new refuses ("Auggie does not currently support authenticating over ACP")',
    },
  },
  cliTurns: true,
  mcpPassing: { kind: "unsupported", reason: "its --mcp-config is not verified (no turn completes here)" },
  mcpHost: { kind: "unsupported", reason: "no way to register an MCP server with it was verified" },
  takeover: { kind: "unsupported" },
} as const satisfies AdapterDescriptor;
