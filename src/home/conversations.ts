// scv's conversation records: one JSON file per conversation in `$SCV_HOME/conversations/`, written
// atomically (src/home/atomic.ts), validated when read, and locked while a turn runs.

import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { customAlphabet } from "nanoid";
import lockfile from "proper-lockfile";
import * as z from "zod/mini";
import { ScvError } from "../errors.js";
import { ensurePrivateDir } from "./agent-home.js";
import { writeAtomicSync } from "./atomic.js";
import { type Env, scvHome } from "./paths.js";

const usageSchema = z.looseObject({
  input: z.optional(z.number()),
  cached: z.optional(z.number()),
  cacheWrite: z.optional(z.number()),
  output: z.optional(z.number()),
  reasoning: z.optional(z.number()),
  costUsd: z.optional(z.number()),
});

export const conversationSchema = z.looseObject({
  handle: z.string(),
  agent: z.string(),
  /** The vendor session id; absent until the CLI reported one. */
  sessionId: z.optional(z.string()),
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
  usage: z._default(usageSchema, {}),
  /** The CLI's own running total after the last turn, for CLIs that report cumulatively. */
  cumulative: z.optional(usageSchema),
  lastStatus: z.optional(z.string()),
});

export type ConversationRecord = z.infer<typeof conversationSchema>;

const HANDLE_SUFFIX = customAlphabet("0123456789abcdefghijkmnpqrstuvwxyz", 6);
/** A handle names its agent: `codex-k3f9x2`. */
export const HANDLE_PATTERN = /^[a-z][a-z0-9-]{0,30}-[0-9a-z]{6}$/;

export function conversationsDir(env: Env = process.env): string {
  return join(scvHome(env), "conversations");
}

export function newHandle(agent: string): string {
  return `${agent}-${HANDLE_SUFFIX()}`;
}

function recordPath(handle: string, env: Env): string {
  if (!HANDLE_PATTERN.test(handle)) {
    throw new ScvError(
      "UNKNOWN_CONVERSATION",
      `'${handle}' is not a conversation handle (like codex-k3f9x2)`,
    );
  }
  return join(conversationsDir(env), `${handle}.json`);
}

/** The record for `handle`; a usage error when there is none. */
export function readConversation(handle: string, env: Env = process.env): ConversationRecord {
  const path = recordPath(handle, env);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new ScvError("UNKNOWN_CONVERSATION", `no conversation '${handle}' — run: scv conversations list`);
  }
  const parsed = conversationSchema.safeParse(safeJson(text));
  if (!parsed.success) {
    throw new ScvError(
      "UNKNOWN_CONVERSATION",
      `conversation record ${path} is damaged — remove it with: scv conversations rm ${handle}`,
    );
  }
  return parsed.data;
}

/** Whether a record (readable or not) exists for `handle`. */
export function recordExists(handle: string, env: Env = process.env): boolean {
  return existsSync(recordPath(handle, env));
}

/** Writes the record atomically (src/home/atomic.ts), flushed to disk. */
export function writeConversation(record: ConversationRecord, env: Env = process.env): void {
  ensurePrivateDir(conversationsDir(env));
  const path = recordPath(record.handle, env);
  try {
    writeAtomicSync(path, `${JSON.stringify(record, null, 2)}\n`);
  } catch (error) {
    throw new ScvError("IO", `cannot write conversation record ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

export function removeConversation(handle: string, env: Env = process.env): void {
  rmSync(recordPath(handle, env), { force: true });
}

/** Every readable record, newest first; damaged files are skipped and counted. */
export function listConversations(env: Env = process.env): {
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
    let text: string;
    try {
      text = readFileSync(join(dir, name), "utf8");
    } catch {
      continue;
    }
    const parsed = conversationSchema.safeParse(safeJson(text));
    if (parsed.success) records.push(parsed.data);
    else damaged.push(name);
  }
  records.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  return { records, damaged };
}

/** Locks a conversation for one turn. Waits up to `waitMs`, then fails with "conversation busy".
 * A lock left by a crashed scv goes stale and is taken over. Returns the release function. */
export async function lockConversation(
  handle: string,
  env: Env = process.env,
  waitMs = 10_000,
): Promise<() => Promise<void>> {
  ensurePrivateDir(conversationsDir(env));
  const path = recordPath(handle, env);
  const retries = Math.max(0, Math.ceil(waitMs / 250));
  try {
    return await lockfile.lock(path, {
      realpath: false,
      stale: 30_000,
      update: 5_000,
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
