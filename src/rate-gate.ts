// A token bucket for lines that may come faster than anyone reads them: a turn's progress off a
// terminal (cli/progress.ts), the events a busy turn keeps for `scv logs` (turn/event-log.ts).

/** Lets through `burst` at once and `perSecond` on average; the caller counts the rest. */
export class RateGate {
  private tokens: number;
  private last: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number,
  ) {
    this.tokens = burst;
    this.last = now();
  }

  take(): boolean {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
