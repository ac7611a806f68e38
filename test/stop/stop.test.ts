import { describe, expect, it } from "vitest";
import { StopController, type StopSignal } from "../../src/stop.js";

describe("StopController", () => {
  it("calls each listener once, in the order added, with the reason set", () => {
    const controller = new StopController();
    const seen: string[] = [];
    const first = () => seen.push(`first ${String(controller.signal.reason)}`);
    controller.signal.addEventListener("abort", first, { once: true });
    controller.signal.addEventListener("abort", () => seen.push("second"));
    const removed = () => seen.push("removed");
    controller.signal.addEventListener("abort", removed);
    controller.signal.removeEventListener("abort", removed);
    expect(controller.signal.aborted).toBe(false);
    controller.abort("SIGTERM");
    controller.abort("SIGINT");
    expect(seen).toEqual(["first SIGTERM", "second"]);
    expect([controller.signal.aborted, controller.signal.reason]).toEqual([true, "SIGTERM"]);
  });

  it("never calls a listener added after the abort, as an AbortSignal does not", () => {
    const controller = new StopController();
    controller.abort();
    let called = false;
    controller.signal.addEventListener("abort", () => {
      called = true;
    });
    controller.abort("again");
    expect(called).toBe(false);
    expect(controller.signal.reason).toBeInstanceOf(DOMException);
    expect((controller.signal.reason as DOMException).name).toBe("AbortError");
  });

  it("behaves as an AbortController's signal does for the same calls", () => {
    const run = (controller: { signal: StopSignal; abort(reason?: unknown): void }) => {
      const seen: unknown[] = [];
      controller.signal.addEventListener("abort", () => seen.push(controller.signal.reason), { once: true });
      controller.abort(42);
      controller.abort(43);
      controller.signal.addEventListener("abort", () => seen.push("late"));
      return [seen, controller.signal.aborted, controller.signal.reason];
    };
    expect(run(new StopController())).toEqual(run(new AbortController()));
  });
});
