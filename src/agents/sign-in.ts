// What scv knows of an agent's sign-in in one of its homes, for `scv agents status` and the MCP
// server's status tool alike: the CLI's own status command (bounded in time, its output condensed
// by `summarizeStatus` and never shown: it names accounts and key fragments), an inspection of its
// key store, the key of an endpoint in scv's config, or nothing checkable short of a real call.

import { existsSync } from "node:fs";
import { accountLabel, DEFAULT_ACCOUNT } from "../accounts.js";
import { type AdapterDescriptor, type StatusSummary, unreachable } from "../adapters.js";
import { type AgentConfig, agentSettings, type Config } from "../home/config.js";
import { activeCooldown } from "../home/cooldowns.js";
import { inspectStore, type SignInState } from "../home/keystore.js";
import { parseJsonObject } from "../home/keystores/files.js";
import { agentHome } from "../home/paths.js";
import { lastQuota, type QuotaSnapshot } from "../home/quota.js";
import { runBounded } from "../process/helpers.js";
import { timing } from "../timing.js";
import { agentEnvironment } from "../transport/env.js";
import { locateAgent } from "./lookup.js";
import { nodeShortfall } from "./node-floor.js";
import { apiKeyStoreOf } from "./stored-key.js";
import { agentVersion } from "./version.js";

export interface StatusRow {
  readonly agent: string;
  /** The account whose home this row is about (`default`: the agent's plain home). */
  readonly account: string;
  readonly product: string;
  readonly installed: boolean;
  readonly path: string | null;
  readonly version: string | null;
  readonly state: SignInState;
  /** What was found, never a secret: "signed in (API key)", "API key file present, …". */
  readonly detail: string;
  /** How scv knows: the status kind of the agent's row. */
  /** `endpoint`: the agent signs in with the key of its `base_url` in scv's config. */
  readonly source: "command" | "stored" | "unchecked" | "endpoint";
  /** The quota windows the CLI last reported for this account; null where it reported none. */
  readonly quota: QuotaSnapshot | null;
  /** Until when a ladder skips this account after its limit (UTC ISO 8601); null when it is not
   * cooling down. */
  readonly coolingUntil: string | null;
}

/** The isolated environment of a delegated turn, for the agent's own helper commands. */
export function helperEnvironment(
  entry: AdapterDescriptor,
  config: Config,
  env: NodeJS.ProcessEnv,
  account: string = DEFAULT_ACCOUNT,
): Record<string, string> {
  return agentEnvironment({
    parent: env,
    entry,
    home: agentHome(entry.name, env, account),
    policy: "default",
    extra: agentSettings(config, entry.name).env,
    isolation: config.isolation,
  });
}

/** One line describing a CLI's own status result without echoing it: the raw output names the
 * signed-in account or part of a key. */
export function summarizeStatus(summary: StatusSummary, succeeded: boolean, output: string): string {
  const signedOut = "not signed in";
  const signedIn = (means: string | undefined) =>
    means === undefined ? "signed in" : `signed in (${means})`;
  switch (summary.kind) {
    case "words": {
      const lower = output.toLowerCase();
      if (!succeeded || summary.signedOut.some((word) => lower.includes(word.toLowerCase())))
        return signedOut;
      return signedIn(summary.says.find(({ word }) => lower.includes(word.toLowerCase()))?.means);
    }
    case "json": {
      const state = parseJsonObject(output);
      if (!succeeded || state?.[summary.signedIn] !== true) return signedOut;
      return signedIn(summary.methods.find(({ value }) => value === state[summary.method])?.means);
    }
    case "exit-status":
      return succeeded ? "signed in" : signedOut;
    default:
      return unreachable(summary);
  }
}

