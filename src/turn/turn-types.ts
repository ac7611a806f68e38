// The three shapes one turn passes through: what a caller asks for (`TurnRequest`), what it runs with
// (`TurnContext`), and what planning decided before anything is written or spawned (`TurnPlan`).

import type { AdapterDescriptor, OutputFormatKind, TransportKind } from "../adapters.js";
import type { Config } from "../home/config.js";
import type { ConversationRecord } from "../home/conversations.js";
import type { StoreInspection } from "../home/keystore.js";
import type { Env } from "../home/paths.js";
import type { Worktree } from "../home/worktree-record.js";
import type { StreamParser, TurnEvent } from "../parsers/event-types.js";
import type { SessionArg } from "../transport/argv.js";
import type { Policy } from "../transport/env.js";
import type { NamedMcpServer } from "./mcp-servers.js";
import type { TurnEndpoint } from "./turn-endpoint.js";

/** A permission an ACP agent asks for, as scv shows it. */
export interface PermissionQuestion {
  readonly agent: string;
  /** The tool, as the events name it (`shell`, `edit`, …). */
  readonly tool: string;
  /** What it would do, one redacted line. */
  readonly summary: string;
  /** Which answers the agent offers. */
  readonly offers: { readonly once: boolean; readonly always: boolean };
}

/** The answer; `unanswered` when the turn stopped waiting before one came (it was stopped, or its time
 * ran out): refused like `reject`, and said so. */
export type PermissionAnswer = "once" | "always" | "reject" | "unanswered";

/** What a person may want to know of, or act on, while a turn runs (notifications, `scv ps`): its
 * agent asks a permission (told as the question is put), or its accounts are rate limited and it
 * waits for the earliest reset (turn/accounts-in-order.ts, `--wait-for-reset`). */
export type TurnWaiting =
  | {
      readonly kind: "approval";
      readonly job: string;
      readonly handle: string;
      readonly account: string;
      readonly question: PermissionQuestion;
    }
  | {
      readonly kind: "cooling";
      readonly agent: string;
      /** What is limited, as the wait's lines say it: `<agent>@work`, `every account of <agent>`. */
      readonly who: string;
      /** The account whose limit resets first. */
      readonly account: string;
      /** When the earliest account's limit resets (UTC ISO 8601). */
      readonly until: string;
      readonly reason: string;
    };

export interface TurnRequest {
  /** The agent of a first turn; with `continue`, it must be the conversation's agent if given. */
  readonly agent?: string;
  /** The handle of the conversation to continue. */
  readonly continue?: string;
  readonly prompt: string;
  readonly model?: string;
  readonly effort?: string;
  readonly policy?: Policy;
  /** `--transport`: the conversation's, else the config's, else the row's default when absent. */
  readonly transport?: TransportKind;
  /** The project folder, relative to the context's cwd. */
  readonly cwd?: string;
  readonly timeoutMs?: number;
  readonly idleTimeoutMs?: number;
  /** Extra variables for the agent (`--env`), set after isolation like the config's. */
  readonly env?: Readonly<Record<string, string>>;
  /** `--mcp`: the names of `[mcp_servers]` the agent gets this turn (none: the agent's `mcp` in the
   * config, else no server). */
  readonly mcp?: readonly string[];
  /** False for a turn that leaves no conversation record (a sign-in check's probe). */
  readonly record?: boolean;
  /** The account whose home the turn runs in (default: the agent's plain home); a continued turn
   * runs in its conversation's. */
  readonly account?: string;
  /** The accounts to try in order when one is rate limited (turn/accounts-in-order.ts); `account` is ignored
   * when this is given. */
  readonly accounts?: readonly string[];
  /** With `accounts`: how long to wait for the earliest reset when every account is cooling. */
  readonly waitForResetMs?: number;
  /** The handle of a first turn, chosen by the caller (a background turn's launcher prints it
   * before the turn runs); ignored when continuing. */
  readonly handle?: string;
  /** A reviewer's turn (src/review/): under policy `default`, with its row's read-only arguments
   * where the policy's full-permission ones would go and its structured-output option holding the
   * reply to the findings' schema; over the CLI's own command line where its row has one. */
  readonly review?: boolean;
  /** The git worktree a first turn runs in, made for its handle before it runs (turn/worktree.ts
   * `prepareWorktrees`); `cwd` is then a folder of it. A continued turn runs in its conversation's. */
  readonly worktree?: Worktree;
  /** `--check`: a command run in the worktree after the turn; "" for none over the config's `check`. */
  readonly check?: string;
  /** `--check-timeout`. */
  readonly checkTimeoutMs?: number;
}

