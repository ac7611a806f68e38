// Progress of a running turn on stderr. On a terminal: one live line (agent, elapsed time, the
// current tool, or the retry it waits for) redrawn in place at most ten times a second, then a
// one-line summary (duration, tokens, cost). Elsewhere (a log, a pipe, CI): one plain line per tool
// start, a few a second at most — a burst is counted and told as one line rather than flooding the
// log — and one per retry. The formatting is
// pure functions; the renderer only decides when to write.

import { formatElapsed } from "../duration.js";
import type { TurnEvent } from "../parsers/event-types.js";
import { RateGate } from "../rate-gate.js";
import type { TurnResult } from "../result.js";
import { timing } from "../timing.js";
import { visibleControls } from "./terminal-text.js";

/** Carriage return, then erase the whole line: the live line is redrawn in place. */
const CLEAR_LINE = "\r\x1b[2K";
/** At most this often on a terminal (10 redraws a second). */
const REDRAW_MS = 100;

/** `950`, `12.2k`, `3.4M`. */
export function formatTokens(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${trimZero((count / 1000).toFixed(1))}k`;
  return `${trimZero((count / 1_000_000).toFixed(1))}M`;
}

function trimZero(text: string): string {
  return text.endsWith(".0") ? text.slice(0, -2) : text;
}

/** `$0.0246` below a dollar (agent turns are often cents), `$1.23` above. */
export function formatCost(usd: number): string {
  return `$${usd.toFixed(usd < 1 ? 4 : 2)}`;
}

/** Control characters (escape sequences above all) out of text an agent wrote: it goes to a
 * terminal, on one line. Bidi overrides and other invisible formatting are shown (`<U+202E>`). */
export function printable(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  return visibleControls(text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " "));
}

/** `text` cut to `width` columns with an ellipsis (code points; wide characters may overrun). */
export function clip(text: string, width: number): string {
  const chars = [...text];
  if (width <= 0) return "";
  return chars.length <= width ? text : `${chars.slice(0, Math.max(0, width - 1)).join("")}…`;
}

type ToolStart = Extract<TurnEvent, { type: "tool-start" }>;

export interface LiveState {
  /** The agent, or the conversation handle while the turn starts. */
  readonly label: string;
  readonly elapsedMs: number;
  /** Tools started so far. */
  readonly tools: number;
  /** The running tool's summary, or what the agent is doing otherwise. */
  readonly activity?: string;
}

/** The live line: `<agent> 12s · 3 tools · $ npm test`, fit to the terminal's width. */
export function liveLine(state: LiveState, columns: number): string {
  const parts = [`${state.label} ${formatElapsed(state.elapsedMs)}`];
  if (state.tools > 0) parts.push(`${state.tools} ${state.tools === 1 ? "tool" : "tools"}`);
  if (state.activity !== undefined && state.activity !== "") parts.push(printable(state.activity));
  // One column spare: writing the last column makes some terminals wrap.
  return clip(parts.join(" · "), columns - 1);
}

/** A tool start off a terminal: `<agent> 3s $ npm test`. */
export function toolLine(label: string, elapsedMs: number, summary: string): string {
  return `${label} ${formatElapsed(elapsedMs)} ${printable(summary)}`;
}

/** A tool's end (`scv logs`): `<agent> 4s ok $ npm test`, `<agent> 4s failed $ npm test`. */
export function toolEndLine(label: string, elapsedMs: number, summary: string, ok: boolean): string {
  return `${label} ${formatElapsed(elapsedMs)} ${ok ? "ok" : "failed"} ${printable(summary)}`;
}

/** An error the CLI reported (`scv logs`): `<agent> 12s error: overloaded`. */
export function errorLine(label: string, elapsedMs: number, message: string): string {
  return `${label} ${formatElapsed(elapsedMs)} error: ${printable(message)}`;
}

type RetryEvent = Extract<TurnEvent, { type: "retry" }>;

/** A wait: `0.5s`, `2.3s`, `12s`, `1m05s`. */
export function formatDelay(ms: number): string {
  if (ms >= 10_000) return formatElapsed(ms);
  return `${trimZero((Math.max(0, ms) / 1000).toFixed(1))}s`;
}

/** What a retry is, as much as the CLI said: `retrying 3/10 in 2.3s: rate_limit (429)`. */
export function retryActivity(event: RetryEvent): string {
  const { attempt, maxAttempts, delayMs, status } = event;
  let what = "retrying";
  if (attempt !== undefined) what += maxAttempts === undefined ? ` ${attempt}` : ` ${attempt}/${maxAttempts}`;
  if (delayMs !== undefined) what += ` in ${formatDelay(delayMs)}`;
  const message =
    status === undefined || event.message.includes(String(status))
      ? event.message
      : `${event.message} (${status})`;
  return `${what}: ${message}`;
}

/** A retry notice off a terminal: `<agent> 12s retrying 3/10 in 2.3s: rate_limit (429)`. */
export function retryLine(label: string, elapsedMs: number, event: RetryEvent): string {
  return `${label} ${formatElapsed(elapsedMs)} ${printable(retryActivity(event))}`;
}

/** Lines left out of a burst: `<agent> … 12 more`. */
export function droppedLine(label: string, count: number): string {
  return `${label} … ${count} more`;
}

const OUTCOME: Record<TurnResult["status"], string> = {
  completed: "done in",
  failed: "failed after",
  declined: "declined after",
  timeout: "timed out after",
  cancelled: "stopped after",
};

/** What the summary line reads of a result: a turn's, or its `--json` form (counts null, not absent). */
export type SummarizedResult = Pick<TurnResult, "agent" | "status" | "duration" | "cost"> & {
  readonly usage: { readonly [K in "input" | "cached" | "cacheWrite" | "output"]?: number | null } | null;
};

/** The final line on a terminal: `<agent> done in 12s · 12.2k in / 6 out tokens · $0.0246`. */
export function summaryLine(result: SummarizedResult): string {
  const parts = [`${result.agent || "scv"} ${OUTCOME[result.status]} ${formatElapsed(result.duration)}`];
  const usage = result.usage;
  if (usage !== null) {
    const input = (usage.input ?? 0) + (usage.cached ?? 0) + (usage.cacheWrite ?? 0);
    const cached = usage.cached ? ` (${formatTokens(usage.cached)} cached)` : "";
    parts.push(`${formatTokens(input)} in${cached} / ${formatTokens(usage.output ?? 0)} out tokens`);
  }
  // A zero cost says nothing (a local model, a turn that failed before its first request).
  if (result.cost !== null && result.cost > 0) parts.push(formatCost(result.cost));
  return parts.join(" · ");
}

interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface ProgressOptions {
  readonly stream: ProgressStream;
  /** Shown until the first event names the agent (the agent, or the handle being continued). */
  readonly label: string;
  readonly now?: () => number;
  /** Defaults to the stream's own `isTTY`. */
  readonly tty?: boolean;
}

export interface Progress {
  /** One normalized event of the turn, from `agent`. */
  event(event: TurnEvent, agent: string): void;
  /** The turn is over: the live line gives way to the summary (on a terminal), a burst's count is
   * told. Call it before anything else goes to stderr. */
  done(result: TurnResult): void;
  /** Something else needs the terminal's last line (a permission question): the live line is
   * erased and not drawn again until the returned function is called. */
  hold(): () => void;
}

export function createProgress(options: ProgressOptions): Progress {
  const now = options.now ?? Date.now;
  const started = now();
  return (options.tty ?? options.stream.isTTY === true)
    ? new LiveProgress(options, now, started)
    : new PlainProgress(options, now, started);
}

class LiveProgress implements Progress {
  private label: string;
  private tools = 0;
  /** What the line says the agent is doing; a running tool's summary is read only when drawn. */
  private activity: string | ToolStart = "starting";
  private lastDraw = Number.NEGATIVE_INFINITY;
  private pending: NodeJS.Timeout | undefined;
  private readonly ticker: NodeJS.Timeout;
  private finished = false;
  private heard = false;
  /** Holds taken and not yet released: while any is, nothing is drawn. */
  private holds = 0;

  constructor(
    private readonly options: ProgressOptions,
    private readonly now: () => number,
    private readonly started: number,
  ) {
    this.label = options.label;
    // Unref'd: progress never keeps scv alive.
    this.ticker = setInterval(() => this.draw(), timing("progressTick")).unref();
    this.draw();
  }

  event(event: TurnEvent, agent: string): void {
    this.label = agent;
    this.heard = true;
    switch (event.type) {
      case "tool-start":
        this.tools += 1;
        this.activity = event;
        break;
      case "tool-end":
        this.activity = "thinking";
        break;
      case "text":
        this.activity = "writing";
        break;
      case "retry":
        this.activity = retryActivity(event);
        break;
      case "session":
      case "mode":
        if (this.activity === "starting") this.activity = "thinking";
        break;
      default:
        return;
    }
    this.request();
  }

  done(result: TurnResult): void {
    if (this.finished) return;
    this.finished = true;
    clearInterval(this.ticker);
    clearTimeout(this.pending);
    // A turn the agent never spoke in (refused before it ran, or silent) gets no summary: the
    // failure line that follows says it all.
    this.options.stream.write(this.heard ? `${CLEAR_LINE}${printable(summaryLine(result))}\n` : CLEAR_LINE);
  }

  hold(): () => void {
    this.holds += 1;
    clearTimeout(this.pending);
    this.pending = undefined;
    if (!this.finished) this.options.stream.write(CLEAR_LINE);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds -= 1;
      if (this.holds === 0) this.draw();
    };
  }

  /** Draws now, or once REDRAW_MS has passed since the last draw. */
  private request(): void {
    const wait = this.lastDraw + REDRAW_MS - this.now();
    if (wait <= 0) this.draw();
    else this.pending ??= setTimeout(() => this.draw(), wait).unref();
  }

  private draw(): void {
    clearTimeout(this.pending);
    this.pending = undefined;
    if (this.finished || this.holds > 0) return;
    this.lastDraw = this.now();
    const line = liveLine(
      {
        label: this.label,
        elapsedMs: this.lastDraw - this.started,
        tools: this.tools,
        activity: typeof this.activity === "string" ? this.activity : this.activity.summary,
      },
      this.options.stream.columns ?? 80,
    );
    this.options.stream.write(`${CLEAR_LINE}${line}`);
  }
}

/** Three lines at once, three a second on average: a tool-heavy burst stays readable in a log. */
const PLAIN_PER_SECOND = 3;
const PLAIN_BURST = 3;

class PlainProgress implements Progress {
  private label: string;
  private dropped = 0;
  private readonly gate: RateGate;

  constructor(
    private readonly options: ProgressOptions,
    private readonly now: () => number,
    private readonly started: number,
  ) {
    this.label = options.label;
    this.gate = new RateGate(PLAIN_PER_SECOND, PLAIN_BURST, now);
  }

  event(event: TurnEvent, agent: string): void {
    this.label = agent;
    switch (event.type) {
      case "tool-start":
        this.line((elapsed) => toolLine(agent, elapsed, event.summary));
        return;
      case "retry":
        // Never held back: each one is a wait the user should see, and they come seconds apart.
        this.flushDropped();
        this.options.stream.write(`${retryLine(agent, this.now() - this.started, event)}\n`);
        return;
      default:
        return;
    }
  }

  done(_result: TurnResult): void {
    this.flushDropped();
  }

  /** Plain lines are whole lines: nothing to erase or hold back. */
  hold(): () => void {
    return () => {};
  }

  /** `text` is made only for a line that is written: most of a burst's are counted, not shown. */
  private line(text: (elapsedMs: number) => string): void {
    if (!this.gate.take()) {
      this.dropped += 1;
      return;
    }
    this.flushDropped();
    this.options.stream.write(`${text(this.now() - this.started)}\n`);
  }

  private flushDropped(): void {
    if (this.dropped === 0) return;
    this.options.stream.write(`${droppedLine(this.label, this.dropped)}\n`);
    this.dropped = 0;
  }
}
