// Every exit code of `scv delegate` (124, 130 and 143 are in termination.test.ts), each with its one
// line "what happened — what to do" on stderr, never a stack trace.

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { turnResultShape } from "../../src/json-shapes.js";
import { useLab } from "../helpers/lab.js";
import { agentCalls, scv, signIn, type World } from "../helpers/scv.js";

let world: World;
useLab((created) => {
  world = created;
});

/** scv's own message: exactly one line, no stack. */
function oneLine(stderr: string): string {
  const lines = stderr.split("\n").filter((line) => line.startsWith("scv: "));
  expect(lines, stderr).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at /);
  return lines[0] ?? "";
}

describe("exit codes", () => {
  it("0 when the agent completed", async () => {
    expect((await scv(world, ["delegate", "gemini", "Say hi"])).exitCode).toBe(0);
  });

  it("1 when the agent failed, with its own error line", async () => {
    const run = await scv(world, ["delegate", "gemini", "Say hi"], { env: { FAKE_AGENT_MODE: "exit:1" } });
    expect(run.exitCode).toBe(1);
    expect(oneLine(run.stderr)).toBe(
      "scv: gemini failed: fake failure — check it with: scv agents check gemini",
    );
  });

  it("1 when the model is one the account cannot use (an API 403 or 404 naming it): pick another, not sign in", async () => {
    await signIn(world, "claude");
    const run = await scv(world, ["delegate", "claude:opus", "Say hi"], {
      env: { FAKE_AGENT_MODE: "fixture:model-denied" },
    });
    expect(run.exitCode).toBe(1);
    expect(oneLine(run.stderr)).toBe(
      "scv: claude cannot use the model opus: Failed to authenticate. API Error: 403 Your organization does not have access to model claude-mock-denied. (mock) — pick one it can use: scv delegate claude:<model> …, or [agents.claude] model in scv's config",
    );
    expect(run.stderr).toMatch(/^try instead: /m);
  });

  it("1 when Claude Code refuses its full mode to root, naming the sandbox variable its row gives", async () => {
    await signIn(world, "claude");
    const run = await scv(world, ["delegate", "claude", "--policy", "auto", "Say hi"], {
      env: { FAKE_AGENT_MODE: "fixture:root-bypass-refused" },
    });
    expect(run.exitCode).toBe(1);
    expect(oneLine(run.stderr)).toBe(
      "scv: claude refused its full-permission mode as root: --dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons — run scv as a non-root user, use --policy default, or inside a container or VM set IS_SANDBOX=1 for it (--env IS_SANDBOX=1, or [agents.claude.env] in scv's config)",
    );
    // scv never sets the variable itself.
    expect(agentCalls(world).at(-1)?.env.IS_SANDBOX).toBeUndefined();
  });

  it("5 when rate limited, with the wait the CLI suggests, its bracketed message whole", async () => {
    const run = await scv(world, ["delegate", "gemini", "Say hi"], {
      env: { FAKE_AGENT_MODE: "fixture:rate-limit" },
    });
    expect(run.exitCode).toBe(5);
    expect(oneLine(run.stderr)).toBe(
      "scv: gemini is rate limited: [API Error: You exceeded your current quota, please check your plan and billing details. (mock) Suggested retry after 1s.] — retry after 1s",
    );
  });

  describe("2: usage", () => {
    const cases: [string, string[], string][] = [
      [
        "an unknown agent",
        ["delegate", "codx", "hi"],
        "scv: unknown agent 'codx' — known: claude, claude-ai, codex, grok, dsh, pi, gemini, qwen, opencode, copilot, cursor, amp, kimi, cline, kilo, droid, auggie, qoder, crush",
      ],
      [
        "no prompt",
        ["delegate", "codex"],
        "scv: name an agent and a prompt — scv delegate <agent> <prompt | ->",
      ],
      [
        "a malformed model",
        ["delegate", "codex", "-m", "gpt 5", "hi"],
        "scv: 'gpt 5' is not a model id (1–128 of A-Z a-z 0-9 . _ : / @ [ ] -) — OpenAI model id from the Codex configuration, such as gpt-5.5.",
      ],
      [
        "an effort the agent lacks",
        ["delegate", "codex", "-e", "max", "hi"],
        "scv: 'max' is not an effort level of Codex — use one of: minimal, low, medium, high, xhigh",
      ],
      [
        "an effort for an agent that takes none",
        ["delegate", "gemini", "-e", "high", "hi"],
        "scv: Gemini CLI takes no effort level — omit --effort",
      ],
      [
        "an unknown conversation",
        ["delegate", "-c", "codex-zzzzzz", "hi"],
        "scv: no conversation 'codex-zzzzzz' — run: scv conversations list",
      ],
      [
        "a bad time limit",
        ["delegate", "codex", "--timeout", "soon", "hi"],
        "scv: --timeout 'soon' is not a duration — write a positive duration, e.g. 90s, 20m, 1h (at most 24d)",
      ],
      [
        "a time limit of no time: says what a limit is",
        ["delegate", "codex", "--timeout", "0s", "hi"],
        "scv: --timeout '0s' is no time at all — write a positive duration, e.g. 90s, 20m, 1h (at most 24d)",
      ],
      [
        "a time limit no timer can wait (a Node timer fires at once past 2^31 ms)",
        ["delegate", "gemini", "--timeout", "30d", "hi"],
        "scv: --timeout '30d' is longer than scv can wait — write at most 24d, or leave it out for no limit",
      ],
      [
        "an empty effort after the model",
        ["delegate", "claude:opus/", "hi"],
        "scv: 'claude:opus/' names an empty model or effort — write agent[:model][/effort]",
      ],
      [
        "--json with --events",
        ["delegate", "gemini", "--json", "--events", "hi"],
        "scv: --json and --events both choose what stdout carries — pass one of them",
      ],
      [
        "a bad --parallel with one agent",
        ["delegate", "gemini", "--parallel", "abc", "hi"],
        "scv: --parallel 'abc' is not a count — give a whole number from 1 to 64",
      ],
      [
        "a relative SCV_HOME",
        ["delegate", "gemini", "hi"],
        "scv: SCV_HOME 'rel/scv' is not an absolute path — set it to one, such as $HOME/.scv",
      ],
      [
        "a missing project folder",
        ["delegate", "gemini", "-C", "/nonexistent/project", "hi"],
        "scv: no directory /nonexistent/project — pass an existing project folder with --cwd",
      ],
      [
        "a prompt starting with '-' for a CLI without `--`",
        ["delegate", "cursor", "--", "-rf"],
        "scv: Cursor CLI would read a prompt starting with '-' as an option — reword its start (e.g. a leading space or word)",
      ],
      [
        "a misspelt effort after a model with a '/' of its own",
        ["delegate", "opencode:mock/mock-model/hgih", "hi"],
        "scv: 'opencode:mock/mock-model/hgih': did you mean opencode:mock/mock-model/high? efforts for opencode: minimal, low, medium, high, max",
      ],
      [
        "a '/' after a model whose ids have none",
        ["delegate", "claude:opus/bogus", "hi"],
        "scv: 'claude:opus/bogus': 'bogus' is not an effort level of claude — efforts for claude: low, medium, high, xhigh, max (a model id with that '/' goes in -m)",
      ],
      [
        "an agent without a one-turn command line",
        ["delegate", "kimi", "--transport", "process", "hi"],
        "scv: Kimi Code has no verified one-turn command line — use --transport acp (its default)",
      ],
    ];
    it.each(cases)("%s", async (what, args, message) => {
      const env = what === "a relative SCV_HOME" ? { SCV_HOME: "rel/scv" } : undefined;
      const run = await scv(world, args, { env });
      expect(run.exitCode).toBe(2);
      expect(oneLine(run.stderr)).toBe(message);
      expect(run.stdout).toBe("");
      expect(agentCalls(world)).toEqual([]);
    });

    it("continuing an agent that cannot resume", async () => {
      await signIn(world, "grok");
      const first = await scv(world, ["delegate", "grok", "--transport", "process", "--json", "hi"]);
      const handle = turnResultShape().parse(JSON.parse(first.stdout)).conversation ?? "";
      const run = await scv(world, ["delegate", "-c", handle, "again"]);
      expect(run.exitCode).toBe(2);
      expect(oneLine(run.stderr)).toBe(
        "scv: Grok Build cannot continue a conversation begun per turn — start a new one",
      );
    });

    it("a conversation whose stored session id is not the CLI's shape", async () => {
      const handle = "codex-abc123";
      const path = join(world.scvHome, "conversations", `${handle}.json`);
      mkdirSync(dirname(path), { recursive: true });
      const now = new Date().toISOString();
      writeFileSync(
        path,
        JSON.stringify({
          handle,
          agent: "codex",
          sessionId: "--dangerously-bypass-approvals-and-sandbox",
          cwd: world.project,
          policy: "default",
          createdAt: now,
          updatedAt: now,
          turns: 1,
        }),
      );
      const run = await scv(world, ["delegate", "-c", handle, "again"]);
      expect(run.exitCode).toBe(2);
      expect(oneLine(run.stderr)).toBe(
        "scv: '--dangerously-bypass-approvals-and-sandbox' is not a Codex session id — start a new conversation",
      );
      expect(agentCalls(world)).toEqual([]);
    });
  });

  it("3 when the CLI is not installed, with the install hint", async () => {
    const run = await scv(world, ["delegate", "codex", "hi"], { env: { PATH: "/nonexistent" } });
    expect(run.exitCode).toBe(3);
    expect(oneLine(run.stderr)).toBe(
      "scv: Codex is not installed ('codex' not found) — run: scv agents install codex (npm: @openai/codex)",
    );
  });

  it("3 with --json too, as a result object", async () => {
    const run = await scv(world, ["delegate", "codex", "--json", "hi"], { env: { PATH: "/nonexistent" } });
    expect(run.exitCode).toBe(3);
    expect(turnResultShape().parse(JSON.parse(run.stdout))).toMatchObject({
      status: "failed",
      agent: "codex",
      exitCode: 3,
      error: "Codex is not installed ('codex' not found)",
      hint: "run: scv agents install codex (npm: @openai/codex)",
    });
  });

  it("3 from `agents status <agent>` when its CLI is not installed, the row still on stdout; 0 for all agents", async () => {
    const run = await scv(world, ["agents", "status", "codex", "--json"], { env: { PATH: "/nonexistent" } });
    expect(run.exitCode).toBe(3);
    expect(JSON.parse(run.stdout)).toMatchObject({ agent: "codex", installed: false });
    expect(oneLine(run.stderr)).toBe(
      "scv: Codex is not installed — run: scv agents install codex (npm: @openai/codex)",
    );
    const all = await scv(world, ["agents", "status"], { env: { PATH: "/nonexistent" } });
    expect(all.exitCode).toBe(0);
    expect(all.stderr).toBe("");
  });

  it("4 when the key store says signed out, before spawning", async () => {
    const run = await scv(world, ["delegate", "claude", "hi"]);
    expect(run.exitCode).toBe(4);
    expect(oneLine(run.stderr)).toBe(
      "scv: Claude Code (API key) is not signed in (no API key stored) — run: scv agents login claude",
    );
    expect(agentCalls(world)).toEqual([]);
  });

  it("4 before spawning a codex with no auth.json: signed out, it would retry its network for minutes", async () => {
    const run = await scv(world, ["delegate", "codex", "hi"]);
    expect(run.exitCode).toBe(4);
    expect(oneLine(run.stderr)).toMatch(/^scv: Codex is not signed in \(.+\) — run: scv agents login codex$/);
    expect(agentCalls(world)).toEqual([]);
  });

  it("4 when the agent reports an authentication failure", async () => {
    await signIn(world, "claude");
    const run = await scv(world, ["delegate", "claude", "hi"], {
      env: { FAKE_AGENT_MODE: "fixture:auth-fail" },
    });
    expect(run.exitCode).toBe(4);
    expect(oneLine(run.stderr)).toMatch(
      /^scv: claude failed to authenticate: .+ — run: scv agents login claude$/,
    );
  });

  it("4 when Gemini CLI's API refuses its key: one readable line, not the response's JSON", async () => {
    const run = await scv(world, ["delegate", "gemini", "hi"], {
      env: { FAKE_AGENT_MODE: "fixture:auth-fail" },
    });
    expect(run.exitCode).toBe(4);
    expect(oneLine(run.stderr)).toBe(
      "scv: gemini failed to authenticate: API key not valid. Please pass a valid API key. (mock) (401 UNAUTHENTICATED) — run: scv agents login gemini",
    );
  });

  it("5 when the agent is rate limited", async () => {
    await signIn(world, "claude");
    const run = await scv(world, ["delegate", "claude", "hi"], {
      env: { FAKE_AGENT_MODE: "fixture:rate-limit" },
    });
    expect(run.exitCode).toBe(5);
    expect(oneLine(run.stderr)).toMatch(
      /^scv: claude is rate limited: .+ — (wait, then retry|retry after .+)$/,
    );
  });
});
