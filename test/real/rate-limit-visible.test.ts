// A 429 with each CLI's own retry settings at their defaults, under a short --timeout: every retry
// shows as a plain line on a stderr that is no terminal (Gemini CLI says it only on its own stderr),
// and the timeout says the turn was waiting on a rate limit.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MOCK_SHAPE } from "./clis.js";
import { describeRun, type Lab } from "./harness.js";
import {
  agentToml,
  BIN,
  dummyKey,
  expectNothingLeft,
  named,
  newCanary,
  newLab,
  writeEndpoint,
} from "./kit.js";
import { type MockServer, startMock } from "./mock/server.mjs";
import { PROFILES } from "./profiles.js";

const SLOW = PROFILES.filter((profile) => profile.cli === "claude" || profile.cli === "gemini");

describe.skipIf(BIN === undefined).each(SLOW)("a 429 with default retries: $cli", (profile) => {
  const { cli } = profile;
  let trap: MockServer;
  let mock: MockServer;
  let lab: Lab;

  beforeAll(async () => {
    trap = await startMock({ shape: "openai-chat", text: "TRAP" });
    mock = await startMock({ shape: MOCK_SHAPE[cli] });
    const key = dummyKey(cli);
    lab = newLab(cli, newCanary(), trap);
    const endpoint = await writeEndpoint(lab, profile, mock, key, "defaults");
    lab.writeConfig(agentToml(cli, { model: endpoint.config.model }, endpoint.agentEnv));
    const login = await lab.scv(["agents", "login", cli, "--with-api-key"], { input: `${key}\n` });
    expect(login.code, describeRun(login)).toBe(0);
  });

  afterAll(async () => {
    await mock?.close();
    await trap?.close();
    await lab?.[Symbol.asyncDispose]();
  });

  it("one line per retry, then a timeout that names the rate limit", async () => {
    mock.setMode("429");
    const run = await lab.scv(["delegate", cli, "rate limit turn", "--timeout", "25s"], { limitMs: 90_000 });
    await expectNothingLeft(lab, cli, "the 429 turn");
    const retries = run.stderr
      .split("\n")
      .filter((line) => line.startsWith(`${cli} `) && / retrying /.test(line));
    console.log(`${named(cli)}: ${retries.length} retry lines in 25 s\n${retries.join("\n")}`);
    expect(run.code, describeRun(run)).toBe(124);
    expect(retries.length, describeRun(run)).toBeGreaterThanOrEqual(2);
    expect(retries[0], describeRun(run)).toMatch(new RegExp(`^${cli} \\d+s retrying \\d+(/\\d+)? in \\d`));
    expect(run.stderr, describeRun(run)).toContain(
      `scv: ${cli} timed out after 25s while waiting on a rate limit`,
    );
  });
});
