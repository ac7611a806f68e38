// A 429 with each CLI's own retry settings at their defaults, under a short --timeout: every retry
// shows as a plain line on a stderr that is no terminal (Gemini CLI says it only on its own stderr),
// and the timeout says the turn was waiting on a rate limit.
import { describe, expect, it } from "vitest";
import { describeRun } from "./harness.js";
import { BIN, expectNothingLeft, named, signedInPerSuite } from "./kit.js";
import { PROFILES } from "./profiles.js";

const SLOW = PROFILES.filter((profile) => profile.cli === "claude" || profile.cli === "gemini");

describe.skipIf(BIN === undefined).each(SLOW)("a 429 with default retries: $cli", (profile) => {
  const { cli } = profile;
  const suite = signedInPerSuite(profile, "defaults");

  it("one line per retry, then a timeout that names the rate limit", async () => {
    const { lab, mock } = suite;
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
