// What a turn shows while it runs, through the built scv: --events as NDJSON on stdout in one schema
// for every agent, ending with the result; progress lines on stderr off a terminal; --quiet; the
// fallbacks a failure lists.

import { describe, expect, it } from "vitest";
import { type EventLine, eventLineSchema } from "../../src/events.js";
import { turnResultShape } from "../../src/json-shapes.js";
import { useLab } from "../helpers/lab.js";
import { scv, signIn, type World } from "../helpers/scv.js";

let world: World;
useLab((created) => {
  world = created;
});

/** Every stdout line parsed with the exported schema (a line that does not parse fails the test). */
function eventLines(stdout: string): EventLine[] {
  expect(stdout.endsWith("\n")).toBe(true);
  return stdout
    .slice(0, -1)
    .split("\n")
    .map((line) => eventLineSchema().parse(JSON.parse(line)));
}

describe("--events", () => {
  // Codex's mode comes from its rollout file, read beside the stream: its line may come anywhere.
  it.each([
    ["claude", ["session", "text", "usage", "turn-end"], "default"],
    ["codex", ["session", "text", "usage", "turn-end"], "read-only"],
    ["pi", ["session", "text", "text", "text", "usage", "turn-end"], null],
  ] as const)("%s: NDJSON in the shared schema, ending with the result", async (agent, types, mode) => {
    const reply = "MOCK-REPLY-1";
    await signIn(world, agent);
    const run = await scv(world, ["delegate", agent, "--events", "Say hi"]);
    expect(run.exitCode, run.stderr).toBe(0);
    const lines = eventLines(run.stdout);
    const last = lines.at(-1);
    if (last?.type !== "result") throw new Error(`the last line is not the result: ${run.stdout}`);
    const events = lines.slice(0, -1);
    expect(events.filter((line) => line.type !== "mode").map((line) => line.type)).toEqual(types);
    const modes = events.flatMap((line) => (line.type === "mode" ? [line.mode] : []));
    expect(modes).toEqual(mode === null ? [] : [mode]);
    expect(turnResultShape().parse(last.result)).toMatchObject({
      reply,
      status: "completed",
      agent,
      exitCode: 0,
      mode,
    });
    const handle = last.result.conversation;
    expect(handle).toMatch(new RegExp(`^${agent}-[0-9a-z]{6}$`));
    for (const line of lines) expect(line).toMatchObject({ agent, conversation: handle });
    const times = lines.map((line) => line.t);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // The reply is in the result line, not printed again.
    expect(run.stdout.split("\n").filter((line) => line === reply)).toEqual([]);
  });

  it("a turn that never ran is one result line", async () => {
    const run = await scv(world, ["delegate", "codex", "--events", "hi"], { env: { PATH: "/nonexistent" } });
    expect(run.exitCode).toBe(3);
    const lines = eventLines(run.stdout);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ type: "result", agent: "codex", result: { exitCode: 3 } });
  });
});

