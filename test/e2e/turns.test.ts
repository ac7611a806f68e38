// First and continued turns through the built scv, against fake CLIs that follow the real grammars
// and replay the lab's captures.

import { statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { turnResultShape } from "../../src/json-shapes.js";
import { useLab } from "../helpers/lab.js";
import { agentCalls, conversationRecord, onlyCall, scv, signIn, type World } from "../helpers/scv.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CODEX_THREAD = "01a23648-e58b-7653-a8e1-80985ae37ee1";
const PI_SESSION = "01a23649-3e3c-7680-be58-664ee3a8aca0";

let world: World;
useLab((created) => {
  world = created;
});

/** The handle from the stderr line printed after the reply. */
function handleIn(stderr: string): string {
  const handle = /^conversation: ([a-z-]+-[0-9a-z]{6}) — continue with: scv delegate -c \1 "…"$/m.exec(
    stderr,
  )?.[1];
  if (handle === undefined) throw new Error(`no conversation line in: ${stderr}`);
  return handle;
}

describe("claude", () => {
  it("runs a first turn under a session id scv minted, then continues it", async () => {
    await signIn(world, "claude");
    const first = await scv(world, ["delegate", "claude", "Say hi"]);
    expect(first.stderr).not.toContain("scv:");
    expect(first.exitCode).toBe(0);
    expect(first.stdout).toBe("MOCK-REPLY-1\n");
    const call = onlyCall(world);
    const session = call.argv[call.argv.indexOf("--session-id") + 1] ?? "";
    expect(session).toMatch(UUID);
    expect(call.argv).toEqual([
      "-p",
      "--strict-mcp-config",
      "--output-format",
      "stream-json",
      "--verbose",
      "--session-id",
      session,
      "Say hi",
    ]);
    expect(call.cwd).toBe(world.project);
    expect(call.stdin).toBe("null");

    const handle = handleIn(first.stderr);
    expect(handle).toMatch(/^claude-[0-9a-z]{6}$/);
    const record = conversationRecord(world, handle);
    expect(record).toMatchObject({
      handle,
      agent: "claude",
      sessionId: session,
      cwd: world.project,
      policy: "default",
      turns: 1,
      lastPrompt: "Say hi",
      lastStatus: "completed",
    });
    expect(statSync(join(world.scvHome, "conversations", `${handle}.json`)).mode & 0o777).toBe(0o600);

    const second = await scv(world, ["delegate", "-c", handle, "Say hi again"]);
    expect(second.stderr).not.toContain("scv:");
    expect(second.exitCode).toBe(0);
    expect(second.stdout).toBe("MOCK-REPLY-2\n");
    const resumed = agentCalls(world)[1];
    expect(resumed?.argv).toEqual([
      "-p",
      "--strict-mcp-config",
      "--output-format",
      "stream-json",
      "--verbose",
      "--resume",
      session,
      "Say hi again",
    ]);
    expect(handleIn(second.stderr)).toBe(handle);
    expect(conversationRecord(world, handle)).toMatchObject({
      sessionId: session,
      turns: 2,
      lastPrompt: "Say hi again",
    });
  });

  it("passes model, effort and full permissions as the CLI spells them; later turns keep the first one's model and effort, never its policy", async () => {
    await signIn(world, "claude");
    const first = await scv(world, ["delegate", "claude:sonnet/high", "--policy", "auto", "Say hi"]);
    expect(first.exitCode).toBe(0);
    const call = onlyCall(world);
    const session = call.argv[call.argv.indexOf("--session-id") + 1] ?? "";
    expect(call.argv).toEqual([
      "-p",
      "--strict-mcp-config",
      "--permission-mode",
      "bypassPermissions",
      "--output-format",
      "stream-json",
      "--verbose",
      "--model",
      "sonnet",
      "--effort",
      "high",
      "--session-id",
      session,
      "Say hi",
    ]);
    const handle = handleIn(first.stderr);
    expect(conversationRecord(world, handle)).toMatchObject({
      model: "sonnet",
      effort: "high",
      policy: "auto",
    });

    // -m and --policy on a continued turn are that turn's only; the policy is never carried over.
    const resumed = (model: string, prompt: string, auto = false) => [
      "-p",
      "--strict-mcp-config",
      ...(auto ? ["--permission-mode", "bypassPermissions"] : []),
      "--output-format",
      "stream-json",
      "--verbose",
      "--model",
      model,
      "--effort",
      "high",
      "--resume",
      session,
      prompt,
    ];
    const second = await scv(world, ["delegate", "-c", handle, "-m", "opus", "Again"]);
    expect(second.exitCode).toBe(0);
    expect(agentCalls(world)[1]?.argv).toEqual(resumed("opus", "Again"));
    expect(conversationRecord(world, handle)).toMatchObject({ model: "sonnet", effort: "high", turns: 2 });

    const third = await scv(world, ["delegate", "-c", handle, "--policy", "auto", "Third"]);
    expect(third.exitCode).toBe(0);
    expect(agentCalls(world)[2]?.argv).toEqual(resumed("sonnet", "Third", true));

    const fourth = await scv(world, ["delegate", "-c", handle, "Fourth"]);
    expect(fourth.exitCode).toBe(0);
    expect(agentCalls(world)[3]?.argv).toEqual(resumed("sonnet", "Fourth"));
    expect(conversationRecord(world, handle)).toMatchObject({
      model: "sonnet",
      effort: "high",
      policy: "auto",
      turns: 4,
    });

    // `conversations show` says what the next turn uses.
    const shown = await scv(world, ["conversations", "show", handle, "--json"]);
    expect(JSON.parse(shown.stdout).next).toEqual({
      agent: "claude",
      account: "default",
      cwd: world.project,
      model: "sonnet",
      effort: "high",
      policy: "default",
    });
    const text = await scv(world, ["conversations", "show", handle]);
    expect(text.stdout).toContain(
      "next turn    model sonnet · effort high · policy default (--policy auto to ask again)\n",
    );
  });

  it("takes the policy from the agent's config section", async () => {
    await signIn(world, "claude");
    const config = join(world.root, "config.toml");
    await import("node:fs").then((fs) =>
      fs.writeFileSync(
        config,
        `[defaults]\npolicy = "default"\n[agents.claude]\npolicy = "auto"\nmodel = "haiku"\n`,
      ),
    );
    const run = await scv(world, ["delegate", "claude", "Say hi"], { env: { SCV_CONFIG: config } });
    expect(run.exitCode).toBe(0);
    expect(onlyCall(world).argv).toEqual(expect.arrayContaining(["--permission-mode", "bypassPermissions"]));
    expect(onlyCall(world).argv).toEqual(expect.arrayContaining(["--model", "haiku"]));
  });

  it("names the config file and key of a model or effort it cannot take, not a flag", async () => {
    await signIn(world, "claude");
    const { writeFileSync } = await import("node:fs");
    const config = join(world.root, "config.toml");
    const cases: [string, string][] = [
      [
        'effort = "hihg"',
        "agents.claude.effort: 'hihg' is not an effort level of Claude Code (API key) — did you mean high? use one of: low, medium, high, xhigh, max; or remove it",
      ],
      ['model = "bad model"', "agents.claude.model: 'bad model' is not a model id"],
    ];
    for (const [line, message] of cases) {
      writeFileSync(config, `[agents.claude]\n${line}\n`);
      const run = await scv(world, ["delegate", "claude", "Say hi"], { env: { SCV_CONFIG: config } });
      expect([run.exitCode, run.stdout]).toEqual([2, ""]);
      expect(run.stderr).toContain(`scv: ${config}: ${message}`);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
    }
    // Given on the command line, the same value is the flag's to fix.
    writeFileSync(config, "[agents.claude]\n");
    const flag = await scv(world, ["delegate", "claude", "--effort", "hihg", "Say hi"], {
      env: { SCV_CONFIG: config },
    });
    expect([flag.exitCode, flag.stderr]).toEqual([
      2,
      "scv: 'hihg' is not an effort level of Claude Code (API key) — did you mean high? use one of: low, medium, high, xhigh, max\n",
    ]);
  });
});

describe("codex", () => {
  it("runs a first turn, keeps the thread id from the stream, and continues with exec resume", async () => {
    await signIn(world, "codex");
    const first = await scv(world, ["delegate", "codex", "Say hi"]);
    expect(first.exitCode).toBe(0);
    expect(first.stdout).toBe("MOCK-REPLY-1\n");
    const call = onlyCall(world);
    const lastMessage = call.argv[call.argv.indexOf("-o") + 1] ?? "";
    // The -o file lives in the agent's private home and is gone after the turn.
    expect(lastMessage.startsWith(join(world.scvHome, "agents", "codex", ".scv"))).toBe(true);
    expect(call.argv).toEqual(["exec", "--skip-git-repo-check", "--json", "-o", lastMessage, "Say hi"]);
    expect(call.stdin).toBe("null");

    const handle = handleIn(first.stderr);
    expect(conversationRecord(world, handle)).toMatchObject({
      agent: "codex",
      sessionId: CODEX_THREAD,
      turns: 1,
    });

    const second = await scv(world, ["delegate", "-c", handle, "Say hi again"]);
    expect(second.exitCode).toBe(0);
    expect(second.stdout).toBe("MOCK-REPLY-2\n");
    const resumed = agentCalls(world)[1];
    const resumedFile = resumed?.argv[(resumed?.argv.indexOf("-o") ?? 0) + 1] ?? "";
    expect(resumed?.argv).toEqual([
      "exec",
      "resume",
      "--skip-git-repo-check",
      "--json",
      "-o",
      resumedFile,
      CODEX_THREAD,
      "Say hi again",
    ]);
    expect(conversationRecord(world, handle)).toMatchObject({ sessionId: CODEX_THREAD, turns: 2 });
  });
});

describe("pi", () => {
  it("runs a first turn, keeps the session id of its first line, and continues with --session", async () => {
    await signIn(world, "pi");
    const first = await scv(world, ["delegate", "pi", "Say hi"]);
    expect(first.exitCode).toBe(0);
    expect(first.stdout).toBe("MOCK-REPLY-1\n");
    // The prompt goes on pi's stdin (test/e2e/prompt-verbatim.test.ts).
    expect(onlyCall(world).argv).toEqual(["-p", "--mode", "json"]);
    expect(onlyCall(world).env.PI_CODING_AGENT_DIR).toBe(join(world.scvHome, "agents", "pi", ".pi", "agent"));

    const handle = handleIn(first.stderr);
    expect(conversationRecord(world, handle)).toMatchObject({ agent: "pi", sessionId: PI_SESSION, turns: 1 });

    const second = await scv(world, ["delegate", "-c", handle, "Say hi again"]);
    expect(second.exitCode).toBe(0);
    expect(second.stdout).toBe("MOCK-REPLY-2\n");
    expect(agentCalls(world)[1]?.argv).toEqual(["-p", "--mode", "json", "--session", PI_SESSION]);
    expect(conversationRecord(world, handle)).toMatchObject({ turns: 2 });
  });
});

describe("output", () => {
  it("prints only the reply on stdout for a plain-text agent, and the handle on stderr after it", async () => {
    await signIn(world, "grok");
    const run = await scv(world, ["delegate", "grok", "--transport", "process", "Say hi"], {
      env: { FAKE_AGENT_MODE: "echo" },
    });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe("REPLY: Say hi\n");
    // Grok cannot continue conversations, so no continue hint is printed.
    expect(run.stderr).toBe("");
  });

  it("reads the prompt from stdin with '-'", async () => {
    await signIn(world, "dsh");
    const prompt = "line one\nline two — ünïcode\n";
    const run = await scv(world, ["delegate", "dsh", "--transport", "process", "-"], {
      input: prompt,
      env: { FAKE_AGENT_MODE: "echo" },
    });
    expect(run.exitCode).toBe(0);
    expect(onlyCall(world).argv).toEqual(["--profile", "headless", prompt]);
  });

  it("passes a prompt starting with '-' after `--` (given to scv after its own `--`)", async () => {
    await signIn(world, "claude");
    const run = await scv(world, ["delegate", "claude", "--", "--help me"]);
    expect(run.exitCode).toBe(0);
    expect(onlyCall(world).argv.slice(-2)).toEqual(["--", "--help me"]);
  });

  it("prints one JSON object with --json that parses with the exported schema", async () => {
    await signIn(world, "grok");
    const run = await scv(world, ["delegate", "grok", "--transport", "process", "--json", "Say hi"], {
      env: { FAKE_AGENT_MODE: "echo" },
    });
    expect(run.exitCode).toBe(0);
    const result = turnResultShape().parse(JSON.parse(run.stdout));
    expect(result).toMatchObject({
      reply: "REPLY: Say hi",
      status: "completed",
      agent: "grok",
      session: null,
      exitCode: 0,
      error: null,
      hint: null,
      badLines: 0,
    });
    expect(result.conversation).toMatch(/^grok-[0-9a-z]{6}$/);
    expect(run.stdout.trim().split("\n")).toHaveLength(1);
  });

  it("runs in the --cwd it is given, relative to scv's own", async () => {
    await signIn(world, "grok");
    await import("node:fs").then((fs) => fs.mkdirSync(join(world.project, "sub")));
    const run = await scv(world, ["delegate", "grok", "--transport", "process", "-C", "sub", "Say hi"], {
      env: { FAKE_AGENT_MODE: "echo" },
    });
    expect(run.exitCode).toBe(0);
    expect(onlyCall(world).cwd).toBe(join(world.project, "sub"));
  });

  it("continues in the conversation's cwd wherever scv runs from", async () => {
    await signIn(world, "claude");
    const first = await scv(world, ["delegate", "claude", "Say hi"]);
    const handle = handleIn(first.stderr);
    const second = await scv(world, ["delegate", "-c", handle, "Again"], { cwd: world.root });
    expect(second.exitCode).toBe(0);
    expect(agentCalls(world)[1]?.cwd).toBe(world.project);
  });
});
