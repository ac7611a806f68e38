// A CLI waiting on a rate limit, seen from outside: Gemini CLI says so only on stderr (a real
// capture of 0.61.0 retrying a 429), and scv turns each notice into a retry event and, off a
// terminal, one plain progress line; a turn that runs out of time while waiting says so.

import { describe, expect, it } from "vitest";
import { eventLineSchema } from "../../src/events.js";
import { useLab } from "../helpers/lab.js";
import { survivors } from "../helpers/pids.js";
import { scv, signIn } from "../helpers/scv.js";

const lab = useLab();

/** `--events` output, each line checked against the schema. */
function eventsOf(stdout: string) {
  return stdout
    .trim()
    .split("\n")
    .map((line) => eventLineSchema().parse(JSON.parse(line)));
}
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
    const lines = eventsOf(run.stdout);
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

// Real captures of Codex 0.171.0 and OpenCode 1.18.33 whose endpoint is a closed loopback port
// (test/fixtures/*/unreachable.json): neither ever ends by itself.
describe("a CLI that cannot reach its endpoint", () => {
  it("codex reconnecting 'waiting for network': the timeout says it could not reach its endpoint", async () => {
    await signIn(lab.world, "codex");
    const pending = scv(lab.world, ["delegate", "codex", "--timeout", "3s", "hi"], {
      env: { FAKE_AGENT_MODE: "fixture-hang:unreachable:6" },
    });
    const pids = await lab.pidsOf();
    const run = await pending;
    expect(run.exitCode, run.stderr).toBe(124);
    expect(run.stderr).toContain(
      "scv: codex could not reach its endpoint in 3s, and scv ended it (Connection failed: error sending request) — check this machine's network and proxy, and the endpoint codex is set to use\n",
    );
    expect(run.stderr).not.toContain("raise --timeout");
    expect(await survivors(pids)).toEqual([]);
  });

  it("opencode with no provider of its own (its default model), retrying silently: its stderr log says why", async () => {
    const pending = scv(lab.world, ["delegate", "opencode", "--events", "--timeout", "3s", "hi"], {
      env: { FAKE_AGENT_MODE: "fixture-hang:unreachable-default-model:0" },
    });
    await lab.pidsOf();
    const run = await pending;
    expect(run.exitCode, run.stderr).toBe(124);
    const lines = eventsOf(run.stdout);
    const retries = lines.filter((line) => line.type === "retry");
    expect(retries.map((line) => line.type === "retry" && line.kind)).toEqual(Array(5).fill("unreachable"));
    const last = lines.at(-1);
    expect(last?.type === "result" ? [last.result.error, last.result.hint] : undefined).toEqual([
      "opencode could not reach its endpoint in 3s, and scv ended it (opencode/big-pickle: Unable to connect. Is the computer able to access the url?)",
      "check this machine's network and proxy, and the endpoint opencode is set to use",
    ]);
  });
});
