// What several rows of the table share.

import type { Resume } from "../descriptor/turn.js";

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A CLI that starts a session under the UUID scv gives it and continues it by that id. */
export const RESUME_BY_SESSION_ID = {
  kind: "supported",
  start: ["--session-id", "{session}"],
  options: ["--resume", "{session}"],
  idPattern: UUID,
} as const satisfies Resume;

/** How long a tool call may take before a host with a 60-second default cuts it (`mcpHost`): a
 * delegate call answers within 55 s (its longest wait) plus the turn's start. */
export const HOST_TOOL_TIMEOUT_SECONDS = 120;

/** OpenCode's entry of a local MCP server (`mcp.<name>` in its config), which Kilo Code, its fork,
 * writes the same: the command and its arguments in one array, and the tool-call limit in ms. */
export const OPENCODE_LOCAL_MCP_ENTRY = {
  type: "local",
  command: ["{command}", "{args}"],
  enabled: true,
  timeout: HOST_TOOL_TIMEOUT_SECONDS * 1000,
} as const;
