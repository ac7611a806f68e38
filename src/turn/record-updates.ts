// How a running turn's record follows the turn: what `scv ps`, `scv kill` and the reaper must see at
// once (the record itself, the agent's pid and start time) is written at once; what only `scv ps`
// shows (the tool running now) is written at most once every UPDATE_MS, the latest state always
// within that time. A tool-heavy stream starts and ends thousands of tools a second: a write (a
// rename) for each made a turn spend most of its time renaming files.

/** How stale the tool `scv ps` shows may be. */
export const UPDATE_MS = 250;

export interface RecordUpdates<T> {
  /** Writes `value` now (and drops a pending one). */
  now(value: T): void;
  /** `value` is the latest state: written now if nothing was written for UPDATE_MS, else when that
   * time has passed. `value` is a function so that nothing is built for states never written. */
  soon(value: () => T): void;
  /** Writes a pending state now. */
  flush(): void;
  /** Drops a pending state: nothing is written any more. */
  stop(): void;
}

/** `write` gets the record's text; a state whose text is what was written last is not written
 * again (a tool that started and ended between two writes). */
export function recordUpdates<T>(
  write: (text: string) => void,
  intervalMs = UPDATE_MS,
  // Monotonic, and not `performance.now()`: the first use of `performance` loads perf_hooks, a few
  // ms of every turn's start-up.
  clock: () => number = () => process.uptime() * 1000,
): RecordUpdates<T> {
  let pending: (() => T) | undefined;
  let timer: NodeJS.Timeout | undefined;
  let lastText: string | undefined;
  let lastWrite = Number.NEGATIVE_INFINITY;
  let stopped = false;

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const next = pending;
    pending = undefined;
    if (next === undefined || stopped) return;
    const text = `${JSON.stringify(next(), null, 2)}\n`;
    if (text === lastText) return;
    lastText = text;
    lastWrite = clock();
    write(text);
  };

  return {
    now(value) {
      pending = () => value;
      flush();
    },
    soon(value) {
      pending = value;
      if (timer !== undefined || stopped) return;
      const wait = lastWrite + intervalMs - clock();
      if (wait <= 0) flush();
      // Unref'd: a pending update never keeps scv alive; the turn's end flushes it.
      else timer = setTimeout(flush, wait).unref();
    },
    flush,
    stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      pending = undefined;
    },
  };
}
