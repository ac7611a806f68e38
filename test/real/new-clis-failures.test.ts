// A refused key and a rate limit for the CLIs of issue 40 that reach the mock (Cline, Kilo Code,
// Factory Droid), each configured as new-clis.test.ts does (`base_url` and `api_key_env` in scv's
// config): a 401 is exit 4 with the hint naming the key's variable, a 429 exit 5 saying it is rate
// limited, and nothing is left running. One lab per CLI, so the 429 turn starts warm (Kilo's first
// start in a fresh home is most of its time). None of the three prints anything while it retries
// (captured, 429 with `retry-after: 1`): Cline and Kilo retry 5 times a second apart, Droid 4 times
// with its own backoff (6, 13, 35, 35 s; no setting found to lower it), then each reports the API's
// message: so there is no retry line to show, only the final one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeRun, type Lab } from "./harness.js";
import {
  BIN,
  dummyKey,
  expectNothingLeft,
  named,
  newCanary,
  newLab,
  turnResult,
  useEndpoint,
} from "./kit.js";
import { type MockServer, startMock } from "./mock/server.mjs";

const MOCKABLE = [
  { cli: "cline", timeout: "120s" },
  { cli: "kilo", timeout: "180s" },
  { cli: "droid", timeout: "180s" },
] as const;

describe.skipIf(BIN === undefined).each(MOCKABLE)("new CLI refused: $cli", ({ cli, timeout }) => {
  const who = named(cli);
  let trap: MockServer;
  let mock: MockServer;
  let lab: Lab;

  beforeAll(async () => {
    trap = await startMock({ shape: "openai-chat", text: "TRAP" });
    mock = await startMock({ shape: "openai-chat" });
    lab = newLab(`${cli}-refused`, newCanary(), trap);
    useEndpoint(lab, cli, mock, dummyKey(`${cli}-refused`));
  });

  afterAll(async () => {
    await mock?.close();
    await trap?.close();
    await lab?.[Symbol.asyncDispose]();
  });

  /** A turn against the mock answering every model call with `mode`. */
  async function refusedTurn(mode: "401" | "429") {
    mock.setMode(mode);
    const from = mock.requests.length;
    const started = Date.now();
    const run = await lab.scv(
      ["delegate", cli, `contract ${mode} turn for ${cli}`, "--json", "--timeout", timeout],
      {
        limitMs: 240_000,
      },
    );
    const seconds = (Date.now() - started) / 1000;
    await expectNothingLeft(lab, cli, `the ${mode} turn`);
    const refused = mock.requests.slice(from).filter((request) => request.status === Number(mode)).length;
    expect(trap.requests, `${who}: followed an endpoint exported in scv's environment`).toEqual([]);
    return { run, result: turnResult(run), refused, seconds };
  }

  it("a 401 from the endpoint: exit 4, the hint names the key's variable", async () => {
    const { run, result, refused, seconds } = await refusedTurn("401");
    console.log(`${who}: a 401 turn ended in ${seconds.toFixed(1)} s after ${refused} refused request(s)`);
    expect(refused, `${who}: the 401 turn never reached the mock\n${describeRun(run)}`).toBeGreaterThan(0);
    expect(run.code, `${who}: the 401 turn's exit\n${describeRun(run)}`).toBe(4);
    expect(result.status).toBe("failed");
    expect(result.error ?? "", describeRun(run)).toMatch(new RegExp(`^${cli} failed to authenticate`));
    expect(result.hint ?? "", describeRun(run)).toMatch(/^check the key in MY_ENDPOINT_KEY /);
    expect(run.stderr, describeRun(run)).toContain(`${result.error} — ${result.hint}`);
  }, 260_000);

  it("a 429 from the endpoint: exit 5, rate limited", async () => {
    const { run, result, refused, seconds } = await refusedTurn("429");
    const retries = run.stderr
      .split("\n")
      .filter((line) => line.startsWith(`${cli} `) && / retrying /.test(line));
    console.log(
      `${who}: a 429 turn ended in ${seconds.toFixed(1)} s after ${refused} refused request(s), ${retries.length} retry line(s)\n${retries.join("\n")}`,
    );
    expect(refused, `${who}: the 429 turn never reached the mock\n${describeRun(run)}`).toBeGreaterThan(0);
    expect(run.code, `${who}: the 429 turn's exit\n${describeRun(run)}`).toBe(5);
    expect(result.status).toBe("failed");
    expect(result.error ?? "", describeRun(run)).toMatch(new RegExp(`^${cli} is rate limited`));
    expect(result.hint ?? "", describeRun(run)).toMatch(/^(wait, then retry|retry after )/);
  }, 260_000);
});
