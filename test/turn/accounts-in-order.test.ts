// The account ladder's pure parts and its cooldown store: which accounts a request goes through, how
// a CLI's reset words become an instant, and cooldowns kept on disk (0600, atomic) until they pass.

import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { formatDuration } from "../../src/duration.js";
import { ScvError } from "../../src/errors.js";
import { activeCooldown, coolDown, DEFAULT_COOLDOWN_MS, resetInstant } from "../../src/home/cooldowns.js";
import type { TurnResult } from "../../src/result.js";
import { timing } from "../../src/timing.js";
import { accountLadder, runOnAccounts } from "../../src/turn/accounts-in-order.js";

const NOW = Date.parse("2026-12-04T12:00:00.000Z");

describe("resetInstant", () => {
  it.each([
    ["2026-12-04T13:30:00.000Z", "2026-12-04T13:30:00.000Z"],
    ["1s", "2026-12-04T12:00:01.000Z"],
    ["90s", "2026-12-04T12:01:30.000Z"],
    ["2m", "2026-12-04T12:02:00.000Z"],
    // An instant already past: the account may be tried now.
    ["2026-12-04T11:00:00.000Z", "2026-12-04T12:00:00.000Z"],
  ])("%s", (said, instant) => {
    expect(resetInstant(said, NOW)).toBe(instant);
  });

  it.each([undefined, "Feb 7, 11am (Asia/Seoul)", "3:28 PM", "0s"])(
    "%s: the documented default from now",
    (said) => {
      expect(Date.parse(resetInstant(said, NOW)) - NOW).toBe(DEFAULT_COOLDOWN_MS);
    },
  );
});

describe("cooldowns", () => {
  let root: string;
  let env: Record<string, string>;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "scv-cooldowns-"));
    env = { SCV_HOME: join(root, "scv"), HOME: root };
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("keeps one per account, 0600, until its time has passed", () => {
    coolDown("codex", "work", { until: "2026-12-04T13:00:00.000Z", reason: "codex is rate limited" }, env);
    const file = join(root, "scv", "cooldowns", "codex@work.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(root, "scv", "cooldowns")).mode & 0o777).toBe(0o700);
    expect(activeCooldown("codex", "work", env, NOW)).toEqual({
      until: "2026-12-04T13:00:00.000Z",
      reason: "codex is rate limited",
    });
    expect(activeCooldown("codex", "personal", env, NOW)).toBeUndefined();
    expect(activeCooldown("codex", "work", env, Date.parse("2026-12-04T13:00:00.000Z"))).toBeUndefined();
    // Replaced whole, leaving no temporary file.
    coolDown("codex", "work", { until: "2026-12-04T14:00:00.000Z", reason: "again" }, env);
    expect(activeCooldown("codex", "work", env, NOW)?.until).toBe("2026-12-04T14:00:00.000Z");
    expect(readdirSync(join(root, "scv", "cooldowns"))).toEqual(["codex@work.json"]);
  });

  it("a damaged file counts as no cooldown", () => {
    coolDown("codex", "work", { until: "2026-12-04T13:00:00.000Z", reason: "x" }, env);
    writeFileSync(join(root, "scv", "cooldowns", "codex@work.json"), "{not json");
    expect(activeCooldown("codex", "work", env, NOW)).toBeUndefined();
  });
});

/** A home with no cooldowns in it. */
const NO_STATE = { env: { SCV_HOME: "/nonexistent/scv-home" } };

describe("accountLadder", () => {
  const config = { agents: { codex: { accounts: ["work", "personal"] } } };

  it("is the target's accounts, else the config's, else none", () => {
    expect(accountLadder({ agent: "codex", prompt: "p", accounts: ["a", "b"] }, config, NO_STATE)).toEqual([
      "a",
      "b",
    ]);
    expect(accountLadder({ agent: "codex", prompt: "p" }, config, NO_STATE)).toEqual(["work", "personal"]);
    expect(accountLadder({ agent: "claude", prompt: "p" }, config, NO_STATE)).toBeUndefined();
    // One account asked for by name (agents check codex@work) is that account alone.
    expect(accountLadder({ agent: "codex", prompt: "p", account: "work" }, config, NO_STATE)).toBeUndefined();
  });

  it("continues a conversation in its own account: no ladder, and several accounts are refused", () => {
    expect(accountLadder({ continue: "codex-abcdef", prompt: "p" }, config, NO_STATE)).toBeUndefined();
    expect(
      accountLadder({ continue: "codex-abcdef", prompt: "p", accounts: ["work"] }, config, NO_STATE),
    ).toBeUndefined();
    expect(() =>
      accountLadder(
        { continue: "codex-abcdef", prompt: "p", accounts: ["work", "personal"] },
        config,
        NO_STATE,
      ),
    ).toThrow(/a conversation belongs to the one account its session is in/);
  });

  it("refuses a name that is no slug, from wherever the request came", () => {
    const run = () => accountLadder({ agent: "codex", prompt: "p", accounts: ["../../etc"] }, {}, NO_STATE);
    expect(run).toThrow(ScvError);
    expect(run).toThrow("'../../etc' is not an account name");
  });
});

