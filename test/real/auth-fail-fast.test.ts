// A refused credential, with each CLI's own retry settings left at their defaults: Claude Code would
// retry a 401 ten times over four minutes (measured directly: still retrying at 40 s, 7 requests).
// scv ends the turn at the first retry of it: exit 4 within seconds, the sign-in hint, nothing left
// running. Codex 0.171 with scv's api-key sign-in fails a 401 at once by itself.
import { describe, expect, it } from "vitest";
import { eventLineSchema } from "../../src/events.js";
import { describeRun } from "./harness.js";
import { BIN, expectNothingLeft, named, signedInPerSuite } from "./kit.js";
import { PROFILES } from "./profiles.js";

/** The CLIs that retry a 401 (the others fail on it at once). */
const RETRYING = PROFILES.filter((profile) => profile.cli === "claude" || profile.cli === "codex");

describe.skipIf(BIN === undefined).each(RETRYING)("a 401 with default retries: $cli", (profile) => {
  const { cli } = profile;
  const suite = signedInPerSuite(profile, "defaults");

  it("ends at the first retry: exit 4 within seconds, the sign-in hint", async () => {
    const { lab, mock } = suite;
    mock.setMode("401");
    const started = Date.now();
    const run = await lab.scv(["delegate", cli, "auth fail-fast turn", "--events", "--timeout", "5m"], {
      limitMs: 330_000,
    });
    const seconds = (Date.now() - started) / 1000;
    await expectNothingLeft(lab, cli, "the 401 turn");
    const lines = run.stdout
      .trim()
      .split("\n")
      .map((line) => eventLineSchema().parse(JSON.parse(line)));
    const last = lines.at(-1);
    const result = last?.type === "result" ? last.result : undefined;
    console.log(`${named(cli)}: a 401 turn with default retries ended in ${seconds.toFixed(1)} s`);
    expect(run.code, describeRun(run)).toBe(4);
    expect(result?.hint, describeRun(run)).toBe(`run: scv agents login ${cli}`);
    const retries = lines.filter((line) => line.type === "retry");
    if (profile.cli === "claude") {
      // Claude Code retries a 401 ten times (4+ minutes): its first retry is the end.
      expect(
        retries.map((line) => line.type === "retry" && line.kind),
        describeRun(run),
      ).toEqual(["auth"]);
      expect(result?.error ?? "", describeRun(run)).toMatch(/ended at its first retry/);
    } else {
      // Codex retries a 401 of some providers (the lab's capture: Reconnecting 1/5 …); never a second.
      expect(retries.length, describeRun(run)).toBeLessThanOrEqual(1);
    }
    expect(seconds, describeRun(run)).toBeLessThan(30);
  });
});
