// Amp's row of the table (src/adapters.ts); src/descriptor/ says what each field means.

import type { AdapterDescriptor } from "../descriptor/row.js";

export const amp = {
  name: "amp",
  product: "Amp",
  // Amp chooses its own models.
  family: null,
  offers: "Sourcegraph's coding agent; it reads, edits, and runs code in a project and can search the web",
  // The newest @ampcode/cli had no Linux binary in the registry when checked.
  packages: ["@sourcegraph/amp"],
  // Its `amp` bin is @ampcode/cli's (the new name, a dependency of the same version).
  binPackages: ["@ampcode/cli"],
  verified: { kind: "lab", version: "0.0.1790142911-g7618fb" },
  command: "amp",
  args: [],
  prompt: { kind: "flag", args: ["-x"], joined: "--execute=" },
  // Amp chooses its own models.
  modelArgs: [],
  effortArgs: [],
  effortLevels: [],
  modelHint: "Amp chooses its own model; omit model.",
  homeEnvironment: [],
  fixedEnvironment: [],
  removedEnvironment: ["AMP_*"],
  credentialWords: ["AMP"],
  // Accepted though not in `--help`; the documented form is `"amp.dangerouslyAllowAll": true`.
  fullPermissionArgs: ["--dangerously-allow-all"],
  // Its --help has no read-only switch (its permissions are settings) and no structured output.
  review: { readOnlyArgs: [], schema: { kind: "prompt" } },
  modeReport: { kind: "none" },
  // Its help text: ~/.config/amp/settings.json, keys prefixed "amp.".
  ownConfig: { file: ".config/amp/settings.json", signsIn: false },
  endpoint: {
    kind: "unsupported",
    reason: "its model traffic goes through the Amp service, not to a model API",
  },
  searchDirs: [".amp/bin", ".npm-global/bin"],
  login: { kind: "command", args: ["login"], needs: "browser" },
  status: { kind: "unchecked" },
  logout: { kind: "command", args: ["logout"], needs: "nothing" },
  output: { kind: "amp-stream-json", args: ["--stream-json"] },
  // Its thread continuation (`threads continue`) could not be verified signed out.
  resume: { kind: "unsupported" },
  conversationFiles: null,
  credentialFiles: [],
  retries: {
    kind: "none",
    note: "no retry setting known (its model traffic goes through the Amp service)",
  },
  transport: "process",
  acp: null,
  cliTurns: true,
  // Its --help has `--mcp-config` (JSON or a file), merged with its own settings; not verified.
  mcpPassing: { kind: "unsupported", reason: "its --mcp-config merges with its settings; not verified" },
  mcpHost: { kind: "unsupported", reason: "no way to register an MCP server with it was verified" },
  takeover: { kind: "unsupported" },
} as const satisfies AdapterDescriptor;
