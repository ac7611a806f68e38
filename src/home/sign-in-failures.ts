// Which accounts just failed to sign in: a turn that ended with an authentication failure leaves a
// mark in $SCV_HOME/cache/sign-in-failed/<agent> (the default account) or <agent>@<account>, which a
// completed turn in that account or its new sign-in removes; one account's mark says nothing of
// another's, since each has its own home and credentials. A failed turn's "try instead" leaves marked agents out: scv cannot read every
// CLI's sign-in from a file, but it has just seen this one refused. After an hour the mark no longer
// counts (the user may have fixed the key elsewhere, in a config file scv does not watch). The
// folder is a cache: safe to delete.

import { closeSync, constants, futimesSync, lstatSync, openSync } from "node:fs";
import { join } from "node:path";
import { accountLabel, DEFAULT_ACCOUNT, isAccountName } from "../accounts.js";
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

/** The mark's file for the account, or undefined for names that are no slug. */
function markPath(agent: string, account: string, env: Env): string | undefined {
  if (!AGENT_NAME.test(agent) || !(account === DEFAULT_ACCOUNT || isAccountName(account))) return undefined;
  return join(markDir(env), accountLabel(agent, account));
}

/** Marks the account as just refused; never throws (a mark that cannot be written changes no turn). */
export function markSignInFailed(agent: string, account: string, env: Env): void {
  const path = markPath(agent, account, env);
  if (path === undefined) return;
  try {
    ensurePrivateDir(markDir(env), scvHome(env));
    // Never through a link planted in its place, and nothing truncated: the mark is its mtime.
    const fd = openSync(
      path,
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

/** Removes the account's mark: it signed in, or a turn in it completed (every completed turn asks,
 * so an absent mark costs one lstat). */
export function clearSignInFailed(agent: string, account: string, env: Env): void {
  const path = markPath(agent, account, env);
  if (path === undefined) return;
  try {
    removeIfPresent(path);
  } catch {
    // An unreadable cache is no mark.
  }
}

/** Whether the account failed to sign in within the last hour. */
export function signInFailedRecently(agent: string, account: string, env: Env, now = Date.now()): boolean {
  const path = markPath(agent, account, env);
  if (path === undefined) return false;
  try {
    const marked = lstatSync(path, { throwIfNoEntry: false });
    return marked?.isFile() === true && now - marked.mtimeMs < RECENT_MS;
  } catch {
    return false;
  }
}
