// scv's conversation records: one JSON file per conversation in `$SCV_HOME/conversations/`, written
// atomically (src/home/atomic.ts), validated when read, and locked while a turn runs.

import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { customAlphabet } from "nanoid/non-secure";
import * as z from "zod/mini";
import { EXAMPLE_AGENTS } from "../adapters.js";
import { fileHint, ScvError } from "../errors.js";
import { lazy } from "../lazy.js";
import { checkOutcomeSchema } from "../result.js";
import { timing } from "../timing.js";
import { ensureScvDir } from "./agent-home.js";
import { writeAtomicSync } from "./atomic.js";
import { heldLock, type LockIdentity, lockRefreshedAt, removeDeadLock, takeLock } from "./lock.js";
import { type Env, scvHome } from "./paths.js";
import { removeIfPresent } from "./remove.js";
import { readStateFile, readStateText, SMALL_STATE_BYTES } from "./state-file.js";
import { worktreeSchema } from "./worktree-record.js";

/** A turn's usage fields, kept whatever else a later scv adds. A field that is not a number (a
 * `null` an older scv wrote for a sum that overflowed) is dropped, never the record. */
const usageSchema = lazy(() => {
  const number = () => z.catch(z.optional(z.number()), undefined);
  return z.looseObject({
    input: number(),
    cached: number(),
    cacheWrite: number(),
    output: number(),
    reasoning: number(),
    costUsd: number(),
  });
});

export const conversationSchema = lazy(() =>
  z.looseObject({
    handle: z.string(),
    agent: z.string(),
    /** The account whose home holds its session; absent for the default account. */
    account: z.optional(z.string()),
    /** The vendor session id; absent until the CLI reported one. */
    sessionId: z.optional(z.string()),
    /** How its turns reach the agent; absent for one started before scv had ACP (`process`). */
    transport: z.optional(z.enum(["process", "acp"])),
    cwd: z.string(),
    model: z.optional(z.string()),
    effort: z.optional(z.string()),
    policy: z.enum(["auto", "default"]),
    createdAt: z.string(),
    updatedAt: z.string(),
    turns: z.int().check(z.nonnegative()),
    /** A one-line preview of the last prompt. */
    lastPrompt: z.optional(z.string()),
    /** Totals over this conversation's turns, in scv's own accounting. */
    usage: z._default(usageSchema(), {}),
    /** The CLI's own running total after the last turn, for CLIs that report cumulatively. */
    cumulative: z.optional(usageSchema()),
    lastStatus: z.optional(z.string()),
    /** The last turn's scv exit code. */
    lastExitCode: z.optional(z.int()),
    /** Wall-clock milliseconds of its turns, summed (turns since scv kept it). */
    duration: z.optional(z.number()),
    /** Its git worktree (`--worktree`): its turns run there, on the branch `scv/<handle>`. */
    worktree: z.optional(worktreeSchema()),
    /** The `--check` after its last turn in the worktree. */
    lastCheck: z.optional(checkOutcomeSchema()),
    /** How often the owner took it over in the CLI's own UI (`scv attach`), and when last. */
    takeovers: z.optional(z.int().check(z.nonnegative())),
    lastTakeoverAt: z.optional(z.string()),
  }),
);

export type ConversationRecord = z.infer<ReturnType<typeof conversationSchema>>;

const HANDLE_SUFFIX = customAlphabet("0123456789abcdefghijkmnpqrstuvwxyz", 6);
/** A handle names its agent: `<agent>-k3f9x2`. */
export const HANDLE_PATTERN = /^[a-z][a-z0-9-]{0,30}-[0-9a-z]{6}$/;

export function conversationsDir(env: Env): string {
  return join(scvHome(env), "conversations");
}

export function newHandle(agent: string): string {
  return `${agent}-${HANDLE_SUFFIX()}`;
}

function recordPath(handle: string, env: Env): string {
  if (!HANDLE_PATTERN.test(handle)) {
    throw new ScvError(
      "UNKNOWN_CONVERSATION",
      `'${handle}' is not a conversation handle (like ${EXAMPLE_AGENTS[0]}-k3f9x2)`,
    );
  }
  return join(conversationsDir(env), `${handle}.json`);
}

