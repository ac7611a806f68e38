// Accounts cooling down after a limit: one small JSON file per account in
// `$SCV_HOME/cooldowns/<agent>@<account>.json`, written atomically (a file per account, so turns of
// different accounts ending at once never rewrite each other's), read before a ladder tries the
// account. A file whose time has passed counts for nothing and is replaced by the next limit.

import { join } from "node:path";
import * as z from "zod/mini";
import { parseDuration } from "../duration.js";
import { fileHint, ScvError } from "../errors.js";
import { lazy } from "../lazy.js";
import { isoTimestamp } from "../timestamp.js";
import { ensureScvDir } from "./agent-home.js";
import { writeAtomicSync } from "./atomic.js";
import { readJsonFile } from "./json-file.js";
import { type Env, scvHome } from "./paths.js";

/** How long an account cools when its CLI said no reset time scv can read as an instant. */
export const DEFAULT_COOLDOWN_MS = 15 * 60_000;

export interface Cooldown {
  /** When the account may be tried again (UTC ISO 8601). */
  readonly until: string;
  /** The limit's own line, as the turn's error said it. */
  readonly reason: string;
}

const cooldownSchema = lazy(() => z.looseObject({ until: z.iso.datetime(), reason: z.string() }));

function cooldownPath(agent: string, account: string, env: Env): string {
  return join(scvHome(env), "cooldowns", `${agent}@${account}.json`);
}

/** The account's cooldown while it lasts; undefined once over, never written, or unreadable. */
export function activeCooldown(
  agent: string,
  account: string,
  env: Env,
  now = Date.now(),
): Cooldown | undefined {
  const cooldown = readJsonFile(cooldownPath(agent, account, env), cooldownSchema());
  if (cooldown === undefined || Date.parse(cooldown.until) <= now) return undefined;
  return { until: cooldown.until, reason: cooldown.reason };
}

/** Cools the account until `until`; throws `ScvError` when the file cannot be written. */
export function coolDown(agent: string, account: string, cooldown: Cooldown, env: Env): void {
  const path = cooldownPath(agent, account, env);
  try {
    ensureScvDir(env, "cooldowns");
    writeAtomicSync(path, `${JSON.stringify(cooldown)}\n`);
  } catch (error) {
    if (error instanceof ScvError) throw error;
    const { code } = error as NodeJS.ErrnoException;
    throw new ScvError("IO", `cannot save cooldown ${path} (${code ?? "error"}) — ${fileHint(code)}`, {
      cause: error,
    });
  }
}

/** The instant a CLI's reset time names: an ISO instant, a wait (`1s`, `90s`, `2m`), or — for
 * words scv cannot place in time (`Feb 7, 11am (Asia/Seoul)`, `3:28 PM`) — `DEFAULT_COOLDOWN_MS`
 * from now. */
export function resetInstant(resetsAt: string | undefined, now = Date.now()): string {
  if (resetsAt !== undefined) {
    if (/^\d{4}-\d{2}-\d{2}T/.test(resetsAt)) {
      const at = Date.parse(resetsAt);
      if (Number.isFinite(at)) return isoTimestamp(new Date(Math.max(at, now)));
    }
    const wait = parseDuration(resetsAt);
    if (wait !== undefined && wait > 0) return isoTimestamp(new Date(now + wait));
  }
  return isoTimestamp(new Date(now + DEFAULT_COOLDOWN_MS));
}
