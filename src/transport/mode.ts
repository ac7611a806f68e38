// Checks that an agent runs in the permission mode its policy asked for, from what the CLI itself
// reports (the descriptor's `modeReport`): under `auto` the full mode is required (an agent that
// silently runs restricted would fail at its first tool), under `default` it is refused (a settings
// file in the agent home can grant it behind scv's back). A CLI says so in its stream, which the
// parser turns into `mode` events, or in the log of its session, polled once the session id is
// known. A report that contradicts the policy stops the turn.

import { closeSync, readdirSync, readSync } from "node:fs";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { type AdapterDescriptor, type ModeReport, unreachable } from "../adapters.js";
import { ScvError } from "../errors.js";
import { openStateFile, readStateText, SMALL_STATE_BYTES } from "../home/state-file.js";
import type { TurnEvent } from "../parsers/event-types.js";
import * as s from "../parsers/shape.js";
import { maybeString, readAs } from "../parsers/wire.js";
import type { Policy } from "./env.js";
import { createLineFramer } from "./framing.js";

export interface ModeMismatch {
  /** The mode the agent reported. */
  readonly reported: string;
  /** What happened, one line. */
  readonly error: string;
  /** What to do about it, one line. */
  readonly hint: string;
}

/** Whether `reported` is what `policy` allows: `auto` requires the full mode, `default` refuses it. */
export function modeAllowed(full: string, policy: Policy, reported: string): boolean {
  switch (policy) {
    case "auto":
      return reported === full;
    case "default":
      return reported !== full;
    default:
      return unreachable(policy);
  }
}

type Reporting = Exclude<ModeReport, { kind: "none" }>;

/** The message for a report that contradicts the policy; `stopped` says whether scv ended the turn
 * or it had already ended. */
function describeMismatch(
  { entry, policy, home }: Pick<ModeWatchOptions, "entry" | "policy" | "home">,
  report: Reporting,
  reported: string,
  stopped: boolean,
): ModeMismatch {
  const what = `${entry.name} reported ${report.label} '${reported}' under --policy ${policy}`;
  const outcome = stopped ? "scv stopped it" : "the turn had already ended";
  const settings = join(home, report.settings);
  return policy === "auto"
    ? {
        reported,
        error: `${what}, not '${report.full}'; ${outcome}`,
        hint: `look for a setting that overrides it in ${settings}, or run with --policy default`,
      }
    : {
        reported,
        error: `${what}; ${outcome}`,
        hint: `remove the setting that grants it from ${settings}, or pass --policy auto if it may have full permissions`,
      };
}

/** Refuses, before the CLI starts, a turn whose agent home's settings already grant the full mode
 * that `policy` forbids: for a CLI that reports its mode only after it may have run a tool. A file
 * that cannot be read or parsed is left to the CLI (and to the watch below). */
export function refuseGrantedMode(entry: AdapterDescriptor, policy: Policy, home: string): void {
  const report = entry.modeReport;
  if (report.kind !== "session-log" || policy !== "default") return;
  const settings = join(home, report.settings);
  let granted: unknown;
  try {
    const text = readStateText(settings, { maxBytes: SMALL_STATE_BYTES, followLinks: true });
    if (text === undefined) return;
    const config = parseToml(text) as Record<string, unknown>;
    const profiles = config.profiles as Record<string, Record<string, unknown> | undefined> | undefined;
    const profile = typeof config.profile === "string" ? profiles?.[config.profile] : undefined;
    granted = profile?.[report.settingKey] ?? config[report.settingKey];
  } catch {
    return;
  }
  if (granted !== report.full) return;
  throw new ScvError(
    "AGENT_FAILED",
    `${settings} sets ${report.settingKey} = "${report.full}", which --policy default refuses; ${entry.name} was not started — remove that setting, or pass --policy auto if it may have full permissions`,
  );
}

export interface ModeWatchOptions {
  readonly entry: AdapterDescriptor;
  readonly policy: Policy;
  readonly home: string;
  /** When the turn started (ms since the epoch): rollout lines older than that are earlier turns'. */
  readonly started: number;
  /** A mode read outside the stream (the stream's own reports are parser events already). */
  readonly onReport: (event: Extract<TurnEvent, { type: "mode" }>) => void;
  /** The first report that contradicts the policy: the turn must be stopped. */
  readonly onMismatch: (mismatch: ModeMismatch) => void;
  /** Between two looks for the rollout file at first; it doubles up to `maxPollMs`. */
  readonly pollMs?: number;
  readonly maxPollMs?: number;
}

export interface ModeWatch {
  /** Every parser event of the turn, in order. */
  observe(event: TurnEvent): void;
  /** A last look once the agent has exited; stops polling. Never calls `onMismatch` with
   * `stopped` wording: the turn is over by then. */
  finish(): void;
  /** The last mode the agent reported; undefined when it reported none (or scv could not read it). */
  readonly reported: string | undefined;
  readonly mismatch: ModeMismatch | undefined;
}

