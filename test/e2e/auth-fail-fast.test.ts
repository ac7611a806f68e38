// A refused credential ends the turn at the CLI's first retry of it: Claude Code retries a 401 ten
// times over four minutes, Codex five times. The fake CLIs print a real capture's lines up to that
// first retry and then wait, as the real ones wait to retry: scv exits 4 within seconds, with one
// line saying what to do, and leaves nothing running.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { eventLineSchema } from "../../src/events.js";
import { turnResultShape } from "../../src/json-shapes.js";
import { useLab } from "../helpers/lab.js";
import { survivors } from "../helpers/pids.js";
import { scv, signIn } from "../helpers/scv.js";

const lab = useLab();

/** scv's own message: exactly one line, no stack. */
function oneLine(stderr: string): string {
  const lines = stderr.split("\n").filter((line) => line.startsWith("scv: "));
  expect(lines, stderr).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at /);
  return lines[0] ?? "";
}

describe("a 401 the CLI would retry", () => {
  it("claude: exit 4 within seconds of its first api_retry 401, the whole group ended", async () => {
    await signIn(lab.world, "claude");
    const started = Date.now();
    // auth-fail's init and first api_retry (401), then silence: the real one sleeps to retry.
    const pending = scv(lab.world, ["delegate", "claude", "hi"], {
      env: { FAKE_AGENT_MODE: "fixture-hang:auth-fail:2" },
    });
    const pids = await lab.pidsOf();
    const run = await pending;
    const seconds = (Date.now() - started) / 1000;
    expect(run.exitCode, run.stderr).toBe(4);
    expect(seconds).toBeLessThan(10);
    expect(oneLine(run.stderr)).toBe(
      "scv: claude failed to authenticate: authentication_failed (401); ended at its first retry, as retrying cannot fix a refused credential — run: scv agents login claude",
    );
    expect(run.stdout).toBe("");
    expect(await survivors(pids)).toEqual([]);
  });

  it("codex: its first `Reconnecting... 1/5 (unexpected status 401 …)` ends it (--json)", async () => {
    await signIn(lab.world, "codex");
    const pending = scv(lab.world, ["delegate", "codex", "--json", "hi"], {
      env: { FAKE_AGENT_MODE: "fixture-hang:auth-fail:3" },
    });
    const pids = await lab.pidsOf();
    const run = await pending;
    expect(run.exitCode, run.stderr).toBe(4);
    const result = turnResultShape().parse(JSON.parse(run.stdout));
    expect(result).toMatchObject({ status: "failed", exitCode: 4, hint: "run: scv agents login codex" });
    expect(result.error).toMatch(/^codex failed to authenticate: unexpected status 401 Unauthorized: /);
    expect(await survivors(pids)).toEqual([]);
  });

  it("copilot with its own provider: the retried 401 ends it; the key is scv's config's", async () => {
    mkdirSync(lab.world.scvHome, { recursive: true });
    writeFileSync(
      join(lab.world.scvHome, "config.toml"),
      '[agents.copilot.env]\nCOPILOT_PROVIDER_BASE_URL = "http://127.0.0.1:9/v1"\nCOPILOT_PROVIDER_API_KEY = "sk-wrong"\n',
    );
    // Up to its first assistant.turn_retry after a BYOK 401.
    const pending = scv(lab.world, ["delegate", "copilot", "--events", "hi"], {
      env: { FAKE_AGENT_MODE: "fixture-hang:auth-fail:9" },
    });
    const pids = await lab.pidsOf();
    const run = await pending;
    expect(run.exitCode, run.stderr).toBe(4);
    const lines = run.stdout
      .trim()
      .split("\n")
      .map((line) => eventLineSchema().parse(JSON.parse(line)));
    const types = lines.map((line) => line.type);
    // The retry, the verdict as the turn's terminal error, then the result.
    expect(types.slice(-3)).toEqual(["retry", "error", "result"]);
    const last = lines.at(-1);
    expect(last?.type === "result" ? last.result.hint : undefined).toMatch(
      /^check COPILOT_PROVIDER_API_KEY in \[agents\.copilot\.env\]/,
    );
    expect(run.stdout).not.toContain("sk-wrong");
    expect(await survivors(pids)).toEqual([]);
  });

  it("gemini: its 401 (which it does not retry) is one readable line, not the API's JSON", async () => {
    const run = await scv(lab.world, ["delegate", "gemini", "hi"], {
      env: { FAKE_AGENT_MODE: "fixture:auth-fail" },
    });
    expect(run.exitCode, run.stderr).toBe(4);
    expect(oneLine(run.stderr)).toBe(
      "scv: gemini failed to authenticate: API key not valid. Please pass a valid API key. (mock) (401 UNAUTHENTICATED) — run: scv agents login gemini",
    );
  });

  it("a rate limit's retries are waited for: not a verdict", async () => {
    await signIn(lab.world, "claude");
    // claude's rate-limit capture up to its first api_retry 429, then silence, under a short limit.
    const pending = scv(lab.world, ["delegate", "claude", "--timeout", "3s", "hi"], {
      env: { FAKE_AGENT_MODE: "fixture-hang:rate-limit:2" },
    });
    await lab.pidsOf();
    const run = await pending;
    expect(run.exitCode, run.stderr).toBe(124);
    expect(run.stderr).toContain("claude 0s retrying 1/2 in 1.2s: rate_limit (429)");
    expect(run.stderr).toContain("scv: claude timed out after 3s while waiting on a rate limit (429) — ");
  });
});
