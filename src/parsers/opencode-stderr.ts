// OpenCode's failed model requests, which `opencode run --format json` never puts on stdout: it
// retries them silently. With `--print-logs --log-level ERROR` (the row's output args) each failed
// attempt is one logfmt line on stderr (1.18.33):
//   timestamp=… level=ERROR run=… message="stream error" providerID=mock modelID=mock-model …
//   error.error="AI_APICallError: Cannot connect to API: Unable to connect. … (cause: …)"
// `Cannot connect to API` is the AI SDK's own message for a request that never got an HTTP answer
// (refused, no route, DNS): scv reads that one as a retry the CLI waits on, kind `unreachable`.
// Other stream errors come with their answer on stdout, where the parser reads them.

import { retryEvent } from "./event-builders.js";
import type { TurnEvent } from "./event-types.js";

const UNREACHABLE = /Cannot connect to API\b:?\s*(.*?)\s*(?:\(cause:.*)?$/s;

/** `key=value` and `key="quoted \"value\""` pairs of one logfmt line. */
function logfmtFields(line: string): Map<string, string> {
  const fields = new Map<string, string>();
  const pair = /([\w.]+)=(?:"((?:[^"\\]|\\.)*)"|(\S*))/g;
  for (const match of line.matchAll(pair)) {
    const [, key, quoted, bare] = match;
    if (key === undefined) continue;
    fields.set(key, quoted === undefined ? (bare ?? "") : quoted.replace(/\\(.)/g, "$1"));
  }
  return fields;
}

/** A reader of OpenCode's stderr log lines: a retry event per model request that found no endpoint. */
export function readOpencodeStderr(line: string): TurnEvent[] {
  if (!line.includes("level=ERROR") || !line.includes("stream error")) return [];
  const fields = logfmtFields(line);
  if (fields.get("level") !== "ERROR" || fields.get("message") !== "stream error") return [];
  const unreachable = UNREACHABLE.exec(fields.get("error.error") ?? "");
  if (unreachable === null) return [];
  const provider = fields.get("providerID");
  const model = fields.get("modelID");
  const where = provider === undefined ? "" : `${provider}${model === undefined ? "" : `/${model}`}: `;
  const why =
    unreachable[1] === undefined || unreachable[1] === "" ? "Cannot connect to API" : unreachable[1];
  return [retryEvent(`${where}${why}`, { kind: "unreachable" })];
}