export function watchMode(options: ModeWatchOptions): ModeWatch {
  const report = options.entry.modeReport;
  let reported: string | undefined;
  let mismatch: ModeMismatch | undefined;
  let running = true;

  const judge = (mode: string, fromStream: boolean) => {
    if (report.kind === "none") return;
    reported = mode;
    if (!fromStream) options.onReport({ type: "mode", mode });
    if (mismatch !== undefined || modeAllowed(report.full, options.policy, mode)) return;
    mismatch = describeMismatch(options, report, mode, running);
    options.onMismatch(mismatch);
  };

  let rollout: RolloutPoller | undefined;
  const watch: ModeWatch = {
    observe(event) {
      switch (report.kind) {
        case "stream":
          if (event.type === "mode") judge(event.mode, true);
          return;
        case "session-log":
          // The session id names the log file; a second id (never seen) would start no second poll.
          if (event.type === "session" && rollout === undefined) {
            rollout = new RolloutPoller({
              dir: join(options.home, report.dir),
              threadId: event.sessionId,
              since: options.started,
              onSandbox: (mode) => judge(mode, false),
              pollMs: options.pollMs ?? 100,
              maxPollMs: options.maxPollMs ?? 2_000,
            });
          }
          return;
        case "none":
          return;
        default:
          unreachable(report);
      }
    },
    finish() {
      running = false;
      rollout?.stop();
      rollout?.look();
    },
    get reported() {
      return reported;
    },
    get mismatch() {
      return mismatch;
    },
  };
  return watch;
}

interface RolloutPollerOptions {
  readonly dir: string;
  readonly threadId: string;
  readonly since: number;
  readonly onSandbox: (sandbox: string) => void;
  readonly pollMs: number;
  readonly maxPollMs: number;
}

/** Looks for the session's rollout file, then follows it, passing on the sandbox policy of every
 * `turn_context` line this turn wrote. The CLI may create the file late, so the looks back off. */
class RolloutPoller {
  private reader: RolloutReader | undefined;
  private timer: NodeJS.Timeout | undefined;
  private delay: number;

  constructor(private readonly options: RolloutPollerOptions) {
    this.delay = options.pollMs;
    // The CLI may have written the file before it printed the session id: look at once.
    this.look();
    this.schedule();
  }

  private schedule(): void {
    // Unref'd: the agent's own process keeps scv running; a poll alone must not.
    this.timer = setTimeout(() => {
      this.look();
      this.delay = Math.min(this.delay * 2, this.options.maxPollMs);
      this.schedule();
    }, this.delay).unref();
  }

  look(): void {
    if (this.reader === undefined) {
      const path = findRollout(this.options.dir, this.options.threadId);
      if (path === undefined) return;
      this.reader = new RolloutReader(path, this.options.since);
    }
    for (const sandbox of this.reader.read()) this.options.onSandbox(sandbox);
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}

/** `rollout-<timestamp>-<thread id>.jsonl` anywhere below `dir` (filed by date). The id
 * is only compared with names read from the folder, never made into a path. */
export function findRollout(dir: string, threadId: string): string | undefined {
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true, encoding: "utf8" });
  } catch {
    return undefined;
  }
  const suffix = `-${threadId}.jsonl`;
  const found = names.find((name) => {
    const base = name.slice(name.lastIndexOf("/") + 1);
    return base.startsWith("rollout-") && base.endsWith(suffix);
  });
  return found === undefined ? undefined : join(dir, found);
}

/** A rollout line, read like the CLIs' streams (parsers/shape.ts): only the fields looked at. */
const TurnContextLine = s.object({
  timestamp: maybeString,
  type: s.literal("turn_context"),
  payload: s.object({
    // An object `{ type, … }` today; a bare string is accepted in case a release flattens it.
    sandbox_policy: s.union([s.string(), s.object({ type: s.string() })]),
  }),
});

/** Bytes read from a rollout file per look: a long conversation's file can be large, and the
 * event loop must keep serving the agent's stdout meanwhile. The next look goes on from there. */
const READ_LIMIT = 16 * 1024 * 1024;

/** Reads a growing rollout file from where it left off. A line still being written is carried over
 * to the next read by the framer. */
export class RolloutReader {
  private offset = 0;
  private found: string[] = [];
  private readonly framer = createLineFramer({
    onLine: (line) => this.line(line),
    onOversized: () => {},
  });

  constructor(
    private readonly path: string,
    private readonly since: number,
  ) {}

  /** The sandbox policies of the `turn_context` lines added since the last read and written at or
   * after `since` (earlier ones belong to earlier turns of a resumed thread). */
  read(limit = READ_LIMIT): string[] {
    // The CLI's transcript: never a FIFO waited on.
    const opened = openStateFile(this.path, { followLinks: true });
    if (opened.kind !== "open") return [];
    const { fd } = opened;
    try {
      const buffer = Buffer.alloc(64 * 1024);
      for (let total = 0; total < limit; ) {
        const n = readSync(fd, buffer, 0, buffer.length, this.offset);
        if (n === 0) break;
        this.offset += n;
        total += n;
        this.framer.push(buffer.subarray(0, n));
      }
    } catch {
      // A file that cannot be read now may be readable at the next look.
    } finally {
      closeSync(fd);
    }
    const found = this.found;
    this.found = [];
    return found;
  }

  private line(line: string): void {
    // Most lines are long and of other types; only these are worth parsing.
    if (!line.includes('"turn_context"')) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return;
    }
    const context = readAs(TurnContextLine, value);
    if (context === null) return;
    const at = context.timestamp === undefined ? Number.NaN : Date.parse(context.timestamp);
    if (!Number.isNaN(at) && at < this.since) return;
    const sandbox = context.payload.sandbox_policy;
    this.found.push(typeof sandbox === "string" ? sandbox : sandbox.type);
  }
}
