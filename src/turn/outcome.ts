// How a turn's end reads: its exit code, and the one line that says what happened and what to do,
// classified from the parser's structured fields only.

import { existsSync } from "node:fs";
import { accountLabel } from "../accounts.js";
import { installHint } from "../agents/lookup.js";
import { formatDuration } from "../duration.js";
import { EXIT, type ExitCode, ScvError } from "../errors.js";
import type { ParsedTurn, TurnEvent } from "../parsers/event-types.js";
import type { ProcessExit } from "../process/run.js";
import type { TurnResult } from "../result.js";
import { STOPS, stopExitCode, stopOf } from "./stops.js";
import type { TurnPlan } from "./turn-types.js";

type RetryEvent = Extract<TurnEvent, { type: "retry" }>;

/** A result for a turn that never ran. */
export function failedResult(error: ScvError, agent: string | undefined, started = Date.now()): TurnResult {
  const [what, hint] = splitMessage(error.message);
  return {
    reply: "",
    status: Object.values(STOPS).some((stop) => stop.exitCode === error.exitCode) ? "cancelled" : "failed",
    agent: agent ?? "",
    conversation: null,
    session: null,
    usage: null,
    cost: null,
    duration: Math.max(0, Date.now() - started),
    exitCode: error.exitCode,
    error: what,
    hint: hint ?? null,
    fallbacks: [],
    notes: [],
    mode: null,
    badLines: 0,
  };
}

/** The one line a failed result prints on stderr: "what happened — what to do". */
export function failureLine(result: Pick<TurnResult, "error" | "hint">): string | undefined {
  if (result.error === null) return undefined;
  return result.hint === null ? result.error : `${result.error} — ${result.hint}`;
}

export function exitCodeOf(parsed: ParsedTurn, signal: AbortSignal | undefined): ExitCode {
  switch (parsed.status) {
    case "completed":
      return EXIT.ok;
    case "timeout":
      return EXIT.timeout;
    case "cancelled":
      return stopExitCode(signal);
    case "failed":
    case "declined":
      switch (parsed.failure?.kind) {
        case "auth":
          return EXIT.auth;
        case "rate-limit":
          return EXIT.rateLimited;
        case "lost-session":
          return EXIT.usage;
        default:
          return EXIT.agentFailed;
      }
    default:
      return EXIT.agentFailed;
  }
}

export function describeFailure(
  plan: TurnPlan,
  parsed: ParsedTurn,
  end: ProcessExit,
  stopReason?: unknown,
  retrying?: RetryEvent,
): [string | null, string | null] {
  const { entry } = plan;
  const name = entry.name;
  const why = firstLine(parsed.failure?.message);
  switch (parsed.status) {
    case "completed":
      return [null, null];
    case "timeout": {
      // A CLI that keeps retrying a connection never ends by itself: the limit is not the cause.
      if (retrying?.kind === "unreachable") {
        const limit = end.termination === "idle-timeout" ? plan.idleTimeoutMs : plan.timeoutMs;
        return [
          `${name} could not reach its endpoint in ${formatDuration(limit ?? 0)}, and scv ended it (${firstLine(retrying.message) ?? "no connection"})`,
          unreachableHint(plan),
        ];
      }
      const waiting = retrying === undefined ? "" : ` ${waitingOn(retrying)}`;
      const later = retrying === undefined ? "" : ", or try again later";
      return end.termination !== "idle-timeout"
        ? [
            `${name} timed out after ${formatDuration(plan.timeoutMs ?? 0)}${waiting}`,
            `raise --timeout (or [agents.${name}] timeout in scv's config)${later}`,
          ]
        : [
            `${name} printed nothing for ${formatDuration(plan.idleTimeoutMs ?? 0)}${waiting}`,
            `raise --idle-timeout (or [agents.${name}] idle_timeout in scv's config)${later}`,
          ];
    }
    case "cancelled":
      return [`${name} ${stopOf(stopReason).ended}`, null];
    case "declined":
      return [`${name} declined the turn${why ? `: ${why}` : ""}`, null];
    case "failed":
      switch (parsed.failure?.kind) {
        case "auth":
          return [`${name} failed to authenticate${why ? `: ${why}` : ""}`, signInHint(plan)];
        case "rate-limit":
          return [
            `${name} is rate limited${why ? `: ${why}` : ""}`,
            parsed.failure.resetsAt ? `retry after ${parsed.failure.resetsAt}` : "wait, then retry",
          ];
        case "billing":
          return [
            `${name} was refused for billing${why ? `: ${why}` : ""}`,
            "check the account's plan or credits",
          ];
        case "model":
          return [
            `${name} cannot use ${plan.model === undefined ? "its model" : `the model ${plan.model}`}${why ? `: ${why}` : ""}`,
            `pick one it can use: scv delegate ${name}:<model> …, or [agents.${name}] model in scv's config`,
          ];
        case "unreachable":
          return [`${name} could not reach its endpoint${why ? `: ${why}` : ""}`, unreachableHint(plan)];
        case "root-refused":
          return [
            `${name} refused its full-permission mode as root${why ? `: ${why}` : ""}`,
            rootRefusalHint(plan),
          ];
        case "lost-session":
          return lostSessionLine(plan);
        default:
          return [
            `${name} failed${why ? `: ${why}` : ""}`,
            `check it with: scv agents check ${accountLabel(name, plan.account)}`,
          ];
      }
    default:
      return [`${name} failed`, null];
  }
}

