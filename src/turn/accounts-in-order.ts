// A turn whose target names accounts (`<agent>@work,personal`, or `[agents.<agent>] accounts`): each
// account is tried in order, each attempt a fresh turn in that account's own home — a conversation
// and its session belong to one account, so nothing is carried over. An account that ends rate
// limited (exit 5) is cooled down until the reset its CLI reported (home/cooldowns.ts) and the next
// one is tried; one whose sign-in is missing or refused (exit 4) is passed over and named. Any other
// outcome is the answer. When every account is cooling, the turn fails with exit 5 and the earliest
// reset, or with `--wait-for-reset` waits for it when it is near enough and tries again.

import { accountLabel, DEFAULT_ACCOUNT, requireAccountName } from "../accounts.js";
import { adapter, unreachable } from "../adapters.js";
import { formatDuration, sleep } from "../duration.js";
import { EXIT, ScvError } from "../errors.js";
import type { Config } from "../home/config.js";
import { activeCooldown, coolDown, resetInstant } from "../home/cooldowns.js";
import type { SkippedAccount, TurnResult } from "../result.js";
import { isoTimestamp } from "../timestamp.js";
import { timing } from "../timing.js";
import { failedResult } from "./outcome.js";
import { interrupted } from "./stops.js";
import type { TurnContext, TurnRequest } from "./turn-types.js";

/** The accounts a first turn goes through, or undefined for a turn of one account chosen as before
 * (a plain agent name, or a continued conversation). A plain agent name is its default account's
 * ladder where that account cools after a limit (its cooldown holds, as any account's) or
 * `--wait-for-reset` asks to wait for one. */
export function accountLadder(
  request: TurnRequest,
  config: Config,
  context: Pick<TurnContext, "env" | "now">,
): readonly string[] | undefined {
  if (request.continue !== undefined) {
    if ((request.accounts?.length ?? 0) > 1) {
      throw new ScvError(
        "USAGE",
        "a conversation belongs to the one account its session is in — continue it without accounts, or start a new turn with agent@account,…",
      );
    }
    return undefined;
  }
  // One account asked for by name (`scv agents check <agent>@work`) is that account alone.
  if (request.agent === undefined || request.account !== undefined) return undefined;
  const entry = adapter(request.agent);
  // An unknown agent is refused as such by the one attempt that plans it.
  if (entry === undefined) return undefined;
  const ladder = request.accounts ?? config.agents?.[entry.name]?.accounts;
  for (const account of ladder ?? []) requireAccountName(account);
  if (ladder !== undefined) return ladder;
  const now = context.now?.().getTime() ?? Date.now();
  const cooling = activeCooldown(entry.name, DEFAULT_ACCOUNT, context.env, now) !== undefined;
  return cooling || request.waitForResetMs !== undefined ? [DEFAULT_ACCOUNT] : undefined;
}

/** Runs `attempt` on each account of `ladder` in turn, as the header says. */
export async function runOnAccounts(
  request: TurnRequest,
  ladder: readonly string[],
  context: TurnContext,
  attempt: (request: TurnRequest) => Promise<TurnResult>,
): Promise<TurnResult> {
  const agent = request.agent ?? "";
  const now = () => context.now?.().getTime() ?? Date.now();
  const started = now();
  // What each passed-over attempt noted (a cooldown not kept, a weaker source), kept for the answer.
  const carried: string[] = [];
  for (;;) {
    const skipped: SkippedAccount[] = [];
    let last: TurnResult | undefined;
    for (const account of ladder) {
      const cooling = activeCooldown(agent, account, context.env, now());
      if (cooling !== undefined) {
        skipped.push({ account, reason: "cooling", until: cooling.until, error: cooling.reason });
        continue;
      }
      const result = await attempt({ ...request, account, accounts: undefined });
      last = result;
      if (result.exitCode === EXIT.rateLimited) {
        const until = resetInstant(result.resetsAt, now());
        const reason = result.error ?? "rate limited";
        noteCooldown(agent, account, { until, reason }, context, result);
        skipped.push({ account, reason: "rate-limited", until, error: reason });
      } else if (result.exitCode === EXIT.auth) {
        skipped.push({ account, reason: "signed-out", error: result.error ?? "not signed in" });
      } else {
        return {
          ...result,
          account,
          skipped,
          notes: [...skipNotes(agent, skipped, carried), ...result.notes],
        };
      }
      carried.push(...result.notes.map((note) => `${accountLabel(agent, account)}: ${note}`));
      const next = ladder[ladder.indexOf(account) + 1];
      if (next !== undefined)
        context.onNotice?.(
          `${accountLabel(agent, account)} ${skipText(skipped.at(-1))} — trying ${accountLabel(agent, next)}`,
        );
    }
    const earliest = earliestReset(skipped);
    if (earliest === undefined) {
      // No account can answer until the user signs one in: the last refusal says how.
      const refused =
        last ??
        failedResult(new ScvError("NOT_SIGNED_IN", `no account of ${agent} is signed in`), agent, started);
      return {
        ...refused,
        account: skipped.at(-1)?.account ?? DEFAULT_ACCOUNT,
        skipped,
        notes: skipNotes(agent, skipped, carried),
      };
    }
    // A reset the CLI placed in the past would have the ladder ask again at once, and again.
    const waitMs = Math.max(timing("resetWaitMin"), Date.parse(earliest) - now());
    const bound = request.waitForResetMs;
    if (bound === undefined || waitMs > bound - (now() - started))
      return allLimited({
        agent,
        skipped,
        earliest,
        notes: skipNotes(agent, skipped, carried),
        started,
        bound,
      });
    const who = ladder.length === 1 ? accountLabel(agent, ladder[0]) : `every account of ${agent}`;
    const limit = skipped.find((skip) => skip.until === earliest);
    context.onWaiting?.({
      kind: "cooling",
      agent,
      who,
      account: limit?.account ?? DEFAULT_ACCOUNT,
      until: earliest,
      reason: limit?.error ?? "rate limited",
    });
    await waitForReset(who, agent, earliest, waitMs, context);
  }
}

