// Notifications: what a person is told of a job away from its output, as `[notify]` in the config
// says (src/notify-settings.ts; `[agents.<name>.notify]` over it, key by key). On each event — `done`,
// `failed`, `needs-approval`, `cooling` — its `command` runs with the event as one JSON object on
// stdin, and with `desktop = true` the desktop's notifier shows it where there is one (notify-send,
// osascript). Each runs in a group of its own, bounded by a time limit and ended whole with what it
// started (process/helpers.ts); its failure is one note and never changes the turn. The process that runs
// the turn notifies: the command for a turn in the foreground, the detached scv for a background or
// MCP job. The event holds no secret: the agent's failure line is redacted, the prompt comes only
// with `include_prompt`, and the command's environment is scv's minus every credential (as a
// check's, worktrees/check.ts).

import { delimiter } from "node:path";
import { DEFAULT_ACCOUNT } from "../accounts.js";
import { formatDuration, parseDuration } from "../duration.js";
import { findExecutable } from "../executable.js";
import type { Config } from "../home/config.js";
import type { Env } from "../home/paths.js";
import type { NotifyEventName, NotifySettings } from "../notify-settings.js";
import { redact } from "../parsers/redact.js";
import { runBounded } from "../process/helpers.js";
import type { TurnResult } from "../result.js";
import { failureLine } from "../turn/outcome.js";
import type { TurnWaiting } from "../turn/turn-types.js";
import { checkEnvironment } from "../worktrees/check.js";
import { clip, printable, summaryLine } from "./progress.js";

/** How long a notify command (or the desktop's notifier) may run unless `timeout` says. */
const NOTIFY_LIMIT_MS = 10_000;
/** The most of the prompt an event carries with `include_prompt`. */
const PROMPT_CHARS = 4_000;
const SUMMARY_CHARS = 300;

/** What a notify command reads on stdin, as one JSON object. */
interface NotifyEvent {
  readonly event: NotifyEventName;
  /** The job (`<agent>-k3f9x2.a1b2c3d4`); null when the turn never got one. */
  readonly job: string | null;
  /** The conversation to continue; null when none was recorded. */
  readonly conversation: string | null;
  readonly agent: string;
  readonly account: string;
  /** scv's exit code for the turn (done, failed); null while it runs. */
  readonly exit: number | null;
  /** Milliseconds the turn took (done, failed); null while it runs. */
  readonly duration: number | null;
  /** One line: the turn's end, the question asked, the limit waited for. */
  readonly summary: string;
  /** When it happened (UTC ISO 8601). */
  readonly time: string;
  /** `cooling`: when the limit resets. */
  readonly until?: string;
  /** With `include_prompt` only. */
  readonly prompt?: string;
}

/** The settings for `agent`'s turns: its own table's keys over `[notify]`'s. */
function notifySettings(config: Config, agent: string): NotifySettings {
  return { ...config.notify, ...config.agents?.[agent]?.notify };
}

/** A line of text made safe to hand on: one line, no control characters, no token shapes. */
function oneLine(text: string): string {
  return clip(printable(redact(text)), SUMMARY_CHARS);
}

/** The event of a turn that ended. */
function endedEvent(result: TurnResult, job: string | null, now = new Date()): NotifyEvent {
  const failure = failureLine(result);
  const summary = failure === undefined ? summaryLine(result) : `${summaryLine(result)}: ${failure}`;
  return {
    event: result.exitCode === 0 ? "done" : "failed",
    job,
    conversation: result.conversation,
    agent: result.agent,
    account: result.account ?? DEFAULT_ACCOUNT,
    exit: result.exitCode,
    duration: result.duration,
    summary: oneLine(summary),
    time: now.toISOString(),
  };
}

/** The event of a turn that waits: on its agent's question, or on a rate limit's reset. */
function waitingEvent(waiting: TurnWaiting, job: string | null, now = new Date()): NotifyEvent {
  const base = { job, exit: null, duration: null, time: now.toISOString() };
  if (waiting.kind === "approval") {
    const { agent, tool, summary } = waiting.question;
    return {
      ...base,
      event: "needs-approval",
      job: waiting.job,
      conversation: waiting.handle,
      agent,
      account: waiting.account,
      summary: oneLine(`${agent} asks to run ${summary === "" ? tool : `${tool}: ${summary}`}`),
    };
  }
  return {
    ...base,
    event: "cooling",
    conversation: null,
    agent: waiting.agent,
    account: waiting.account,
    until: waiting.until,
    summary: oneLine(`${waiting.who} is rate limited until ${waiting.until}: ${waiting.reason}`),
  };
}

export interface Notifier {
  /** The turn ended; resolves once its notifications are over (each within its limit). */
  ended(result: TurnResult, job?: string | null): Promise<void>;
  /** For TurnContext.onWaiting: notifies without holding the turn up. */
  readonly waiting: (waiting: TurnWaiting) => void;
  /** For TurnContext.onRegistered: the job of the turn, for the events. */
  readonly registered: (job: string) => void;
  /** Waits for the notifications `waiting` started. */
  settle(): Promise<void>;
}

