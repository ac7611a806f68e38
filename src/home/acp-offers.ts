// What ACP servers offered in their last session (the models and efforts of the `session/new` or
// `session/load` answer, as acp/turn/offer-check.ts trims it), kept in $SCV_HOME/cache/acp-offers.json by
// a key naming the launch: a turn asking for a model its server does not offer is refused before a
// server is started (a CLI's start-up takes seconds). A cache: unreadable is empty, and the file is
// safe to delete.

import * as z from "zod/mini";
import { lazy } from "../lazy.js";
import { ensureScvDir } from "./agent-home.js";
import { writeAtomicSync } from "./atomic.js";
import { readJsonFile } from "./json-file.js";
import { cacheDir, type Env } from "./paths.js";

/** More launches than one person uses; the oldest go first. */
const MAX_ENTRIES = 32;

const entrySchema = lazy(() =>
  z.object({
    /** When the server gave it (ISO). */
    at: z.string(),
    answer: z.record(z.string(), z.unknown()),
    /** The values refused from it since: asked for again, the server itself is asked. */
    refused: z.optional(z.array(z.string())),
  }),
);
const fileSchema = lazy(() => z.record(z.string(), entrySchema()));

export type KeptOffers = z.infer<ReturnType<typeof entrySchema>>;

function offersFile(env: Env): string {
  return `${cacheDir(env)}/acp-offers.json`;
}

function readAll(env: Env): Record<string, KeptOffers> {
  return readJsonFile(offersFile(env), fileSchema()) ?? {};
}

export function readOffers(key: string, env: Env): KeptOffers | undefined {
  return readAll(env)[key];
}

/** Keeps what the server answered under `key`, in place of what was kept. Never throws: without the
 * cache the server is asked. */
export function keepOffers(key: string, answer: Record<string, unknown>, env: Env, at: string): void {
  const kept = readOffers(key, env);
  if (kept?.refused === undefined && JSON.stringify(kept?.answer) === JSON.stringify(answer)) return;
  update(env, key, { at, answer });
}

/** Notes `values` as refused from what is kept under `key`. */
export function noteRefused(key: string, values: readonly string[], env: Env): void {
  const kept = readOffers(key, env);
  if (kept !== undefined) update(env, key, { ...kept, refused: [...(kept.refused ?? []), ...values] });
}

function update(env: Env, key: string, entry: KeptOffers): void {
  try {
    const others = Object.entries(readAll(env))
      .filter(([each]) => each !== key)
      .sort(([, a], [, b]) => a.at.localeCompare(b.at));
    const entries = [...others, [key, entry] as const].slice(-MAX_ENTRIES);
    ensureScvDir(env, "cache");
    writeAtomicSync(offersFile(env), `${JSON.stringify(Object.fromEntries(entries))}\n`, { fsync: false });
  } catch {
    // The next turn asks the server.
  }
}
