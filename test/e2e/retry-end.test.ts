// A CLI is not finished until its last retry is. pi reports a failed attempt's `agent_end` (with
// stopReason error) before `auto_retry_start`, then waits out its backoff in silence and tries again:
// the fake pi replays the real captures of that, pausing after the first retry notice for longer
// than scv's end-of-turn grace. A recovered turn is completed with only its reply; one whose retries
// run out fails once, as a rate limit.

import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DURATIONS } from "../../src/timing.js";
import { useLab } from "../helpers/lab.js";
import { scv, signIn } from "../helpers/scv.js";

const lab = useLab();

/** Past the grace, so that only a withdrawn end keeps the turn going. */
const BACKOFF = {
  FAKE_AGENT_PAUSE_AFTER: '"auto_retry_start"',
  FAKE_AGENT_PAUSE_MS: String(DURATIONS.endGrace + 1_000),
};

function scvLines(stderr: string): string[] {
  return stderr.split("\n").filter((line) => line.startsWith("scv: "));
}

/** Processes still running with this world's fake-agent folder in their environment. */
function leftInWorld(): number[] {
  const mark = `FAKE_AGENT_DIR=${lab.world.calls}\0`;
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        return `${readFileSync(`/proc/${name}/environ`, "latin1")}\0`.includes(mark);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe("pi retrying a 429", () => {
  it("recovered after its backoff: exit 0 and only the final reply", async () => {
    await signIn(lab.world, "pi");
    const run = await scv(lab.world, ["delegate", "pi", "Say hi"], {
      env: { FAKE_AGENT_MODE: "fixture:retry-recovered", ...BACKOFF },
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toBe("MOCK-REPLY-1\n");
    expect(scvLines(run.stderr)).toEqual([]);
    expect(leftInWorld()).toEqual([]);
  });

  it("--json: completed, with no failure from the attempt it retried", async () => {
    await signIn(lab.world, "pi");
    const run = await scv(lab.world, ["delegate", "pi", "--json", "Say hi"], {
      env: { FAKE_AGENT_MODE: "fixture:retry-recovered", ...BACKOFF },
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      status: "completed",
      exitCode: 0,
      reply: "MOCK-REPLY-1",
      error: null,
    });
  });

  it("retries exhausted: exit 5 with one line, no reply", async () => {
    await signIn(lab.world, "pi");
    const run = await scv(lab.world, ["delegate", "pi", "Say hi"], {
      env: { FAKE_AGENT_MODE: "fixture:retry-exhausted", ...BACKOFF },
    });
    expect(run.exitCode, run.stderr).toBe(5);
    expect(run.stdout).toBe("");
    const lines = scvLines(run.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^scv: pi is rate limited: 429 Rate limit reached for requests .*\(mock\) — /);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
