// What a turn hands the session host it starts (acp/session-host/start.ts → `scv session-host`), as JSON on the
// host's stdin: the server's launch as the turn would have started it, and the host's own tag,
// TMPDIR and idle limit. The environment travels there, never in argv.

import * as z from "zod/mini";
import { ScvError } from "../../errors.js";
import { HANDLE_PATTERN } from "../../home/conversations.js";
import { lazy } from "../../lazy.js";

const sessionHostSpecSchema = lazy(() =>
  z.object({
    handle: z.string().check(z.regex(HANDLE_PATTERN)),
    agent: z.string(),
    file: z.string(),
    args: z.array(z.string()),
    cwd: z.string(),
    env: z.record(z.string(), z.string()),
    /** SCV_TURN for the server and what it starts. */
    tag: z.string(),
    /** The server's TMPDIR, the host's own; absent when the user set TMPDIR for the agent. */
    tmp: z.optional(z.string()),
    /** The launch's hash (home/host-records.ts `launch`). */
    launch: z.string(),
    idleMs: z.number(),
    /** How many hosts may run at once (acp/session-host/budget.ts). */
    maxWarm: z.optional(z.number()),
    graceMs: z.optional(z.number()),
  }),
);
export type SessionHostSpec = z.infer<ReturnType<typeof sessionHostSpecSchema>>;

export function parseSessionHostSpec(text: string): SessionHostSpec {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const parsed = sessionHostSpecSchema().safeParse(value);
  if (!parsed.success)
    throw new ScvError(
      "USAGE",
      "session-host keeps an ACP turn's server running for scv delegate — use that",
    );
  return parsed.data;
}