/** ACP's error code for a resource the server does not have (its `session/load` of a session it
 * lost). */
const RESOURCE_NOT_FOUND = -32002;

/** Whether a continued turn failed because the CLI no longer has the session it was asked for: its
 * error matches the row's `resume.lost`, or (`loadCode`, an ACP server's refused `session/load`) the
 * server answered resource-not-found. */
export function isLostSession(plan: TurnPlan, message: string, loadCode?: number): boolean {
  if (plan.session?.kind !== "continue") return false;
  if (loadCode === RESOURCE_NOT_FOUND) return true;
  const { resume } = plan.entry;
  return resume.kind === "supported" && resume.lost !== undefined && resume.lost.test(message);
}

/** The conversation that cannot be continued, and what went with the session. */
function lostSessionLine(plan: TurnPlan): [string, string] {
  const { entry } = plan;
  const turns = plan.record?.turns ?? 0;
  const earlier = turns === 1 ? "its one earlier turn" : `its ${turns} earlier turns`;
  return [
    `cannot continue ${plan.handle}: ${entry.product} no longer has its session ${plan.session?.id ?? ""}, and with it ${earlier}`,
    `start a new conversation: scv delegate ${entry.name} "…"`,
  ];
}

/** What a CLI was waiting for when its last word was a retry: `while waiting on a rate limit (429)`,
 * `while waiting to retry: overloaded (529)`. */
function waitingOn(retry: RetryEvent): string {
  if (retry.kind === "rate-limit")
    return `while waiting on a rate limit${retry.status === undefined ? "" : ` (${retry.status})`}`;
  return `while waiting to retry: ${firstLine(retry.message) ?? "an error"}`;
}

/** What to do about an endpoint the CLI cannot connect to. */
function unreachableHint(plan: TurnPlan): string {
  return `check this machine's network and proxy, and the endpoint ${plan.entry.name} is set to use`;
}

/** What to do about a full-permission mode refused to root: another user, the default policy, or —
 * where the row names the variable that declares a sandbox — that variable, set by the user. */
function rootRefusalHint(plan: TurnPlan): string {
  const { name, rootSandboxEnvironment: sandbox } = plan.entry;
  if (sandbox === undefined) return "run scv as a non-root user, or use --policy default";
  const [variable, value] = sandbox;
  return `run scv as a non-root user, use --policy default, or inside a container or VM set ${variable}=${value} for it (--env ${variable}=${value}, or [agents.${name}.env] in scv's config)`;
}

/** What to do about a refused sign-in: sign in again, unless the turn pointed the CLI at an endpoint
 * of the user's own — `base_url`, or the row's endpoint variable given in `[agents.<name>.env]` —
 * whose key is then the one refused. */
function signInHint(plan: TurnPlan): string {
  const name = plan.entry.name;
  if (plan.endpoint !== undefined)
    return `check the key in ${plan.endpoint.keyVariable} (api_key_env in [agents.${name}] of scv's config): ${plan.endpoint.url} refused it`;
  const own = plan.entry.endpoint;
  if (own.kind === "supported" && own.url.kind === "env" && plan.extraEnv[own.url.variable] !== undefined)
    return `check ${own.key} in [agents.${name}.env] of scv's config (or --env): with ${own.url.variable} set there, it is the key ${name} signs in with`;
  return `run: scv agents login ${accountLabel(name, plan.account)}`;
}

/** The longest failure text a result carries: an agent may print megabytes on one stderr line. */
const MAX_FAILURE_CHARS = 400;

/** The error's first line, for the one-line message; continued while a `[` it opened is still open
 * (lab: a CLI wraps a multi-line API error in brackets, its retry hint on the last line). */
function firstLine(message: string | undefined): string | undefined {
  const lines = (message ?? "")
    .split("\n")
    .map((each) => each.trim())
    .filter((each) => each !== "");
  let line = lines[0];
  if (line === undefined) return undefined;
  for (let next = 1; next < lines.length && opensBracket(line); next += 1) line = `${line} ${lines[next]}`;
  return line.length <= MAX_FAILURE_CHARS ? line : `${line.slice(0, MAX_FAILURE_CHARS - 1)}…`;
}

function opensBracket(text: string): boolean {
  return text.split("[").length > text.split("]").length;
}

export function spawnFailure(plan: TurnPlan, end: ProcessExit, started: number): TurnResult {
  const agent = plan.entry.name;
  if (end.spawnError?.code !== "ENOENT") {
    const reason = end.spawnError?.message ?? "unknown error";
    const error = new ScvError(
      "AGENT_FAILED",
      `could not start ${plan.executable}: ${reason} — check that it is executable`,
    );
    return failedResult(error, agent, started);
  }
  // ENOENT for a file that is there: what exec could not find is the interpreter its #! line names.
  const error = existsSync(plan.executable)
    ? new ScvError(
        "AGENT_FAILED",
        `could not start ${plan.executable}: the interpreter its first line (#!) names was not found — reinstall it, or fix that line`,
      )
    : new ScvError("AGENT_NOT_INSTALLED", `${plan.executable} vanished — ${installHint(plan.entry)}`);
  return failedResult(error, agent, started);
}

/** Splits "what happened — what to do" at its last dash. */
export function splitMessage(message: string): [string, string | undefined] {
  const at = message.lastIndexOf(" — ");
  return at === -1 ? [message, undefined] : [message.slice(0, at), message.slice(at + 3)];
}
