// Amp sends its model traffic through its own service, so it cannot be pointed at a mock: it is checked
// signed out only. Signed out, `amp -x` prints a login URL and waits for a code on stdin forever; scv gives
// it a closed stdin, and `--timeout` must end the turn with a failure and leave no process behind.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeRun, type Lab } from "./harness.js";
import { BIN, expectNothingLeft, named, newCanary, newLab, turnResult } from "./kit.js";
import { type MockServer, startMock } from "./mock/server.mjs";

describe.skipIf(BIN === undefined)("amp, signed out", () => {
  let lab: Lab;
  let trap: MockServer;

  beforeAll(async () => {
    trap = await startMock({ shape: "openai-chat" });
    lab = newLab("amp", newCanary(), trap);
  });

  afterAll(async () => {
    await trap?.close();
    await lab?.[Symbol.asyncDispose]();
  });

  it("status: installed, sign-in not checkable", async () => {
    const run = await lab.scv(["agents", "status", "amp", "--json"], { limitMs: 60_000 });
    expect(run.code, describeRun(run)).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ installed: true, state: "unknown" });
  });

  it("a turn does not hang on its login prompt: --timeout ends it with a failure, nothing left", async () => {
    const run = await lab.scv(["delegate", "amp", "hi", "--timeout", "20s", "--json"], { limitMs: 60_000 });
    const who = named("amp");
    expect(run.killed, `${who}: scv itself had to be killed\n${describeRun(run)}`).toBe(false);
    // 20 s of waiting, plus scv's grace period and start-up; never the harness's 60 s.
    expect(run.durationMs, describeRun(run)).toBeLessThan(40_000);
    const result = turnResult(run);
    // 124 today (scv cannot tell amp is signed out before it runs); 4 once scv recognises its login prompt.
    expect([4, 124], `${who}: expected a timeout or an auth failure\n${describeRun(run)}`).toContain(
      run.code,
    );
    expect(result.status).not.toBe("completed");
    expect(result.error, describeRun(run)).not.toBeNull();
    expect(run.stderr, describeRun(run)).toMatch(/^scv: amp /m);
    await expectNothingLeft(lab, "amp", "the signed-out amp turn");
    expect(trap.requests).toEqual([]);
  });
});
