// How a running turn is told to stop: a signal shaped like AbortSignal, the part of it scv uses, so
// that a real AbortSignal (tests, callers) fits wherever one is taken. Not AbortController itself:
// setting up its EventTarget for the first listener cost every turn 0.7-1.2 ms (two interleaved runs
// of 80 rounds), to carry one event to a handful of listeners.

/** A signal that is aborted once, with a reason; an AbortSignal is one. */
export interface StopSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

class Stop implements StopSignal {
  aborted = false;
  reason: unknown = undefined;
  private readonly listeners = new Set<() => void>();

  addEventListener(_type: "abort", listener: () => void): void {
    // Like an AbortSignal's: a listener added after the abort is never called.
    if (!this.aborted) this.listeners.add(listener);
  }

  removeEventListener(_type: "abort", listener: () => void): void {
    this.listeners.delete(listener);
  }

  fire(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = [...this.listeners];
    this.listeners.clear();
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        // As from an EventTarget: the other listeners still run, and the error is uncaught.
        process.nextTick(() => {
          throw error;
        });
      }
    }
  }
}

/** Makes a signal and the one way to abort it. Every listener runs once, at the abort, in the order
 * added; an abort without a reason gets an AbortError, as AbortController's does. */
export class StopController {
  readonly signal: StopSignal;
  private readonly stop = new Stop();

  constructor() {
    this.signal = this.stop;
  }

  abort(reason?: unknown): void {
    this.stop.fire(reason ?? new DOMException("This operation was aborted", "AbortError"));
  }
}
