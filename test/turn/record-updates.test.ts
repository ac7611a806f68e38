// The running record's updates: at once when asked, otherwise at most one write per interval with the
// latest state always written within it, nothing written twice, nothing after stop.

import { describe, expect, it } from "vitest";
import { recordUpdates } from "../../src/turn/record-updates.js";

/** Updates on a clock the test moves, and what they wrote. */
function harness() {
  let now = 0;
  const writes: unknown[] = [];
  const updates = recordUpdates<{ tool?: string }>(
    (text) => writes.push(JSON.parse(text)),
    250,
    () => now,
  );
  return {
    updates,
    writes,
    /** Moves the clock and lets a due timer run. */
    async advance(ms: number) {
      now += ms;
      await new Promise((resolve) => setTimeout(resolve, 0));
    },
  };
}

describe("recordUpdates", () => {
  it("writes the first change at once, then at most once per interval, the latest state last", async () => {
    let now = 0;
    const writes: { at: number; value: unknown }[] = [];
    const updates = recordUpdates<{ tool: string }>(
      (text) => writes.push({ at: now, value: JSON.parse(text) }),
      40,
      () => now,
    );
    const started = performance.now();
    for (let i = 1; i <= 10_000; i += 1) {
      now = performance.now() - started;
      updates.soon(() => ({ tool: `step ${i}` }));
    }
    expect(writes).toEqual([{ at: expect.any(Number), value: { tool: "step 1" } }]);
    await new Promise((resolve) => setTimeout(resolve, 80));
    now = performance.now() - started;
    expect(writes.map((write) => write.value)).toEqual([{ tool: "step 1" }, { tool: "step 10000" }]);
  });

  it("builds only the states it writes", () => {
    const { updates } = harness();
    let built = 0;
    for (let i = 0; i < 1_000; i += 1)
      updates.soon(() => {
        built += 1;
        return { tool: String(i) };
      });
    expect(built).toBe(1);
    updates.stop();
  });

  it("writes at once what must be seen at once, and a pending state goes with it", () => {
    const { updates, writes } = harness();
    updates.soon(() => ({ tool: "a" }));
    updates.soon(() => ({ tool: "b" }));
    updates.now({ tool: "c" });
    expect(writes).toEqual([{ tool: "a" }, { tool: "c" }]);
    updates.stop();
  });

  it("does not rewrite a state equal to the last one written (a tool that started and ended between writes)", () => {
    const { updates, writes } = harness();
    updates.soon(() => ({}));
    updates.soon(() => ({ tool: "a" }));
    updates.soon(() => ({}));
    updates.flush();
    expect(writes).toEqual([{}]);
  });

  it("writes nothing once stopped, not even a pending state", async () => {
    const { updates, writes, advance } = harness();
    updates.soon(() => ({ tool: "a" }));
    updates.soon(() => ({ tool: "b" }));
    updates.stop();
    await advance(1_000);
    updates.flush();
    updates.soon(() => ({ tool: "c" }));
    expect(writes).toEqual([{ tool: "a" }]);
  });
});
