// Cursor CLI's row of the table (src/adapters.ts); src/descriptor/ says what each field means.

import type { AdapterDescriptor } from "../descriptor/row.js";
import { UUID } from "./shared.js";

export const cursor = {
  name: "cursor",
  product: "Cursor CLI",
  // The models are the user's choice among makers'.
  family: null,
  offers: "Cursor's coding agent; it reads, edits, and runs code in a project",
  packages: [],
  verified: { kind: "unverified", reason: "not on npm; the seed's facts are kept" },
  command: "cursor-agent",
  args: ["-p"],
  prompt: { kind: "positional", endOfOptions: false },
  modelArgs: ["--model", "{model}"],
  effortArgs: [],
  effortLevels: [],
  modelHint: "a model Cursor offers, such as sonnet-4.5 or gpt-5.",
  homeEnvironment: [],
  fixedEnvironment: [],
  removedEnvironment: ["CURSOR_*"],
  credentialWords: ["CURSOR"],
  // Runs commands without asking.
  fullPermissionArgs: ["--force"],
  review: { readOnlyArgs: [], schema: { kind: "prompt" } },
  modeReport: { kind: "none" },
  // Its docs: $XDG_CONFIG_HOME/cursor/cli-config.json on Linux when XDG_CONFIG_HOME is set, as scv sets it.
  ownConfig: { file: ".config/cursor/cli-config.json", signsIn: false },
  endpoint: { kind: "unsupported", reason: "not on npm; no way to set its endpoint was verified" },
  searchDirs: [".cursor/bin"],
  login: { kind: "command", args: ["login"], needs: "browser" },
  status: { kind: "unchecked" },
  logout: { kind: "command", args: ["logout"], needs: "nothing" },
  output: { kind: "cursor-stream-json", args: ["--output-format", "stream-json"] },
  // The chat id arrives with its events; `--resume <id>` continues it.
  resume: {
    kind: "supported",
    options: ["--resume", "{session}"],
    idPattern: UUID,
  },
  conversationFiles: null,
  credentialFiles: [],
  retries: { kind: "none", note: "no retry setting known (not on npm, not verified)" },
  transport: "process",
  acp: {
    command: "cursor-agent",
    args: ["acp"],
    full: { kind: "none" },
    fullEnvironment: [],
    verified: { kind: "unverified", reason: "not on npm; the launch is its documented one" },
  },
  cliTurns: true,
  mcpPassing: { kind: "unsupported", reason: "not on npm; no way to pass MCP servers was verified" },
  mcpHost: { kind: "unsupported", reason: "not on npm; no way to register an MCP server was verified" },
  takeover: { kind: "unsupported" },
} as const satisfies AdapterDescriptor;
