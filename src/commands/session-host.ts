// The detached scv that keeps a conversation's ACP server running between its turns (hidden command
// `session-host`, started by acp/session-host/start.ts): reads its launch as JSON on stdin, says "ready" on the
// pipe named by SCV_READY_FD once it listens, and runs until it ends (acp/session-host/serve.ts).

import { serveSessionHost } from "../acp/session-host/serve.js";
import { parseSessionHostSpec } from "../acp/session-host/spec.js";
import { HOST_READY_FD_VARIABLE, HOST_READY_WORD } from "../acp/session-host/start.js";
import { EXIT } from "../errors.js";
import type { CliIo } from "../io.js";
import { readyPipe } from "../jobs/job.js";

export async function sessionHostCommand(io: CliIo): Promise<number> {
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  const spec = parseSessionHostSpec(Buffer.concat(chunks).toString("utf8"));
  const ready = readyPipe(io.env[HOST_READY_FD_VARIABLE]);
  try {
    await serveSessionHost(spec, io.env, () => ready.said(HOST_READY_WORD));
  } finally {
    ready.close();
  }
  return EXIT.ok;
}
