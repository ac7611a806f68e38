// A session host's record, $SCV_HOME/hosts/<handle>.json (home/host-files.ts names the files).

import * as z from "zod/mini";
import { lazy } from "../lazy.js";
import { ensureScvDir } from "./agent-home.js";
import { writeAtomicSync } from "./atomic.js";
import { HANDLE_PATTERN } from "./conversations.js";
import { hostRecordPath } from "./host-files.js";
import { readJsonFile } from "./json-file.js";
import type { Env } from "./paths.js";

const identitySchema = lazy(() => z.object({ pid: z.int().check(z.positive()), startTime: z.string() }));

const hostRecordSchema = lazy(() =>
  z.looseObject({
    version: z.literal(1),
    handle: z.string().check(z.regex(HANDLE_PATTERN)),
    agent: z.string(),
    /** The machine, and its boot id where there is one: no recorded pid means anything elsewhere. */
    host: z.string(),
    boot: z.optional(z.string()),
    /** The session host (a detached scv). */
    scv: identitySchema(),
    /** The ACP server it runs, leader of its process group. */
    server: z.optional(identitySchema()),
    /** SCV_TURN in the server's environment: its tools carry it too. */
    tag: z.string(),
    /** The server's own TMPDIR, removed with the host. */
    tmp: z.optional(z.string()),
    /** What the server was started with (executable, arguments, folder, environment), hashed: a
     * turn that would start it differently (another policy) does not use this one. */
    launch: z.string(),
    /** The session it holds, once the agent made or loaded one. */
    session: z.optional(z.string()),
    startedAt: z.string(),
    /** When a turn last left it (or it started); it ends `idleMs` after that. */
    usedAt: z.string(),
    idleMs: z.number(),
    /** Whether a turn is connected now. */
    inUse: z.boolean(),
  }),
);
export type HostRecord = z.infer<ReturnType<typeof hostRecordSchema>>;

/** The folder made (0700), for a host about to listen there. */
export function ensureHostsDir(env: Env): string {
  return ensureScvDir(env, "hosts");
}

export function readHostRecord(handle: string, env: Env): HostRecord | undefined {
  return readJsonFile(hostRecordPath(handle, env), hostRecordSchema());
}

export function writeHostRecord(record: HostRecord, env: Env): void {
  writeAtomicSync(hostRecordPath(record.handle, env), `${JSON.stringify(record)}\n`, { fsync: false });
}
