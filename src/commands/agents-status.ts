// `scv agents status [<agent>]` and `scv agents check <agent>`: whether each agent is signed in inside
// its private home, and how scv knows (src/agents/sign-in.ts finds out; this prints it), or one tiny
// real turn when nothing short of a real call can tell.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { accountLabel, DEFAULT_ACCOUNT, parseAccountTarget } from "../accounts.js";
import { type AdapterDescriptor, allAdapters, unreachable } from "../adapters.js";
import { installHint, requireAgent } from "../agents/lookup.js";
import { type StatusRow, statusRow } from "../agents/sign-in.js";
import { durationOption, formatDuration } from "../duration.js";
import { EXIT } from "../errors.js";
import { namedAccounts } from "../home/account-homes.js";
import { loadConfig } from "../home/config.js";
import { removeConversation } from "../home/conversations.js";
import type { SignInState } from "../home/keystore.js";
import { quotaText } from "../home/quota.js";
import type { CliIo } from "../io.js";
import { type CheckJson, statusRowJson } from "../json-shapes.js";
import { handleSignals } from "../process/lifecycle.js";
import { failureLine } from "../turn/outcome.js";
import { renderTable } from "./table.js";

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
