// Which other agents a failed turn could go to instead: installed (its executable is found) and
// signed in as far as scv can tell cheaply. A key store is read where the descriptor names one;
// a CLI whose sign-in only its own command (or a real turn) can tell counts as "maybe" and comes
// after the checked ones; one whose last turn just failed to sign in is left out, whatever its key
// store says. An agent is judged by the accounts a plain turn of it would go through (the config's
// `accounts`, else its default one): the best of them counts. Nothing is spawned: this runs on every
// failure.

import { DEFAULT_ACCOUNT } from "../accounts.js";
import { type AdapterDescriptor, allAdapters } from "../adapters.js";
import { locateAgent, signInStore } from "../agents/lookup.js";
import { EXIT } from "../errors.js";
import type { Config } from "../home/config.js";
import { inspectStore } from "../home/keystore.js";
import { agentHome, type Env } from "../home/paths.js";
import { clearSignInFailed, markSignInFailed, signInFailedRecently } from "../home/sign-in-failures.js";

/** Whether a turn that ended with `exitCode` calls for fallbacks: not a success, a usage error (the
 * same call fails with any agent) or an interruption (the user stopped it). */
export function wantsFallbacks(exitCode: number): boolean {
  return (
    exitCode === EXIT.agentFailed ||
    exitCode === EXIT.notInstalled ||
    exitCode === EXIT.auth ||
    exitCode === EXIT.rateLimited ||
    exitCode === EXIT.timeout
  );
}

type SignIn = "yes" | "maybe" | "no";

/** The agents other than `agent` worth trying, signed-in ones first, each group in table order. */
export async function fallbackAgents(agent: string, config: Config, env: Env): Promise<string[]> {
  const candidates = allAdapters().filter(
    (entry) => entry.name !== agent && entry.cliTurns && locateAgent(entry, config, env) !== undefined,
  );
  const states = await Promise.all(candidates.map((entry) => agentSignedIn(entry, config, env)));
  const named = (state: SignIn) =>
    candidates.filter((_, i) => states[i] === state).map((entry) => entry.name);
  return [...named("yes"), ...named("maybe")];
}

const RANK: Record<SignIn, number> = { yes: 2, maybe: 1, no: 0 };

/** The best sign-in among the accounts a plain turn of the agent would try. */
export async function agentSignedIn(entry: AdapterDescriptor, config: Config, env: Env): Promise<SignIn> {
  const accounts = config.agents?.[entry.name]?.accounts ?? [DEFAULT_ACCOUNT];
  const states = await Promise.all(accounts.map((account) => signedIn(entry, account, env)));
  return states.reduce<SignIn>((best, state) => (RANK[state] > RANK[best] ? state : best), "no");
}

async function signedIn(entry: AdapterDescriptor, account: string, env: Env): Promise<SignIn> {
  if (signInFailedRecently(entry.name, account, env)) return "no";
  const store = signInStore(entry);
  if (store === undefined) return "maybe";
  const inspection = await inspectStore(store, agentHome(entry.name, env, account));
  // A preflight store can only refuse: its CLI's own status command has the last word.
  if (entry.status.kind !== "stored") return inspection.state === "signed-out" ? "no" : "maybe";
  // An unreadable store is not offered: a fallback that fails the same way helps nobody.
  return inspection.state === "signed-in" ? "yes" : "no";
}

/** Notes how a turn in `account` of `agent` ended for later fallbacks: a refused sign-in marks that
 * account, a completed turn clears its mark. */
export function noteSignIn(agent: string, account: string, exitCode: number, env: Env): void {
  if (agent === "") return;
  if (exitCode === EXIT.auth) markSignInFailed(agent, account, env);
  else if (exitCode === EXIT.ok) clearSignInFailed(agent, account, env);
}
