// Which agents just failed to sign in: a turn that ended with an authentication failure leaves a
// mark in $SCV_HOME/cache/sign-in-failed/<agent>, which a completed turn of that agent or a new
// sign-in removes. A failed turn's "try instead" leaves marked agents out: scv cannot read every
// CLI's sign-in from a file, but it has just seen this one refused. After an hour the mark no longer
// counts (the user may have fixed the key elsewhere, in a config file scv does not watch). The
// folder is a cache: safe to delete.

import { closeSync, constants, futimesSync, lstatSync, openSync } from "node:fs";
import { join } from "node:path";
import { ensurePrivateDir } from "./agent-home.js";
import { cacheDir, type Env, scvHome } from "./paths.js";
import { removeIfPresent } from "./remove.js";

/** How long a failed sign-in counts as "just". */
const RECENT_MS = 60 * 60 * 1000;

function markDir(env: Env): string {
  return join(cacheDir(env), "sign-in-failed");
}

/** An agent's name as the table spells them: safe as a file name. */
const AGENT_NAME = /^[a-z][a-z0-9-]{0,63}$/;

/** Marks `agent` as just refused; never throws (a mark that cannot be written changes no turn). */
export function markSignInFailed(agent: string, env: Env): void {
  if (!AGENT_NAME.test(agent)) return;
  try {
    ensurePrivateDir(markDir(env), scvHome(env));
    // Never through a link planted in its place, and nothing truncated: the mark is its mtime.
    const fd = openSync(
      join(markDir(env), agent),
      constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK,
      0o600,
    );
    try {
      const now = new Date();
      futimesSync(fd, now, now);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Without the mark, the agent may be offered once more.
  }
}

/** Removes `agent`'s mark: it signed in, or a turn of it completed (every completed turn asks, so
 * an absent mark costs one lstat). */
export function clearSignInFailed(agent: string, env: Env): void {
  if (!AGENT_NAME.test(agent)) return;
  try {
    removeIfPresent(join(markDir(env), agent));
  } catch {
    // An unreadable cache is no mark.
  }
}

/** Whether `agent` failed to sign in within the last hour. */
export function signInFailedRecently(agent: string, env: Env, now = Date.now()): boolean {
  if (!AGENT_NAME.test(agent)) return false;
  try {
    const marked = lstatSync(join(markDir(env), agent), { throwIfNoEntry: false });
    return marked?.isFile() === true && now - marked.mtimeMs < RECENT_MS;
  } catch {
    return false;
  }
}
