// Crush's row of the table (src/adapters.ts); src/descriptor/ says what each field means.

import type { AdapterDescriptor } from "../descriptor/row.js";

export const crush = {
  name: "crush",
  product: "Crush",
  family: null,
  offers: "Charm's coding agent; it reads, edits, and runs code in a project, on many model providers",
  // Its postinstall downloads its binary from GitHub's releases (or its first run does).
  packages: ["@charmland/crush"],
  verified: {
    kind: "unverified",
    reason:
      "its npm package downloads its binary from GitHub at install, which the lab cannot reach; the facts are from its source (internal/cmd/run.go)",
  },
  command: "crush",
  args: ["run", "--quiet"],
  // cobra: `--` ends its options; the prompt is its arguments joined with spaces, after piped stdin.
  prompt: { kind: "positional", endOfOptions: true },
  modelArgs: ["-m", "{model}"],
  effortArgs: [],
  effortLevels: [],
  modelHint: "a model or provider/model of its configured providers, such as anthropic/claude-sonnet-4.",
  modelsMayHaveSlash: true,
  homeEnvironment: [],
  fixedEnvironment: [],
  removedEnvironment: ["CRUSH_*"],
  credentialWords: ["CRUSH"],
  // `run` approves every tool call of its turn by itself (AutoApprove on its message).
  fullPermissionArgs: [],
  review: { readOnlyArgs: [], schema: { kind: "prompt" } },
  modeReport: { kind: "none" },
  ownConfig: { file: ".config/crush/crush.json", signsIn: true },
  endpoint: {
    kind: "unsupported",
    reason: "not installable here; no way to set its endpoint was verified",
  },
  searchDirs: [".npm-global/bin"],
  login: { kind: "interactive", args: [], hint: "choose a provider and enter its key, then quit" },
  status: { kind: "unchecked" },
  logout: { kind: "interactive", args: [], hint: "remove the provider's key in its settings, then quit" },
  // `run` prints the final assistant text on stdout; a failed run says `Error: …` on stderr, exit 1.
  output: { kind: "text", args: [] },
  resume: {
    kind: "unsupported",
    reason: "its `--session <id>` needs an id its text output does not give",
  },
  conversationFiles: null,
  credentialFiles: [".config/crush/crush.json"],
  retries: { kind: "none", note: "no retry setting known (not installable here)" },
  transport: "process",
  acp: null,
  cliTurns: true,
  mcpPassing: {
    kind: "unsupported",
    reason: "not installable here; no way to pass MCP servers was verified",
  },
  mcpHost: { kind: "unsupported", reason: "no way to register an MCP server with it was verified" },
  takeover: { kind: "unsupported" },
} as const satisfies AdapterDescriptor;
