// Whatever a prompt begins with, pi gets exactly that text: scv writes it to pi's stdin rather than
// passing it as an argument, where pi would read `@README.md` as a file to attach and `-x` as an
// option. The fake pi (test/fake-agents/agent.mjs) parses its argv and stdin as pi 0.73.1 and 1.6.0 do and
// puts the prompt it got into its reply (FAKE_AGENT_MODE=reply); test/real/prompt-verbatim.test.ts
// checks the same against the real pi and a mock model server.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { turnResultShape } from "../../src/json-shapes.js";
import { useLab } from "../helpers/lab.js";
import { type AgentCall, agentCalls, onlyCall, scv, signIn, type World } from "../helpers/scv.js";

const PI_SESSION = "01a23649-3e3c-7680-be58-664ee3a8aca0";

let world: World;
useLab((created) => {
  world = created;
});
beforeEach(async () => {
  await signIn(world, "pi");
  writeFileSync(join(world.project, "README.md"), "README CONTENT THAT MUST NOT BE ATTACHED\n");
});

const PROMPTS: readonly [string, string][] = [
  ["an option", "-x"],
  ["pi's own --help", "--help"],
  ["a file reference", "@README.md"],
  ["several lines with a trailing newline", "-x first\n@README.md second\n\n"],
  ["multi-byte text", "—✓ 日本語 🎉 ünïcödé"],
  ["leading whitespace", "  \t@README.md indented\n"],
];

/** The reply the fake pi gives for `prompt`, and what it was given. */
async function turn(args: readonly string[], input?: string) {
  const run = await scv(world, ["delegate", "--json", ...args], {
    env: { FAKE_AGENT_MODE: "reply" },
    input,
  });
  expect(run.stderr).not.toContain("scv:");
  expect(run.exitCode).toBe(0);
  // The fake pi records what came on its stdin.
  const call: AgentCall & { stdinText?: string } = onlyCall(world);
  return { result: turnResultShape().parse(JSON.parse(run.stdout)), call };
}

describe("pi gets the prompt verbatim", () => {
  for (const [name, prompt] of PROMPTS) {
    it(`as an argument to scv: ${name}`, async () => {
      const { result, call } = await turn(["pi", "--", prompt]);
      expect(result.reply).toBe(`REPLY ${prompt}`);
      expect(call.argv.slice(0, 3)).toEqual(["-p", "--mode", "json"]);
      // Never an argument pi would read as an option or a file.
      for (const arg of call.argv.slice(3)) expect(arg).not.toMatch(/^[-@]/);
    });
  }

  it("read by scv from its own stdin ('-'), several lines and multi-byte", async () => {
    const prompt = "@README.md\n--help\n\tünïcödé ✓\n";
    const { result, call } = await turn(["pi", "-"], prompt);
    expect(result.reply).toBe(`REPLY ${prompt}`);
    expect(call.stdin).toBe("pipe");
    expect(call.stdinText).toBe("@README.md\n--help\n\tünïcödé ✓");
    expect(call.argv).toEqual(["-p", "--mode", "json", "\n"]);
  });

  it("a lone dash (which scv itself reads as 'the prompt is on stdin')", async () => {
    const { result } = await turn(["pi", "-"], "-");
    expect(result.reply).toBe("REPLY -");
  });

  it("of megabytes, which no argument could carry", async () => {
    const prompt = `-${"ünïcödé prompt ".repeat(200_000)}end`;
    const { result } = await turn(["pi", "-"], prompt);
    expect(result.reply).toBe(`REPLY ${prompt}`);
  }, 60_000);

  it("when continuing, with the session id still an argument", async () => {
    const first = await turn(["pi", "--", "-x first"]);
    const handle = first.result.conversation ?? "";
    const run = await scv(world, ["delegate", "--json", "-c", handle, "--", "@README.md again\n"], {
      env: { FAKE_AGENT_MODE: "reply" },
    });
    expect(run.exitCode).toBe(0);
    expect(turnResultShape().parse(JSON.parse(run.stdout)).reply).toBe("REPLY @README.md again\n");
    expect(agentCalls(world)[1]?.argv).toEqual(["-p", "--mode", "json", "--session", PI_SESSION, "\n"]);
  });
});

// A prompt of 128 KiB or more fits in no argument (Linux refuses one with E2BIG). The fake CLIs read
// stdin as their prompt when given no prompt argument, as the pinned real ones do
// (test/real/prompt-verbatim.test.ts sends the real ones 300 KiB).
describe("a prompt too large for one argument", () => {
  const LARGE = `-x @README.md ${"ünïcödé ✓ ".repeat(30_000)}end\n`;
  for (const agent of ["claude", "codex", "gemini", "opencode", "qwen", "copilot"]) {
    it(`reaches ${agent} on its stdin, and no argument carries it`, async () => {
      await signIn(world, agent);
      const run = await scv(world, ["delegate", "--json", agent, "-"], {
        env: { FAKE_AGENT_MODE: "reply" },
        input: LARGE,
      });
      expect(run.stderr).not.toContain("scv:");
      expect(run.exitCode).toBe(0);
      const call: AgentCall & { stdinText?: string } = onlyCall(world);
      expect(call.stdinText === LARGE, "stdin carried the prompt whole").toBe(true);
      for (const arg of call.argv) expect(Buffer.byteLength(arg)).toBeLessThan(1024);
      // The captures of OpenCode (a title request first) and Gemini CLI (the reply in deltas) have no
      // reply the fake can replace.
      if (agent === "opencode" || agent === "gemini") return;
      // qwen appends two newlines to what it reads, copilot strips whitespace at its end.
      const got = { qwen: `${LARGE}\n\n`, copilot: LARGE.trimEnd() }[agent] ?? LARGE;
      const reply = turnResultShape().parse(JSON.parse(run.stdout)).reply;
      expect(reply === `REPLY ${got}`, `${agent} read its prompt from stdin`).toBe(true);
    }, 60_000);
  }

  it("reaches codex on stdin when continuing, with the session id still an argument", async () => {
    await signIn(world, "codex");
    const first = await scv(world, ["delegate", "--json", "codex", "hi"], {
      env: { FAKE_AGENT_MODE: "reply" },
    });
    const handle = turnResultShape().parse(JSON.parse(first.stdout)).conversation ?? "";
    const run = await scv(world, ["delegate", "--json", "-c", handle, "-"], {
      env: { FAKE_AGENT_MODE: "reply" },
      input: LARGE,
    });
    expect(run.exitCode).toBe(0);
    expect(turnResultShape().parse(JSON.parse(run.stdout)).reply === `REPLY ${LARGE}`).toBe(true);
    const call = agentCalls(world)[1];
    expect(call?.argv.slice(0, 2)).toEqual(["exec", "resume"]);
    expect(call?.argv.slice(-3)).toEqual(["--", expect.stringMatching(/^[0-9a-f-]{36}$/), "-"]);
  }, 60_000);

  it("is refused before anything runs where the CLI takes it only as an argument (exit 2)", async () => {
    const run = await scv(world, ["delegate", "--json", "cursor", "-"], { input: LARGE });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(
      "scv: the prompt is 469 KiB, and Cursor CLI takes it only as a command-line argument, which carries less than 128 KiB — put the bulk in a file and point the prompt at it\n",
    );
    expect(agentCalls(world)).toEqual([]);
  });
});
