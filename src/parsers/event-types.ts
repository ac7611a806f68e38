// The normalized events every output-format parser produces, and the parser contract the process
// runner drives. A parser is a pure, line-at-a-time state machine: it never touches a process.

import type { ElisionPolicy } from "./elision.js";
import type { ReplyLinePolicy } from "./reply-lines.js";

/** Token usage of one turn (or a CLI's cumulative total, before `usage.ts` turns it into a share). */
export interface Usage {
  /** Input tokens not read from the cache (CLIs that count cache reads inside their input are
   * normalized to this), where the CLI tells them apart. */
  input?: number;
  /** Input tokens served from cache (reads). */
  cached?: number;
  /** Input tokens written to cache. */
  cacheWrite?: number;
  output?: number;
  reasoning?: number;
  /** Dollars, where the CLI gives a cost. */
  costUsd?: number;
}

/** What kind of failure a CLI reported, from structured fields and error-shaped lines only.
 * `unreachable`: the CLI could not connect to its model endpoint (refused, no route, DNS), as its own
 * retry or error event says. `lost-session`: the session a continued turn asked for is gone (set by
 * the turn from the row's `resume.lost` or a refused `session/load`, never by a parser). */
export type FailureKind =
  | "auth"
  | "rate-limit"
  | "billing"
  | "model"
  | "root-refused"
  | "unreachable"
  | "lost-session"
  | "other";

/** Why a turn failed: the kind, the CLI's own error line, and when a limit resets if the CLI said. */
export interface TurnFailure {
  readonly kind: FailureKind;
  readonly message: string;
  /** ISO 8601 when the CLI gave an instant; otherwise its own words (`Feb 7, 11am (Asia/Seoul)`). */
  readonly resetsAt?: string;
}

export type TurnEvent =
  /** The vendor session id, when first seen and whenever it changes (the last one counts). */
  | { type: "session"; sessionId: string }
  /** The permission mode the CLI says it runs in (`bypassPermissions`, `default`, …). */
  | { type: "mode"; mode: string }
  /** Assistant text: a whole block, or a delta when `delta` is true. */
  | { type: "text"; text: string; delta?: boolean }
  /** A tool started; `summary` is one redacted line (`$ cmd`, `edit path`, `search: q`). */
  | { type: "tool-start"; id: string; name: string; summary: string }
  | { type: "tool-end"; id: string; name: string; ok: boolean }
  /** The turn's usage so far, as the CLI reports it (each replaces the previous one). */
  | { type: "usage"; usage: Usage }
  /** The CLI will retry (a rate limit or a dropped connection); not terminal. `attempt` of
   * `maxAttempts` is the one that failed, `delayMs` the wait before the next, `status` the HTTP status
   * and `kind` what the failure was, where the CLI says. `kind: "auth"` only where the CLI retries a
   * credential the API refused, which no retry fixes (turn/early-verdict.ts ends such a turn). */
  | {
      type: "retry";
      message: string;
      attempt?: number;
      maxAttempts?: number;
      delayMs?: number;
      status?: number;
      kind?: FailureKind;
    }
  /** An error the CLI reported; `terminal` when it ends the turn. */
  | { type: "error"; message: string; kind: FailureKind; terminal: boolean; resetsAt?: string }
  /** The CLI's own terminal event; `declined` when the model refused (a refusal stop reason). */
  | { type: "turn-end"; ok: boolean; declined?: boolean };

/** How the process ended, as the runner saw it. */
export interface ProcessEnd {
  /** Exit code, or null when ended by a signal. */
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** The last few KB of stderr. */
  readonly stderrTail: string;
  /** Set when scv ended the process itself; the first reason wins. */
  readonly termination?: "timeout" | "idle-timeout" | "cancelled";
  /** scv had begun ending the process before any terminal event of the CLI arrived: what the CLI
   * reported afterwards answers scv's signal (Copilot reports a successful end on SIGTERM), not the
   * turn. Unset when that is not known. */
  readonly verdictAfterStop?: boolean;
  /** Codex's `-o` backstop file contents, when the format has one. */
  readonly lastMessage?: string;
}

export type TurnStatus = "completed" | "failed" | "declined" | "timeout" | "cancelled";

/** One quota window as a CLI reported it (Claude Code's `rate_limit_event`). */
export interface QuotaWindow {
  /** The CLI's name for it (`five_hour`, `seven_day`), or `unknown` when it named none. */
  readonly window: string;
  /** `allowed`, `allowed_warning`, `rejected`, as the CLI said. */
  readonly status: string;
  /** How much of it is used, 0 to 1, where the CLI said. */
  readonly utilization?: number;
  /** When it resets (UTC ISO 8601), where the CLI said. */
  readonly resetsAt?: string;
}

/** What a parser concludes once the process has ended. */
export interface ParsedTurn {
  readonly status: TurnStatus;
  readonly reply: string;
  readonly sessionId?: string;
  readonly mode?: string;
  /** As the CLI reported it; cumulative for some CLIs (see `cumulativeUsage`). */
  readonly usage?: Usage;
  /** Whether `usage` is a running total across resumed turns of the session. */
  readonly cumulativeUsage: boolean;
  /** A cumulative CLI's turn that ended before its report (stopped, killed): the usage of the model
   * calls its stream showed, which the CLI counts in its next report all the same. */
  readonly unreportedUsage?: Usage;
  /** Set when `status` is `failed`. */
  readonly failure?: TurnFailure;
  /** Lines that were not valid events (garbage, truncated, oversized). */
  readonly badLines: number;
  /** The quota windows the CLI reported during the turn, the last report of each. */
  readonly quota?: readonly QuotaWindow[];
}

export interface StreamParser {
  /** One stdout line, without its newline. Never throws. */
  push(line: string): TurnEvent[];
  /** The long string values this parser never reads, which the framer may cut to a prefix before
   * decoding a line (elision.ts); absent when it reads every value. */
  readonly elision?: ElisionPolicy;
  /** Which lines may carry the reply, and so are read past the line bound (reply-lines.ts); absent
   * when no line may. */
  readonly replyLines?: ReplyLinePolicy;
  /** One stderr line, for the formats whose CLI says something only there (Gemini CLI's retry
   * notices); absent when stderr carries no events. Never throws. */
  stderr?(line: string): TurnEvent[];
  /** Counts a line the framer dropped (over the size limit). */
  skipped(): void;
  /** The turn's conclusion once the process has ended. */
  finish(end: ProcessEnd): ParsedTurn;
}