/** The record for `handle`; a usage error when there is none. */
export function readConversation(handle: string, env: Env): ConversationRecord {
  const path = recordPath(handle, env);
  const read = readStateFile(path, { maxBytes: SMALL_STATE_BYTES });
  if (read.kind === "refused") {
    throw new ScvError(
      "UNKNOWN_CONVERSATION",
      `conversation record ${path} is ${read.why} — remove it with: scv conversations rm ${handle}`,
    );
  }
  if (read.kind === "absent") {
    throw new ScvError("UNKNOWN_CONVERSATION", `no conversation '${handle}' — run: scv conversations list`);
  }
  const text = read.bytes.toString("utf8");
  const parsed = conversationSchema().safeParse(safeJson(text));
  if (!parsed.success) {
    throw new ScvError(
      "UNKNOWN_CONVERSATION",
      `conversation record ${path} is damaged — remove it with: scv conversations rm ${handle}`,
    );
  }
  return parsed.data;
}

/** Whether a record (readable or not) exists for `handle`. */
export function recordExists(handle: string, env: Env): boolean {
  return existsSync(recordPath(handle, env));
}

/** Writes the record atomically (src/home/atomic.ts): a reader sees the old record or the new one.
 * Not flushed to disk before the rename: an fsync on every turn, for a record that only points to
 * the agent's own session, which a power cut can take just as well. */
export function writeConversation(record: ConversationRecord, env: Env): void {
  const path = recordPath(record.handle, env);
  try {
    ensureScvDir(env, "conversations");
    writeAtomicSync(path, `${JSON.stringify(record, null, 2)}\n`, { fsync: false });
  } catch (error) {
    if (error instanceof ScvError) throw error;
    const { code } = error as NodeJS.ErrnoException;
    throw new ScvError(
      "IO",
      `cannot save conversation record ${path} (${code ?? "error"}) — ${fileHint(code)}`,
      {
        cause: error,
      },
    );
  }
}

export function removeConversation(handle: string, env: Env): void {
  removeIfPresent(recordPath(handle, env));
}

/** Every readable record, newest first; damaged files are skipped and counted. */
export function listConversations(env: Env): {
  records: ConversationRecord[];
  damaged: string[];
} {
  const dir = conversationsDir(env);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return { records: [], damaged: [] };
  }
  const records: ConversationRecord[] = [];
  const damaged: string[] = [];
  for (const name of names) {
    if (!name.endsWith(".json")) continue;
    const text = readStateText(join(dir, name), { maxBytes: SMALL_STATE_BYTES });
    if (text === undefined) continue;
    const parsed = conversationSchema().safeParse(safeJson(text));
    if (parsed.success) records.push(parsed.data);
    else damaged.push(name);
  }
  records.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  return { records, damaged };
}

/** How long a conversation lock nobody refreshes lasts before the next turn takes it over
 * (src/home/lock.ts has the whole rule). */
export const LOCK_STALE_MS = 30_000;

/** Locks a conversation for one turn. Waits up to `waitMs`, then fails with "conversation busy".
 * Returns the release function. */
export async function lockConversation(
  handle: string,
  env: Env,
  waitMs = 10_000,
): Promise<() => Promise<void>> {
  ensureScvDir(env, "conversations");
  const retries = Math.max(0, Math.ceil(waitMs / 250));
  try {
    return await takeLock(recordPath(handle, env), {
      stale: LOCK_STALE_MS,
      update: timing("lockRefresh"),
      retries: { retries, factor: 1, minTimeout: 250, maxTimeout: 250 },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOCKED") {
      throw new ScvError(
        "CONVERSATION_BUSY",
        `conversation busy — another turn of ${handle} is running; wait for it (scv ps) or continue later`,
        { cause: error },
      );
    }
    throw error;
  }
}

/** The identity of the lock this process holds on `handle`'s conversation, for its running-turn
 * record; undefined when it holds none or the file system cannot tell lock folders apart. */
export function heldLockIdentity(handle: string, env: Env): LockIdentity | undefined {
  return heldLock(recordPath(handle, env));
}

/** When the lock on `handle`'s conversation goes stale unless its holder refreshes it (which a live
 * holder does every few seconds); undefined when it is not locked. */
export function lockStaleAt(handle: string, env: Env): number | undefined {
  const refreshed = lockRefreshedAt(recordPath(handle, env));
  return refreshed === undefined ? undefined : refreshed + LOCK_STALE_MS;
}

/** Removes the conversation lock a turn took, once the caller has proven that turn's scv gone
 * (src/home/lock.ts). True when it removed the lock. */
export function releaseDeadLock(handle: string, identity: LockIdentity, env: Env): boolean {
  return removeDeadLock(recordPath(handle, env), identity, LOCK_STALE_MS);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** One line of at most `max` characters. */
export function preview(text: string, max = 80): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}