describe("progress", () => {
  it("off a terminal: tool starts on stderr, a burst cut to a few lines and a count; nothing on stdout but the reply", async () => {
    await signIn(world, "claude");
    const run = await scv(world, ["delegate", "claude", "Say hi"], { env: { FAKE_AGENT_MODE: "tools:40" } });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toBe("MOCK-REPLY-1\n");
    const tools = run.stderr.split("\n").filter((line) => /^claude \d+s \$ echo step \d+$/.test(line));
    expect(tools[0]).toMatch(/^claude \d+s \$ echo step 1$/);
    // 40 calls arrive at once: at most a few lines a second get through, the rest are counted.
    expect(tools.length).toBeLessThan(20);
    const counted = [...run.stderr.matchAll(/^claude … (\d+) more$/gm)].reduce(
      (sum, match) => sum + Number(match[1]),
      0,
    );
    expect(tools.length + counted).toBe(40);
    expect(run.stderr).not.toContain("\r");
  });

  it("--events and --json keep stdout to their own lines while progress goes to stderr", async () => {
    await signIn(world, "claude");
    const env = { FAKE_AGENT_MODE: "tools:2" };
    const events = await scv(world, ["delegate", "claude", "--events", "Say hi"], { env });
    expect(eventLines(events.stdout).filter((line) => line.type === "tool-start")).toHaveLength(2);
    expect(events.stderr).toMatch(/^claude \d+s \$ echo step 1$/m);
    const json = await scv(world, ["delegate", "claude", "--json", "Say hi"], { env });
    expect(turnResultShape().parse(JSON.parse(json.stdout)).reply).toBe("MOCK-REPLY-1");
    expect(json.stderr).toMatch(/^claude \d+s \$ echo step 2$/m);
  });

  it("--quiet prints no progress, only the handle to continue with, plainly", async () => {
    await signIn(world, "claude");
    const run = await scv(world, ["delegate", "claude", "--quiet", "Say hi"], {
      env: { FAKE_AGENT_MODE: "tools:3" },
    });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe("MOCK-REPLY-1\n");
    expect(run.stderr).toMatch(/^conversation: claude-[0-9a-z]{6}\n$/);
    const handle = run.stderr.slice("conversation: ".length).trim();
    const next = await scv(world, ["delegate", "-q", "-c", handle, "again"], {
      env: { FAKE_AGENT_MODE: "tools:3" },
    });
    expect(next.exitCode, next.stderr).toBe(0);
    expect(next.stderr).toBe(`conversation: ${handle}\n`);
    // With --json or --events the handle is in the result on stdout: stderr stays empty.
    for (const flag of ["--json", "--events"]) {
      const machine = await scv(world, ["delegate", "claude", "-q", flag, "Say hi"], {
        env: { FAKE_AGENT_MODE: "tools:3" },
      });
      expect([flag, machine.stderr]).toEqual([flag, ""]);
    }
  });
});

describe("fallbacks", () => {
  it("a failure lists the other installed agents, signed-in ones first, in --json and on stderr", async () => {
    await signIn(world, "pi");
    const run = await scv(world, ["delegate", "gemini", "--json", "hi"], {
      env: { FAKE_AGENT_MODE: "exit:1" },
    });
    expect(run.exitCode).toBe(1);
    const result = turnResultShape().parse(JSON.parse(run.stdout));
    // pi's key store says signed in; the unchecked CLIs may be; the signed-out stores (claude,
    // claude-ai, grok, dsh, and codex's preflight), gemini itself and kimi (no one-turn command
    // line) are left out.
    const unchecked = ["cline", "kilo", "droid", "auggie", "qoder", "crush"];
    expect(result.fallbacks).toEqual(["pi", "qwen", "opencode", "copilot", "cursor", "amp", ...unchecked]);
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines).toEqual([
      "scv: gemini failed: fake failure — check it with: scv agents check gemini",
      `try instead: pi, qwen, opencode, copilot, cursor, amp, ${unchecked.join(", ")}`,
    ]);
  });

  it("only installed agents are offered; a success offers none", async () => {
    await signIn(world, "pi");
    const failed = await scv(world, ["delegate", "pi", "--json", "hi"], {
      env: { FAKE_AGENT_MODE: "exit:1", PATH: `${world.root}/only:/usr/bin:/bin` },
    });
    // Not even pi itself is on that PATH: it is not installed, and nothing else is either.
    expect(turnResultShape().parse(JSON.parse(failed.stdout))).toMatchObject({ exitCode: 3, fallbacks: [] });
    expect(failed.stderr).not.toContain("try instead");
    const ok = await scv(world, ["delegate", "pi", "--json", "hi"]);
    expect(turnResultShape().parse(JSON.parse(ok.stdout))).toMatchObject({ exitCode: 0, fallbacks: [] });
  });
});