/** One note per account passed over, saying why, then what those attempts noted: the result keeps
 * them after the progress lines are gone (a background job, an MCP reply, a fan-out section). */
function skipNotes(agent: string, skipped: readonly SkippedAccount[], carried: readonly string[]): string[] {
  return [
    ...skipped.map((skip) => `${accountLabel(agent, skip.account)} skipped: ${skipReason(skip)}`),
    ...carried,
  ];
}

/** `rate limited until … (the CLI's line)`, `cooling until … (…)`, `not signed in (…)`. */
function skipReason(skip: SkippedAccount): string {
  const said = skip.error === undefined ? "" : ` (${skip.error})`;
  switch (skip.reason) {
    case "cooling":
      return `cooling until ${skip.until ?? "later"}${said}`;
    case "rate-limited":
      return `rate limited until ${skip.until ?? "later"}${said}`;
    case "signed-out":
      return `not signed in${said}`;
    default:
      return unreachable(skip.reason);
  }
}

function skipText(skip: SkippedAccount | undefined): string {
  if (skip?.reason === "signed-out") return `is not signed in (${skip.error})`;
  return `is rate limited until ${skip?.until ?? "later"}`;
}

/** Saves the cooldown; one that cannot be saved costs only a wasted try next time, and is a note. */
function noteCooldown(
  agent: string,
  account: string,
  cooldown: { until: string; reason: string },
  context: TurnContext,
  result: TurnResult,
): void {
  try {
    coolDown(agent, account, cooldown, context.env);
  } catch (error) {
    if (!(error instanceof ScvError)) throw error;
    result.notes.push(`${accountLabel(agent, account)}'s cooldown is not kept: ${error.message}`);
  }
}

function earliestReset(skipped: readonly SkippedAccount[]): string | undefined {
  const times = skipped.flatMap((skip) => (skip.until === undefined ? [] : [Date.parse(skip.until)]));
  return times.length === 0 ? undefined : isoTimestamp(new Date(Math.min(...times)));
}

/** Exit 5: every account limited; the earliest reset says when to come back. */
function allLimited({
  agent,
  skipped,
  earliest,
  notes,
  started,
  bound,
}: {
  readonly agent: string;
  readonly skipped: readonly SkippedAccount[];
  /** The earliest reset among them. */
  readonly earliest: string;
  readonly notes: string[];
  readonly started: number;
  /** `--wait-for-reset`, when given. */
  readonly bound: number | undefined;
}): TurnResult {
  const names = skipped.map(
    (skip) => `${skip.account} ${skip.reason}${skip.until === undefined ? "" : ` until ${skip.until}`}`,
  );
  const beyond =
    bound === undefined
      ? "or pass --wait-for-reset <max>"
      : `beyond --wait-for-reset ${formatDuration(bound)}`;
  const [only] = skipped;
  const what =
    skipped.length === 1 && only !== undefined
      ? `${accountLabel(agent, only.account)} is rate limited (${only.reason === "cooling" ? "cooling" : "limited"} until ${earliest}${only.error === undefined ? "" : `: ${only.error}`})`
      : `every account of ${agent} is rate limited (${names.join("; ")})`;
  const error = new ScvError("RATE_LIMITED", `${what} — retry after ${earliest}, ${beyond}`);
  const base = failedResult(error, agent, started);
  return {
    ...base,
    notes,
    account: skipped.at(-1)?.account ?? DEFAULT_ACCOUNT,
    skipped: [...skipped],
    resetsAt: earliest,
  };
}

/** `who`: `every account of <agent>`, or the one account (`<agent>`, `<agent>@work`). */
async function waitForReset(
  who: string,
  agent: string,
  until: string,
  waitMs: number,
  context: TurnContext,
): Promise<void> {
  const { signal } = context;
  const deadline = Date.now() + Math.max(0, waitMs);
  context.onNotice?.(
    `${who} is rate limited — waiting ${formatDuration(Math.max(waitMs, 0))} for the reset at ${until}`,
  );
  while (Date.now() < deadline) {
    if (signal?.aborted) throw interrupted(signal, "interrupted while waiting for a rate limit's reset");
    const step = Math.min(deadline - Date.now(), timing("resetProgressInterval"));
    await sleep(step, signal);
    const left = deadline - Date.now();
    if (left > 0) context.onNotice?.(`still waiting for ${agent}'s reset: ${formatDuration(left)} left`);
  }
  if (signal?.aborted) throw interrupted(signal, "interrupted while waiting for a rate limit's reset");
}
