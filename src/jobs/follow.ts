// Following a job's events (`scv logs`): what its events file holds (home/job-events.ts), then, when
// following, what its turn appends, until the job ends; then its result: the file's last line for a
// turn in the foreground (the scv running it writes it there), the saved result for a background or
// reaped job (`<job>.done.json`, left for `scv wait`). Nothing of the job is changed. When the turn
// sets its file aside for a new one, the old one is read to its end first.

import { ScvError } from "../errors.js";
import {
  type DroppedLine,
  droppedLineSchema,
  type EventLine,
  eventLineSchema,
  resultLine,
} from "../events.js";
import {
  closeEvents,
  eventsFileId,
  eventsFiles,
  type OpenEvents,
  openEvents,
  readEventBytes,
} from "../home/job-events.js";
import type { Env } from "../home/paths.js";
import { finishedJobs, jobHandle } from "../home/turn-files.js";
import { turnOwnerAlive } from "../home/turn-owner.js";
import { readFinished, readRunning } from "../home/turn-records.js";
import { parseTurnRef } from "./handle.js";

/** How often a follower looks for more. */
const POLL_MS = 100;
/** Read at a time. */
const PIECE_BYTES = 64 * 1024;

/** The job `text` names: a job itself, or a conversation's running job, else its latest finished
 * one. Refuses a name with nothing to show. */
export function jobToFollow(text: string, env: Env): string {
  const ref = parseTurnRef(text);
  const running = readRunning(ref.handle, env);
  if (ref.kind === "job") {
    const { older, current } = eventsFiles(ref.job, env);
    const known =
      running?.tag === ref.job ||
      readFinished(ref.job, env) !== undefined ||
      eventsFileId(current) !== undefined ||
      eventsFileId(older) !== undefined;
    if (!known)
      throw new ScvError(
        "USAGE",
        `no job ${ref.job} — it ended and its result was read, or it never ran (scv ps lists running turns)`,
      );
    return ref.job;
  }
  if (running !== undefined) return running.tag;
  const latest = finishedJobs(ref.handle, env)
    .map((job) => ({ job, endedAt: readFinished(job, env)?.endedAt ?? "" }))
    .sort((a, b) => a.endedAt.localeCompare(b.endedAt))
    .at(-1);
  if (latest === undefined) throw new ScvError("USAGE", `no turn ${ref.handle} — scv ps lists running turns`);
  return latest.job;
}

/** How following ended: with the job's result line; at the end of what there is while the job runs
 * (not following); with a job that ended leaving no result to read (its foreground scv printed it,
 * or `scv wait` took it); or stopped by `signal`. */
export type FollowEnd =
  | { readonly kind: "result"; readonly line: Extract<EventLine, { type: "result" }> }
  | { readonly kind: "running" }
  | { readonly kind: "gone" }
  | { readonly kind: "stopped" };

export interface FollowOptions {
  /** Go on until the job ends; otherwise stop at the end of what there is. */
  readonly follow: boolean;
  readonly signal?: AbortSignal;
  /** Each event line, in order; not the result's, which the end carries. */
  readonly onLine: (line: EventLine) => void;
  /** How many events of a busy stretch the file counted instead of keeping, in their place. */
  readonly onDropped?: (line: DroppedLine) => void;
  readonly pollMs?: number;
}

export async function followJob(job: string, env: Env, options: FollowOptions): Promise<FollowEnd> {
  const files = eventsFiles(job, env);
  const lines = new LineReader(options.onLine, options.onDropped);
  const older = openEvents(files.older);
  if (older !== undefined) {
    lines.drain(older);
    closeEvents(older);
    lines.restart();
  }
  let reading = openEvents(files.current);
  try {
    for (;;) {
      // Whether it had ended before the last read: then that read saw all it wrote.
      const ended = !jobRunning(job, env);
      if (reading !== undefined) lines.drain(reading);
      if (lines.result !== undefined) return { kind: "result", line: lines.result };
      const now = eventsFileId(files.current);
      if (now !== undefined && now !== reading?.id) {
        // Set aside for a new one (read to its end once more: it may have grown after the last read
        // and before it was set aside), or made since: the new one from its start.
        if (reading !== undefined) {
          lines.drain(reading);
          closeEvents(reading);
          reading = undefined;
          if (lines.result !== undefined) return { kind: "result", line: lines.result };
        }
        reading = openEvents(files.current);
        lines.restart();
        continue;
      }
      if (ended) return finishedEnd(job, env);
      if (!options.follow) return { kind: "running" };
      if (await stopped(options.pollMs ?? POLL_MS, options.signal)) return { kind: "stopped" };
    }
  } finally {
    if (reading !== undefined) closeEvents(reading);
  }
}

/** Whether the job's turn runs under a live scv. */
function jobRunning(job: string, env: Env): boolean {
  const handle = jobHandle(job);
  const record = handle === undefined ? undefined : readRunning(handle, env);
  return record?.tag === job && turnOwnerAlive(record);
}

/** The end of a job whose file holds no result: its saved one, if it is there. */
function finishedEnd(job: string, env: Env): FollowEnd {
  const finished = readFinished(job, env);
  if (finished === undefined) return { kind: "gone" };
  const t = Math.max(0, Date.parse(finished.endedAt) - Date.parse(finished.startedAt)) || 0;
  const conversation = finished.result.conversation ?? undefined;
  const line = resultLine(finished.result, {
    agent: finished.result.agent || finished.agent,
    conversation,
    t,
  });
  return line.type === "result" ? { kind: "result", line } : { kind: "gone" };
}

/** Waits `ms`; true when `signal` aborted. */
function stopped(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve(signal?.aborted === true);
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** Whole lines out of an events file read piece by piece; each checked against the `--events`
 * schema or as a count of events left out (a line of another shape is skipped), the result kept
 * apart. */
class LineReader {
  result: Extract<EventLine, { type: "result" }> | undefined;
  private position = 0;
  private partial = "";

  constructor(
    private readonly onLine: (line: EventLine) => void,
    private readonly onDropped: ((line: DroppedLine) => void) | undefined,
  ) {}

  /** A new file: from its start. */
  restart(): void {
    this.position = 0;
    this.partial = "";
  }

  /** Reads `events` from where it stopped to its end. */
  drain(events: OpenEvents): void {
    for (;;) {
      if (this.result !== undefined) return;
      let piece: Buffer;
      try {
        piece = readEventBytes(events, this.position, PIECE_BYTES);
      } catch {
        return;
      }
      if (piece.length === 0) return;
      this.position += piece.length;
      // Lines end in "\n", a byte no UTF-8 sequence holds: the text before the last one is whole.
      const text = this.partial + piece.toString("latin1");
      const last = text.lastIndexOf("\n");
      this.partial = text.slice(last + 1);
      if (last === -1) continue;
      for (const line of Buffer.from(text.slice(0, last), "latin1").toString("utf8").split("\n")) {
        this.take(line);
        if (this.result !== undefined) return;
      }
    }
  }

  private take(text: string): void {
    if (text === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return;
    }
    const parsed = eventLineSchema().safeParse(value);
    if (!parsed.success) {
      const dropped = droppedLineSchema().safeParse(value);
      if (dropped.success) this.onDropped?.(dropped.data);
      return;
    }
    if (parsed.data.type === "result") this.result = parsed.data;
    else this.onLine(parsed.data);
  }
}
