// When a turn is over: the end-of-turn event arms the grace, events of a turn still going withdraw
// it (and the verdict), anything else does not.

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { TurnEvent } from "../../src/parsers/event-types.js";
import { DURATIONS } from "../../src/timing.js";
import { watchTurnEnd } from "../../src/turn/turn-verdict.js";
import { useRealTime } from "../helpers/timing.js";

// The default grace as it is, on a fake clock.
useRealTime();
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const FAILED: TurnEvent[] = [
  { type: "error", message: "429", kind: "rate-limit", terminal: true },
  { type: "turn-end", ok: false },
];

function watch(stopping = false) {
  const onOver = vi.fn();
  const turnEnd = watchTurnEnd({ stopping: () => stopping, onOver });
  const observe = (...events: TurnEvent[]) => {
    for (const event of events) turnEnd.observe(event);
  };
  return { turnEnd, onOver, observe };
}

describe("watchTurnEnd", () => {
  it("ends a CLI still running END_GRACE_MS after its final event, once", () => {
    const { turnEnd, onOver, observe } = watch();
    observe({ type: "text", text: "hi" }, { type: "turn-end", ok: true });
    vi.advanceTimersByTime(DURATIONS.endGrace - 1);
    expect(onOver).not.toHaveBeenCalled();
    // Lines that are no sign of work do not put it off.
    observe({ type: "usage", usage: { output: 3 } }, { type: "session", sessionId: "s" });
    vi.advanceTimersByTime(1);
    expect(onOver).toHaveBeenCalledOnce();
    expect(turnEnd.verdictInTime).toBe(true);
  });

  it("the grace counts from the first of an error and its turn-end", () => {
    const { onOver, observe } = watch();
    observe(FAILED[0] as TurnEvent);
    vi.advanceTimersByTime(DURATIONS.endGrace / 2);
    observe(FAILED[1] as TurnEvent);
    vi.advanceTimersByTime(DURATIONS.endGrace / 2);
    expect(onOver).toHaveBeenCalledOnce();
  });

  it.each<TurnEvent>([
    { type: "retry", message: "429", attempt: 1 },
    { type: "tool-start", id: "t1", name: "Bash", summary: "$ ls" },
    { type: "text", text: "more" },
  ])("a $type after the end withdraws it until the next end", (working) => {
    const { turnEnd, onOver, observe } = watch();
    observe(...FAILED, working);
    expect(turnEnd.verdictInTime).toBe(false);
    vi.advanceTimersByTime(DURATIONS.endGrace * 3);
    expect(onOver).not.toHaveBeenCalled();
    observe({ type: "turn-end", ok: true });
    expect(turnEnd.verdictInTime).toBe(true);
    vi.advanceTimersByTime(DURATIONS.endGrace);
    expect(onOver).toHaveBeenCalledOnce();
  });

  it("a non-terminal error after the end (pi's auto_retry_end failure) changes nothing", () => {
    const { onOver, observe } = watch();
    observe(...FAILED, { type: "error", message: "429", kind: "rate-limit", terminal: false });
    vi.advanceTimersByTime(DURATIONS.endGrace);
    expect(onOver).toHaveBeenCalledOnce();
  });

  it("a verdict given once scv is ending the CLI is not in time", () => {
    const { turnEnd, observe } = watch(true);
    observe({ type: "turn-end", ok: true });
    expect(turnEnd.verdictInTime).toBe(false);
  });

  it("nothing fires after dispose", () => {
    const { turnEnd, onOver, observe } = watch();
    observe({ type: "turn-end", ok: true });
    turnEnd.dispose();
    vi.advanceTimersByTime(DURATIONS.endGrace * 2);
    expect(onOver).not.toHaveBeenCalled();
  });
});