/** The sign-in part of a status row. */
export async function signInState(
  entry: AdapterDescriptor,
  path: string | undefined,
  config: Config,
  env: NodeJS.ProcessEnv,
  account: string = DEFAULT_ACCOUNT,
): Promise<{ state: SignInState; detail: string }> {
  const home = agentHome(entry.name, env, account);
  const status = entry.status;
  switch (status.kind) {
    case "command": {
      if (path === undefined) return { state: "unknown", detail: "not installed" };
      // Nothing to ask a CLI about a home scv never made; some refuse a missing home folder outright.
      if (!existsSync(home)) return { state: "signed-out", detail: "not signed in (no agent home yet)" };
      const command = [entry.command, ...status.args].join(" ");
      const result = await runBounded(path, status.args, {
        env: helperEnvironment(entry, config, env, account),
        cwd: home,
        timeoutMs: timing("statusLimit"),
      });
      if (result.spawnError !== undefined) {
        return { state: "unknown", detail: `\`${command}\` could not be started` };
      }
      if (result.timedOut) {
        return {
          state: "unknown",
          detail: `\`${command}\` did not answer within ${timing("statusLimit") / 1000}s`,
        };
      }
      const summary = summarizeStatus(
        status.summary,
        result.code === 0,
        `${result.stdout}\n${result.stderr}`,
      );
      return { state: summary.startsWith("signed in") ? "signed-in" : "signed-out", detail: summary };
    }
    case "stored":
      return inspectStore(status.store, home);
    case "unchecked": {
      // The CLI cannot be asked, but a key `login --with-api-key` wrote in scv's store of it is a
      // sign-in all the same (a dotenv file, a settings file's `env` block).
      const byKey = await storedKey(entry, home);
      if (byKey !== undefined) return byKey;
      return {
        state: "unknown",
        detail:
          path === undefined
            ? "not installed"
            : `installed; sign-in not checkable — \`scv agents check ${accountLabel(entry.name, account)}\` tries a real call`,
      };
    }
    default:
      return unreachable(status);
  }
}

/** Signed in by key, when the row's `--with-api-key` store holds one; otherwise nothing is known. */
async function storedKey(
  entry: AdapterDescriptor,
  home: string,
): Promise<{ state: SignInState; detail: string } | undefined> {
  const store = apiKeyStoreOf(entry.login);
  if (store === undefined || !existsSync(home)) return undefined;
  const inspection = await inspectStore(store, home);
  return inspection.state === "signed-in"
    ? { state: "signed-in", detail: `signed in by key: ${inspection.detail}` }
    : undefined;
}

export async function statusRow(
  entry: AdapterDescriptor,
  config: Config,
  env: NodeJS.ProcessEnv,
  account: string = DEFAULT_ACCOUNT,
): Promise<StatusRow> {
  const path = locateAgent(entry, config, env);
  const endpoint = endpointSignIn(agentSettings(config, entry.name), env);
  const [version, signIn, shortfall] = await Promise.all([
    path === undefined
      ? null
      : agentVersion({
          entry,
          executable: path,
          env,
          extra: agentSettings(config, entry.name).env,
          isolation: config.isolation,
        }),
    endpoint ?? signInState(entry, path, config, env, account),
    path === undefined ? undefined : nodeShortfall(entry, env),
  ]);
  const quota = lastQuota(entry.name, account, env);
  const cooling = activeCooldown(entry.name, account, env);
  return {
    agent: entry.name,
    account,
    product: entry.product,
    installed: path !== undefined,
    path: path ?? null,
    version,
    state: signIn.state,
    detail: shortfall === undefined ? signIn.detail : `${signIn.detail}; ${shortfall}`,
    // An unchecked row signed in by its key store was known by that store.
    source:
      endpoint !== undefined
        ? "endpoint"
        : entry.status.kind === "unchecked" && signIn.state === "signed-in"
          ? "stored"
          : entry.status.kind,
    quota: quota ?? null,
    coolingUntil: cooling?.until ?? null,
  };
}

/** An agent pointed at an endpoint of the user's own signs in with its key, whatever its own sign-in
 * says: signed in while the variable holding the key is set (never showing it). */
function endpointSignIn(
  settings: AgentConfig,
  env: NodeJS.ProcessEnv,
): { state: SignInState; detail: string } | undefined {
  const { base_url: url, api_key_env: variable } = settings;
  if (url === undefined || variable === undefined) return undefined;
  return (env[variable] ?? "") === ""
    ? { state: "signed-out", detail: `base_url ${url}: its key's variable ${variable} is not set` }
    : { state: "signed-in", detail: `base_url ${url}, with the key in ${variable}` };
}
