// A CLI waiting on a rate limit, seen from outside: Gemini CLI says so only on stderr (a real
// capture of 0.61.0 retrying a 429), and scv turns each notice into a retry event and, off a
// terminal, one plain progress line; a turn that runs out of time while waiting says so.

import { describe, expect, it } from "vitest";
import { eventLineSchema } from "../../src/events.js";
import { useLab } from "../helpers/lab.js";
import { survivors } from "../helpers/pids.js";
import { scv } from "../helpers/scv.js";

const lab = useLab();
const RETRYING = { FAKE_AGENT_MODE: "fixture-hang:rate-limit-retrying:2" };

describe("gemini retrying a 429", () => {
  it("one plain line per retry on a stderr that is no terminal, then the timeout says what it waited on", async () => {
    const pending = scv(lab.world, ["delegate", "gemini", "--timeout", "3s", "hi"], { env: RETRYING });
    const pids = await lab.pidsOf();
    const run = await pending;
    expect(run.exitCode, run.stderr).toBe(124);
    const retries = run.stderr.split("\n").filter((line) => / retrying /.test(line));
    expect(retries.map((line) => line.replace(/^gemini \d+s /, ""))).toEqual(
      [
        ["1", "5.4s"],
        ["2", "10s"],
        ["3", "23s"],
        ["4", "32s"],
      ].map(
        ([attempt, delay]) =>
          `retrying ${attempt} in ${delay}: You exceeded your current quota, please check your plan and billing details. (mock) Suggested retry after 1s.`,
      ),
    );
    expect(run.stderr).toContain(
      "scv: gemini timed out after 3s while waiting on a rate limit — raise --timeout (or [agents.gemini] timeout in scv's config), or try again later",
    );
    expect(await survivors(pids)).toEqual([]);
  });

  it("--events: a retry event per notice, with its attempt, delay and kind", async () => {
    const pending = scv(lab.world, ["delegate", "gemini", "--events", "--timeout", "3s", "hi"], {
      env: RETRYING,
    });
    await lab.pidsOf();
    const run = await pending;
    expect(run.exitCode, run.stderr).toBe(124);
    const lines = run.stdout
      .trim()
      .split("\n")
      .map((line) => eventLineSchema().parse(JSON.parse(line)));
    const retries = lines.flatMap((line) =>
      line.type === "retry" ? [{ attempt: line.attempt, delayMs: line.delayMs, kind: line.kind }] : [],
    );
    expect(retries).toEqual([
      { attempt: 1, delayMs: 5399, kind: "rate-limit" },
      { attempt: 2, delayMs: 10488, kind: "rate-limit" },
      { attempt: 3, delayMs: 23927, kind: "rate-limit" },
      { attempt: 4, delayMs: 32702, kind: "rate-limit" },
    ]);
    const last = lines.at(-1);
    expect(last?.type === "result" ? last.result.error : undefined).toBe(
      "gemini timed out after 3s while waiting on a rate limit",
    );
  });

  it("a turn whose last word was not a retry times out as before", async () => {
    const pending = scv(lab.world, ["delegate", "gemini", "--timeout", "2s", "hi"], {
      env: { FAKE_AGENT_MODE: "hang" },
    });
    await lab.pidsOf();
    const run = await pending;
    expect(run.exitCode).toBe(124);
    expect(run.stderr).toContain("scv: gemini timed out after 2s — raise --timeout");
  });
});
