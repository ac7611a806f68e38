// Amp sends its model traffic through its own service, so it cannot be pointed at a mock: it is checked
// signed out only. Signed out, `amp -x` prints a login URL and waits for a code on stdin forever; scv reads
// the prompt as an auth failure and ends amp a moment later (exit 4, long before `--timeout`), leaving no
// process behind and never repeating the URL's one-time token.
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

  it("a turn does not hang on its login prompt: exit 4 in seconds with the login hint, nothing left", async () => {
    const run = await lab.scv(["delegate", "amp", "hi", "--timeout", "20s", "--json"], { limitMs: 60_000 });
    const who = named("amp");
    expect(run.killed, `${who}: scv itself had to be killed\n${describeRun(run)}`).toBe(false);
    // amp's start-up, its prompt, then scv's 2 s grace after the auth failure: well before the 20 s timeout.
    expect(run.durationMs, describeRun(run)).toBeLessThan(15_000);
    const result = turnResult(run);
    expect(run.code, `${who}: expected an auth failure\n${describeRun(run)}`).toBe(4);
    expect(result).toMatchObject({ status: "failed", exitCode: 4, hint: "run: scv agents login amp" });
    expect(result.error, describeRun(run)).toMatch(/^amp failed to authenticate: not signed in\b/);
    expect(run.stderr, describeRun(run)).toMatch(/^scv: amp /m);
    // The login URL carries a one-time token: scv must not repeat it.
    expect(`${run.stdout}${run.stderr}`, describeRun(run)).not.toMatch(/authToken|cli-login/);
    await expectNothingLeft(lab, "amp", "the signed-out amp turn");
    expect(trap.requests).toEqual([]);
  });
});
