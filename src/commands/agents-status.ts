// `scv agents status [<agent>]` and `scv agents check <agent>`: whether each agent is signed in inside
// its private home, and how scv knows — the CLI's own status command (bounded in time, its output
// condensed by `summarizeStatus` and never shown: it names accounts and key fragments), an
// inspection of its key store, or nothing checkable short of a real call.

import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { accountLabel, DEFAULT_ACCOUNT, parseAccountTarget } from "../accounts.js";
import { type AdapterDescriptor, allAdapters, type StatusSummary, unreachable } from "../adapters.js";
import { agentVersion } from "../agent-version.js";
import { installHint, locateAgent, requireAgent } from "../agents.js";
import type { CliIo } from "../cli/io.js";
import { type AgentConfig, agentSettings, type Config, loadConfig } from "../config.js";
import { durationOption, formatDuration } from "../duration.js";
import { EXIT } from "../errors.js";
import { namedAccounts } from "../home/account-homes.js";
import { removeConversation } from "../home/conversations.js";
import { activeCooldown } from "../home/cooldowns.js";
import { inspectStore, type SignInState } from "../home/keystore.js";
import { parseJsonObject } from "../home/keystores/files.js";
import { agentHome } from "../home/paths.js";
import { lastQuota, type QuotaSnapshot, quotaText } from "../home/quota.js";
import { type CheckJson, statusRowJson } from "../json-shapes.js";
import { runBounded } from "../process/helpers.js";
import { handleSignals } from "../process/lifecycle.js";
import { timing } from "../timing.js";
import { agentEnvironment } from "../transport/env.js";
import { failureLine } from "../turn/outcome.js";
import { apiKeyStoreOf } from "./own-sign-in.js";
import { renderTable } from "./table.js";

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
  const [version, signIn] = await Promise.all([
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
    detail: signIn.detail,
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

const STATE_LABEL: Record<SignInState, string> = { "signed-in": "yes", "signed-out": "no", unknown: "?" };

/** How scv learned the state, for the table. */
function sourceLabel(entry: AdapterDescriptor): string {
  const status = entry.status;
  switch (status.kind) {
    case "command":
      return `\`${[entry.command, ...status.args].join(" ")}\``;
    case "stored":
      return "its key store";
    case "unchecked":
      return "-";
    default:
      return unreachable(status);
  }
}

/** The accounts a status asks about: every agent's, one agent's (default first, then each named one
 * with a home), or the one account a target names (`<agent>@work`). */
function accountsOf(
  entry: AdapterDescriptor,
  env: NodeJS.ProcessEnv,
): { entry: AdapterDescriptor; account: string }[] {
  return [DEFAULT_ACCOUNT, ...namedAccounts(entry.name, env)].map((account) => ({ entry, account }));
}

/** Exit 0; for the one agent asked about, 3 when its CLI is not installed (one line on stderr says how
 * to install it), else 4 when its default account (or the account named) is not signed in:
 * `scv agents status <agent> && scv delegate <agent> …` goes on only when the turn can run.
 *
 * `--json` keeps one shape per form of the argument, whatever accounts exist: no agent → an array
 * of every account's row; `<agent>@work` → that row; `<agent>` → the default account's row with
 * `accounts`, every account's row (default first), so a script reading `.state` is not broken by
 * a second account appearing. */
export async function agentsStatusCommand(
  io: CliIo,
  agent: string | undefined,
  options: { json?: boolean },
): Promise<number> {
  const target = agent === undefined ? undefined : parseAccountTarget(agent);
  const named = agent?.includes("@") === true;
  // Every agent's default account, and every named account that has a home.
  const accounts: { entry: AdapterDescriptor; account: string }[] =
    target === undefined
      ? allAdapters().flatMap((entry) => accountsOf(entry, io.env))
      : named
        ? [{ entry: requireAgent(target.agent), account: target.account }]
        : accountsOf(requireAgent(target.agent), io.env);
  const { config } = loadConfig(io.env);
  const checked = await Promise.all(
    accounts.map(async ({ entry, account }) => ({
      entry,
      row: await statusRow(entry, config, io.env, account),
    })),
  );
  const rows = checked.map(({ row }) => row);
  if (options.json) {
    const shown = rows.map(statusRowJson);
    const json = agent === undefined ? shown : named ? shown[0] : { ...shown[0], accounts: shown };
    io.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
  } else {
    io.stdout.write(
      renderTable(
        ["AGENT", "INSTALLED", "VERSION", "SIGNED IN", "HOW SCV KNOWS", "DETAIL"],
        checked.map(({ entry, row }) => [
          accountLabel(row.agent, row.account),
          row.path ?? "not installed",
          row.version ?? "-",
          STATE_LABEL[row.state],
          row.source === "stored"
            ? "its key store"
            : row.source === "endpoint"
              ? "base_url in scv's config"
              : sourceLabel(entry),
          detailText(row),
        ]),
      ),
    );
  }
  const asked = agent === undefined ? undefined : checked[0];
  if (asked?.row.installed === false) {
    io.stderr.write(
      `scv: ${asked.row.product} is not installed — ${installHint(asked.entry, config.agents?.[asked.row.agent]?.command)}\n`,
    );
    return EXIT.notInstalled;
  }
  return asked?.row.state === "signed-out" ? EXIT.auth : EXIT.ok;
}

/** The table's DETAIL: what was found, then the cooldown and the last quota report, where known. */
function detailText(row: StatusRow): string {
  return [
    row.detail,
    ...(row.coolingUntil === null ? [] : [`cooling until ${row.coolingUntil}`]),
    ...(row.quota === null ? [] : [quotaText(row.quota)]),
  ].join("; ");
}

/** A turn as small as a real call gets: no tools needed, one word back. */
const CHECK_PROMPT = "Reply with the single word OK.";
/** A first turn of some CLIs starts slowly (one unpacks itself, another installs a plugin). */
const CHECK_TIMEOUT_MS = 180_000;

export interface CheckResult {
  readonly agent: string;
  /** The account checked (`default`: the agent's plain home). */
  readonly account: string;
  readonly state: SignInState;
  /** "a real turn answered in 3.1s", or the classified failure as one line. */
  readonly detail: string;
  readonly exitCode: number;
  readonly duration: number;
}

/** `scv agents check <agent>`: one tiny real turn, under policy `default`, in an empty scratch folder,
 * so the agent cannot touch a project. Its reply is not shown and the turn is not kept as a
 * conversation. Exits as the turn did: 0 signed in, 4 not signed in, 5 rate limited, … */
export async function agentsCheckCommand(
  io: CliIo,
  agent: string,
  options: { json?: boolean; timeout?: string },
): Promise<number> {
  const target = parseAccountTarget(agent);
  const entry = requireAgent(target.agent);
  const timeoutMs =
    durationOption("--timeout", options.timeout, { byDefault: formatDuration(CHECK_TIMEOUT_MS) }) ??
    CHECK_TIMEOUT_MS;
  const { config } = loadConfig(io.env);
  // Loaded only here: the turn runner and its parsers are not needed by `agents status`.
  const { runTurn } = await import("../turn/run-turn.js");
  const scratch = mkdtempSync(join(tmpdir(), "scv-check-"));
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => controller.abort(signal);
  const handled = handleSignals(["SIGINT", "SIGTERM"], onSignal);
  let result: Awaited<ReturnType<typeof runTurn>>;
  try {
    result = await runTurn(
      { agent: entry.name, account: target.account, prompt: CHECK_PROMPT, policy: "default", timeoutMs },
      { env: io.env, cwd: scratch, config, signal: controller.signal },
    );
  } finally {
    handled();
    rmSync(scratch, { recursive: true, force: true });
  }
  if (result.conversation !== null) removeConversation(result.conversation, io.env);
  const seconds = `${(result.duration / 1000).toFixed(1)}s`;
  // A failure the turn could only say "check it with: scv agents check …" about is said as it is.
  const label = accountLabel(entry.name, target.account);
  const failure = result.hint?.includes(`scv agents check ${label}`) ? result.error : failureLine(result);
  const check: CheckResult & CheckJson = {
    agent: entry.name,
    account: target.account,
    state: checkState(result.exitCode),
    detail: result.exitCode === EXIT.ok ? `a real turn answered in ${seconds}` : (failure ?? "failed"),
    exitCode: result.exitCode,
    duration: result.duration,
  };
  if (options.json) io.stdout.write(`${JSON.stringify(check, null, 2)}\n`);
  else io.stdout.write(`${label}: ${STATE_WORDS[check.state]} — ${check.detail}\n`);
  return check.exitCode;
}

const STATE_WORDS: Record<SignInState, string> = {
  "signed-in": "signed in",
  "signed-out": "not signed in",
  unknown: "sign-in unknown",
};

/** A turn that answered, or was rate limited (its credentials were accepted), is signed in. */
function checkState(exitCode: number): SignInState {
  if (exitCode === EXIT.ok || exitCode === EXIT.rateLimited) return "signed-in";
  if (exitCode === EXIT.auth) return "signed-out";
  return "unknown";
}
