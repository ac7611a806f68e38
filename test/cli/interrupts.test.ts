// The one abort signal every running turn of a command listens on (src/cli/interrupts.ts).

import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { withInterrupts } from "../../src/cli/interrupts.js";
import { memoryIo } from "../helpers/io.js";

describe("withInterrupts", () => {
  it("lets a fan-out of many turns listen on its signal without a leak warning", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      const heard = await withInterrupts(memoryIo(), async (signal) => {
        let heard = 0;
        for (let turn = 0; turn < 64; turn += 1) signal.addEventListener("abort", () => (heard += 1));
        process.emit("SIGTERM");
        return heard;
      });
      // Node reports the warning on the next tick.
      await sleep(10);
      expect([heard, warnings]).toEqual([64, []]);
    } finally {
      process.off("warning", onWarning);
    }
  });
});