describe("runOnAccounts", () => {
  let root: string;
  let env: Record<string, string>;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "scv-ladder-"));
    env = { SCV_HOME: join(root, "scv"), HOME: root };
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  function result(exitCode: number, extra: Partial<TurnResult> = {}): TurnResult {
    return {
      reply: exitCode === 0 ? "hi" : "",
      status: exitCode === 0 ? "completed" : "failed",
      agent: "codex",
      conversation: null,
      session: null,
      usage: null,
      cost: null,
      duration: 1,
      exitCode,
      error: exitCode === 0 ? null : `failed with ${exitCode}`,
      hint: null,
      fallbacks: [],
      notes: [],
      mode: null,
      badLines: 0,
      ...extra,
    };
  }

  it("stops at the first answer, passing each limited or signed-out account over", async () => {
    const tried: (string | undefined)[] = [];
    const outcomes: Record<string, TurnResult> = {
      a: result(5, { resetsAt: "30s" }),
      b: result(4),
      c: result(0),
      d: result(0),
    };
    const answer = await runOnAccounts(
      { agent: "codex", prompt: "p" },
      ["a", "b", "c", "d"],
      { env, cwd: root, config: {} },
      async (request) => {
        tried.push(request.account);
        expect(request.accounts).toBeUndefined();
        return outcomes[request.account ?? ""] ?? result(1);
      },
    );
    expect(tried).toEqual(["a", "b", "c"]);
    expect(answer.account).toBe("c");
    expect(answer.skipped?.map((skip) => [skip.account, skip.reason])).toEqual([
      ["a", "rate-limited"],
      ["b", "signed-out"],
    ]);
    expect(activeCooldown("codex", "a", env)).toBeDefined();
    expect(activeCooldown("codex", "b", env)).toBeUndefined();
  });

  it("keeps why each account was skipped, and what its attempt noted, in the answer's notes", async () => {
    coolDown("codex", "a", { until: "2099-01-01T00:00:00.000Z", reason: "limit hit earlier" }, env);
    const outcomes: Record<string, TurnResult> = {
      b: result(5, {
        resetsAt: "2099-01-02T00:00:00.000Z",
        error: "codex is rate limited",
        notes: ["read b's last-message file"],
      }),
      c: result(4, { error: "codex is not signed in", notes: ["c noted this"] }),
      d: result(0, { notes: ["d's own note"] }),
    };
    const answer = await runOnAccounts(
      { agent: "codex", prompt: "p" },
      ["a", "b", "c", "d"],
      { env, cwd: root, config: {} },
      async (request) => outcomes[request.account ?? ""] ?? result(1),
    );
    expect(answer.account).toBe("d");
    expect(answer.notes).toEqual([
      "codex@a skipped: cooling until 2099-01-01T00:00:00.000Z (limit hit earlier)",
      "codex@b skipped: rate limited until 2099-01-02T00:00:00.000Z (codex is rate limited)",
      "codex@c skipped: not signed in (codex is not signed in)",
      "codex@b: read b's last-message file",
      "codex@c: c noted this",
      "d's own note",
    ]);
    expect(answer.skipped).toEqual([
      { account: "a", reason: "cooling", until: "2099-01-01T00:00:00.000Z", error: "limit hit earlier" },
      {
        account: "b",
        reason: "rate-limited",
        until: "2099-01-02T00:00:00.000Z",
        error: "codex is rate limited",
      },
      { account: "c", reason: "signed-out", error: "codex is not signed in" },
    ]);
  });

  it("keeps every attempt's notes when no account answers", async () => {
    const answer = await runOnAccounts(
      { agent: "codex", prompt: "p" },
      ["a", "b"],
      { env, cwd: root, config: {} },
      async (request) =>
        request.account === "a"
          ? result(5, { resetsAt: "2099-01-02T00:00:00.000Z", notes: ["a noted this"] })
          : result(4, { notes: ["b noted this"] }),
    );
    expect(answer.exitCode).toBe(5);
    expect(answer.notes).toEqual([
      "codex@a skipped: rate limited until 2099-01-02T00:00:00.000Z (failed with 5)",
      "codex@b skipped: not signed in (failed with 4)",
      "codex@a: a noted this",
      "codex@b: b noted this",
    ]);
  });

  it("ends another failure at once: it would fail the same way on the next account", async () => {
    const tried: (string | undefined)[] = [];
    const answer = await runOnAccounts(
      { agent: "codex", prompt: "p" },
      ["a", "b"],
      { env, cwd: root, config: {} },
      async (request) => {
        tried.push(request.account);
        return result(124);
      },
    );
    expect(tried).toEqual(["a"]);
    expect(answer).toMatchObject({ exitCode: 124, account: "a", skipped: [] });
  });

  it("every account signed out: the last refusal, each named", async () => {
    const answer = await runOnAccounts(
      { agent: "codex", prompt: "p" },
      ["a", "b"],
      { env, cwd: root, config: {} },
      async () => result(4),
    );
    expect(answer.exitCode).toBe(4);
    expect(answer.skipped?.map((skip) => skip.account)).toEqual(["a", "b"]);
  });

  it("a reset the CLI placed in the past does not make --wait-for-reset ask again and again", async () => {
    let tries = 0;
    const started = Date.now();
    // Twice the shortest wait for a reset (scaled in tests): at most a few tries, not one per tick.
    const waitForResetMs = 2 * timing("resetWaitMin");
    const answer = await runOnAccounts(
      { agent: "codex", prompt: "p", waitForResetMs },
      ["a"],
      { env, cwd: root, config: {} },
      async () => {
        tries += 1;
        return result(5, { resetsAt: "2020-01-01T00:00:00.000Z" });
      },
    );
    expect(answer.exitCode).toBe(5);
    expect(answer.error).toMatch(/^codex@a is rate limited \(limited until /);
    expect(answer.hint).toContain(`beyond --wait-for-reset ${formatDuration(waitForResetMs)}`);
    expect(tries).toBeLessThanOrEqual(4);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
