// Several agents in one `scv delegate`, through the built scv: concurrent and bounded, each in its
// own conversation, replies under headers in the order given, one JSON array, the first failure's
// exit code with one summary line, and every agent ended on Ctrl-C.

import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { turnResultShape } from "../../src/json-shapes.js";
import { useLab } from "../helpers/lab.js";
import { survivors } from "../helpers/pids.js";
import { agentCalls, agentPids, conversationRecord, scv, signIn, startScv } from "../helpers/scv.js";

const lab = useLab();

/** When each fake agent started (its call file is named after Date.now()), in order. */
function callTimes(): number[] {
  return readdirSync(lab.world.calls)
    .filter((name) => name.endsWith(".json") && !name.startsWith("pids"))
    .map((name) => Number(name.split("-").at(-2)))
    .sort((a, b) => a - b);
}

function runningTurns(): string[] {
  const dir = join(lab.world.scvHome, "turns");
  return existsSync(dir) ? readdirSync(dir).filter((name) => /^[a-z-]+-[0-9a-z]{6}\.json$/.test(name)) : [];
}

describe("scv delegate <agent>… <prompt>", () => {
  it("runs each agent in its own conversation and prints the replies under headers, in the order given", async () => {
    await signIn(lab.world, "claude");
    await signIn(lab.world, "pi");
    const run = await scv(lab.world, ["delegate", "claude", "pi", "gemini", "Say hi"], {
      env: { FAKE_AGENT_MODE: "reply" },
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const headers = [...run.stdout.matchAll(/^=== ([a-z]+) \(([a-z]+-[0-9a-z]{6})\) · 1 line ===$/gm)];
    expect(headers.map((match) => match[1])).toEqual(["claude", "pi", "gemini"]);
    const [claude, pi, gemini] = headers.map((match) => match[2] ?? "");
    expect(run.stdout).toBe(
      `=== claude (${claude}) · 1 line ===\nREPLY Say hi\n\n=== pi (${pi}) · 1 line ===\nREPLY Say hi\n\n=== gemini (${gemini}) · 1 line ===\nMOCK-REPLY-1\n`,
    );
    for (const handle of [claude, pi, gemini]) {
      expect(conversationRecord(lab.world, handle ?? "")).toMatchObject({
        turns: 1,
        lastStatus: "completed",
      });
    }
    // A start and an end line per turn on stderr, nothing prefixed "scv:" (no failure).
    expect(run.stderr).not.toContain("scv:");
    expect(run.stderr).toContain(`[1/3] ${claude}: claude started\n`);
    expect(run.stderr).toMatch(new RegExp(`\\[3/3\\] ${gemini}: gemini done in \\d+s`));
    expect(runningTurns()).toEqual([]);
  });

  it("--events ends with a result line for every turn, also one that never started", async () => {
    await signIn(lab.world, "pi");
    const config = join(lab.world.root, "config.toml");
    writeFileSync(config, '[agents.gemini]\ncommand = "/nonexistent/gemini"\n');
    const run = await scv(lab.world, ["delegate", "pi", "gemini", "--events", "Say hi"], {
      env: { SCV_CONFIG: config },
    });
    expect(run.exitCode).toBe(3);
    const lines = run.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const results = lines.filter((line) => line.type === "result");
    const exitOf = (line: Record<string, unknown>) => (line.result as { exitCode: number }).exitCode;
    expect(results.map((line) => [line.agent, exitOf(line)]).sort()).toEqual([
      ["gemini", 3],
      ["pi", 0],
    ]);
  });

  it("gives -m to agents without a model of their own; agent:model/effort wins", async () => {
    await signIn(lab.world, "claude");
    const run = await scv(lab.world, ["delegate", "-m", "sonnet", "claude:opus/high", "claude", "Say hi"]);
    expect(run.exitCode, run.stderr).toBe(0);
    const argvs = agentCalls(lab.world).map((call) => call.argv);
    const models = argvs.map((argv) => argv[argv.indexOf("--model") + 1]).sort();
    expect(models).toEqual(["opus", "sonnet"]);
    const opus = argvs.find((argv) => argv.includes("opus")) ?? [];
    expect(opus[opus.indexOf("--effort") + 1]).toBe("high");
  });

  it("--json prints one array in the given order; the exit code is the first failure's; one summary line says which and why", async () => {
    await signIn(lab.world, "pi");
    // claude is not signed in (exit 4); gemini is told to fail (exit 1).
    const run = await scv(lab.world, ["delegate", "--json", "pi", "claude", "gemini", "Say hi"], {
      env: { FAKE_AGENT_MODE: "exit:1" },
    });
    const results = (JSON.parse(run.stdout) as unknown[]).map((value) => turnResultShape().parse(value));
    expect(results.map((result) => [result.agent, result.exitCode])).toEqual([
      ["pi", 1],
      ["claude", 4],
      ["gemini", 1],
    ]);
    expect(run.exitCode).toBe(1);
    const summary = run.stderr.split("\n").filter((line) => line.startsWith("scv:"));
    expect(summary).toHaveLength(1);
    expect(summary[0]).toMatch(
      /^scv: 3 of 3 turns failed — pi \(pi-[0-9a-z]{6}, not recorded\): pi failed.*; claude \(claude-[0-9a-z]{6}, not recorded\): Claude Code .*not signed in.*; gemini \(gemini-[0-9a-z]{6}, not recorded\): gemini failed/,
    );
  });

  it("exits with the first failure in the order given, not the first to end", async () => {
    // gemini times out after 2s (124); claude, not signed in, fails at once (4).
    const run = await scv(lab.world, ["delegate", "gemini", "claude", "--timeout", "2s", "Say hi"], {
      env: { FAKE_AGENT_MODE: "hang" },
    });
    expect(run.exitCode).toBe(124);
    expect(run.stderr).toMatch(
      /^scv: 2 of 2 turns failed — gemini \(gemini-[0-9a-z]{6}(, not recorded)?\): gemini timed out after 2s/m,
    );
  });

  it("refuses them all for a misspelt agent, before any runs", async () => {
    const run = await scv(lab.world, ["delegate", "gemini", "claud", "Say hi"]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/^scv: unknown agent 'claud'/);
    expect(agentCalls(lab.world)).toEqual([]);
  });

  it("runs them concurrently, and one at a time with --parallel 1 (or config parallel = 1)", async () => {
    const concurrent = startScv(lab.world, ["delegate", "gemini", "gemini", "gemini", "Say hi"], {
      env: { FAKE_AGENT_MODE: "hang" },
    });
    const deadline = Date.now() + 20_000;
    while (runningTurns().length < 3 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(runningTurns()).toHaveLength(3);
    concurrent.kill("SIGINT");
    expect((await concurrent).exitCode).toBe(130);

    // With one at a time, the second starts only once the first timed out (at least 1s later; run
    // together they start within a few hundred ms of each other).
    for (const [args, env] of [
      [["--parallel", "1"], {}],
      [[], { SCV_CONFIG: join(lab.world.root, "config.toml") }],
    ] as const) {
      writeFileSync(join(lab.world.root, "config.toml"), "parallel = 1\n");
      for (const name of readdirSync(lab.world.calls)) rmSync(join(lab.world.calls, name));
      const serial = await scv(
        lab.world,
        ["delegate", ...args, "--timeout", "1s", "gemini", "gemini", "Say hi"],
        {
          env: { FAKE_AGENT_MODE: "hang", ...env },
        },
      );
      expect(serial.exitCode).toBe(124);
      const [first, second] = callTimes();
      expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(800);
    }
  });

  it("Ctrl-C ends every running agent: exit 130 and no survivor", async () => {
    const child = startScv(lab.world, ["delegate", "gemini", "gemini", "Say hi"], {
      env: { FAKE_AGENT_MODE: "grandchild" },
    });
    const deadline = Date.now() + 20_000;
    while (runningTurns().length < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const pids = agentCalls(lab.world).map((call) => call.pid);
    lab.track(pids);
    child.kill("SIGINT");
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(String(result.stderr)).toMatch(/^scv: 2 of 2 turns failed — gemini .*interrupted/m);
    expect(await survivors(pids)).toEqual([]);
  });

  it("Ctrl-C with turns still queued (--parallel 1): those never say they started", async () => {
    const child = startScv(lab.world, ["delegate", "--parallel", "1", "gemini", "gemini", "Say hi"], {
      env: { FAKE_AGENT_MODE: "hang" },
    });
    // The first agent runs (its pids are written); the second waits in the queue.
    lab.track(await agentPids(lab.world));
    child.kill("SIGINT");
    const result = await child;
    expect(result.exitCode).toBe(130);
    const stderr = String(result.stderr);
    expect(stderr).toMatch(/^\[1\/2\] gemini-[0-9a-z]{6}: gemini started$/m);
    expect(stderr).not.toMatch(/^\[2\/2\] .*started$/m);
    expect(agentCalls(lab.world)).toHaveLength(1);
  });

  it("runs 16 at once with nothing on stderr but each turn's start and end lines", async () => {
    await signIn(lab.world, "claude");
    const run = await scv(
      lab.world,
      ["delegate", "--parallel", "16", ...Array(16).fill("claude"), "Say hi"],
      {
        env: { FAKE_AGENT_MODE: "reply" },
      },
    );
    expect(run.exitCode, run.stderr).toBe(0);
    expect([...run.stdout.matchAll(/^REPLY Say hi$/gm)]).toHaveLength(16);
    const lines = run.stderr.trimEnd().split("\n");
    const other = lines.filter(
      (line) => !/^\[\d+\/16\] claude-[0-9a-z]{6}: claude (started|done in )/.test(line),
    );
    // The last line says how to continue one of them; nothing else (no Node warning) is there.
    expect(other).toHaveLength(1);
    expect(other[0]).toMatch(/^continue one with: scv delegate -c <handle>/);
  });

  it("rejects a --parallel that is not a count", async () => {
    const run = await scv(lab.world, ["delegate", "--parallel", "0", "gemini", "gemini", "Say hi"]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe("scv: --parallel '0' is not a count — give a whole number from 1 to 64\n");
  });
});