export interface TurnContext {
  /** scv's own environment: SCV_HOME, PATH and HOME are read from it, and the agent's environment is
   * made from it. */
  readonly env: Env;
  /** scv's working directory. */
  readonly cwd: string;
  readonly config: Config;
  /** Aborting ends the turn's process group; `signal.reason` says how the turn ends (`STOPS`: "SIGTERM"
   * exits 143, "SIGHUP" 129, anything unknown 130). */
  readonly signal?: AbortSignal;
  /** Every normalized event, as the parser produces it (and a `mode` event for a mode read outside
   * the stream), with the turn it belongs to. */
  readonly onEvent?: (event: TurnEvent, turn: TurnPlan) => void;
  /** How long a continued turn waits for another turn of its conversation. */
  readonly lockWaitMs?: number;
  /** Between SIGTERM and SIGKILL when scv ends the process group. */
  readonly graceMs?: number;
  /** Between the CLI's end-of-turn event and scv ending a CLI still running (the `endGrace`
   * duration, src/timing.ts); tests shorten it. */
  readonly endGraceMs?: number;
  readonly now?: () => Date;
  /** Waits `ms` or until `signal` aborts; defaults to a timer (tests advance their own clock). */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The parser of an output format; defaults to the format's own (tests inject one). */
  readonly parserFor?: (format: OutputFormatKind) => StreamParser;
  /** Tells whether an agent is signed in before it is spawned; defaults to its key store. */
  readonly signInCheck?: (entry: AdapterDescriptor, home: string) => Promise<StoreInspection | undefined>;
  /** Answers an ACP agent's permission request under `--policy default` (a terminal's question, or
   * the caller of an `scv mcp` job: jobs/approval.ts); without it every request is rejected, and the
   * result says so. `signal` aborts when the turn stops waiting for the answer. */
  readonly askPermission?: (ask: PermissionQuestion, signal?: AbortSignal) => Promise<PermissionAnswer>;
  /** Set for a background turn: its job (chosen by its launcher, and its tag), `onStarted` called
   * once its agent runs; its running record is left for the background runner to replace with the
   * result (turn/track.ts). */
  readonly background?: { readonly job?: string; readonly onStarted: () => void };
  /** A line for the user about the turn's accounts (moving on, waiting for a reset), without
   * `scv: `; stderr for a command, progress for an MCP call. */
  readonly onNotice?: (line: string) => void;
  /** Hears what the turn waits on (TurnWaiting); never delays it. */
  readonly onWaiting?: (waiting: TurnWaiting) => void;
  /** Hears the turn's job once it is registered (each attempt of a foreground turn's accounts is a
   * job of its own). */
  readonly onRegistered?: (job: string) => void;
}

/** Everything decided before anything is written or spawned. */
export interface TurnPlan {
  readonly entry: AdapterDescriptor;
  /** `acp`: `executable` and `args` start the agent's ACP server, and the prompt goes to its session. */
  readonly transport: TransportKind;
  readonly executable: string;
  /** The arguments after the executable. */
  readonly args: readonly string[];
  /** The prompt, for a CLI that reads it on stdin (the row's `prompt`). */
  readonly stdin?: string;
  readonly home: string;
  /** The account whose home `home` is (`default`: the agent's plain home). */
  readonly account: string;
  readonly cwd: string;
  readonly handle: string;
  /** The record being continued; undefined for a first turn. */
  readonly record?: ConversationRecord;
  readonly session?: SessionArg;
  readonly model?: string;
  readonly effort?: string;
  readonly policy: Policy;
  readonly timeoutMs?: number;
  readonly idleTimeoutMs?: number;
  readonly extraEnv: Readonly<Record<string, string>>;
  /** The MCP servers the agent gets this turn (turn/mcp-servers.ts). */
  readonly mcpServers?: readonly NamedMcpServer[];
  /** The endpoint of the user's own the agent is pointed at (`base_url`: turn/turn-endpoint.ts); its key
   * is read from scv's environment only when the agent starts. */
  readonly endpoint?: TurnEndpoint;
  /** Where the CLI writes its final message (`{file}` of the format's last-message args). */
  readonly lastMessageFile?: string;
  /** A reviewer's turn over the process transport: its row's review arguments go at `at` in `args`
   * (where the policy's would), once its TMPDIR holds the schema file they may name
   * (src/turn/review-turn.ts). */
  readonly review?: { readonly at: number };
  readonly prompt: string;
  /** Whether the turn's conversation is recorded. */
  readonly recordConversation: boolean;
  /** Whether the turn goes into the usage log (every turn but a probe asked to leave nothing). */
  readonly keepUsage: boolean;
  /** An ACP turn of a recorded conversation: how long its server stays up for the next turn (a
   * session host, src/acp/session-host/); 0 when it does not. */
  readonly sessionIdleMs?: number;
  /** The conversation's git worktree, where the turn runs (`cwd` is in it): its changes are
   * committed on its branch when it ends (turn/worktree.ts). */
  readonly worktree?: Worktree;
  /** The check run in the worktree after the turn (`--check`, the config's `check`). */
  readonly check?: { readonly command: string; readonly timeoutMs: number };
}