export interface NotifierOptions {
  readonly config: Config;
  readonly env: Env;
  /** The turn's prompt, given only with `include_prompt`. */
  readonly prompt: string;
  /** The background job, when the turn is one. */
  readonly job?: string;
  /** Where a notification that failed is said (stderr: the terminal, or a background job's log). */
  readonly note: (line: string) => void;
}

/** A notifier for one turn; every call does nothing when no setting asks for anything. */
export function createNotifier(options: NotifierOptions): Notifier {
  const pending = new Set<Promise<void>>();
  let job: string | null = options.job ?? null;
  const send = (event: NotifyEvent): Promise<void> => {
    const settings = notifySettings(options.config, event.agent);
    if (settings.on !== undefined && !settings.on.includes(event.event)) return Promise.resolve();
    const full =
      settings.include_prompt === true ? { ...event, prompt: options.prompt.slice(0, PROMPT_CHARS) } : event;
    return deliver(full, settings, options).catch((error: unknown) =>
      options.note(`notification not sent: ${(error as Error).message}`),
    );
  };
  return {
    ended: (result, given) => send(endedEvent(result, given === undefined ? job : given)),
    waiting: (waiting) => {
      const sent = send(waitingEvent(waiting, job));
      pending.add(sent);
      void sent.finally(() => pending.delete(sent));
    },
    registered: (registered) => {
      job = registered;
    },
    settle: async () => {
      await Promise.all(pending);
    },
  };
}

/** Runs the command and the desktop's notifier for `event`; a failure is a note. */
async function deliver(
  event: NotifyEvent,
  settings: NotifySettings,
  options: NotifierOptions,
): Promise<void> {
  const [program, ...args] = settings.command ?? [];
  // Most turns notify nothing: the environment's filtering is not done for them.
  if (program === undefined && settings.desktop !== true) return;
  const limitMs = parseDuration(settings.timeout ?? "") ?? NOTIFY_LIMIT_MS;
  const env = checkEnvironment(options.env, options.config.isolation);
  const runs: Promise<void>[] = [];
  if (program !== undefined) {
    runs.push(
      runBounded(program, args, {
        env,
        timeoutMs: limitMs,
        input: `${JSON.stringify(event)}\n`,
        maxBytes: 4096,
      }).then((run) => {
        const why = failure(run, limitMs);
        if (why !== undefined) options.note(`notify command ${program} ${why} — the turn is unchanged`);
      }),
    );
  }
  const desktop = settings.desktop === true ? desktopCommand(event, env) : undefined;
  // Silently absent where the desktop has no notifier.
  if (desktop !== undefined)
    runs.push(runBounded(desktop.program, desktop.args, { env, timeoutMs: limitMs }).then(() => {}));
  await Promise.all(runs);
}

function failure(
  run: { code: number | null; timedOut: boolean; spawnError?: string; stderr: string },
  limitMs: number,
): string | undefined {
  if (run.spawnError !== undefined) return `could not start (${oneLine(run.spawnError)})`;
  if (run.timedOut) return `ran past ${formatDuration(limitMs)} and was stopped`;
  if (run.code === 0) return undefined;
  const said = run.stderr.trim().split("\n").at(-1);
  return `failed (${run.code === null ? "ended by a signal" : `exit ${run.code}`})${said ? `: ${oneLine(said)}` : ""}`;
}

/** The desktop's own notifier with the event's title and summary, where there is one. */
function desktopCommand(event: NotifyEvent, env: Env): { program: string; args: string[] } | undefined {
  const title = `scv: ${event.agent} ${headline(event)}`;
  const dirs = (env.PATH ?? "").split(delimiter);
  if (process.platform === "darwin") {
    const program = findExecutable("osascript", dirs);
    if (program === undefined) return undefined;
    // The texts as arguments, never inside the script: nothing in them is run.
    const script = [
      "on run argv",
      "display notification (item 2 of argv) with title (item 1 of argv)",
      "end run",
    ];
    return { program, args: [...script.flatMap((line) => ["-e", line]), title, event.summary] };
  }
  const program = findExecutable("notify-send", dirs);
  return program === undefined
    ? undefined
    : { program, args: ["--app-name=scv", "--", title, event.summary] };
}

function headline(event: NotifyEvent): string {
  switch (event.event) {
    case "done":
      return "done";
    case "failed":
      return `failed (exit ${event.exit})`;
    case "needs-approval":
      return "needs approval";
    case "cooling":
      return `cooling until ${event.until}`;
  }
}

/** A terminal bell for a turn in the foreground that ran at least `bell_after`, on a terminal. */
export function bellFor(result: TurnResult, config: Config, stderr: { isTTY?: boolean }): string {
  const after = notifySettings(config, result.agent).bell_after;
  if (after === undefined || stderr.isTTY !== true) return "";
  const ms = parseDuration(after);
  return ms !== undefined && result.duration >= ms ? "\x07" : "";
}
