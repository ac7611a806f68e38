// Whatever a prompt begins with, pi gets exactly that text: scv writes it to pi's stdin rather than
// passing it as an argument, where pi would read `@README.md` as a file to attach and `-x` as an
// option. The fake pi (test/fake-agents/agent.mjs) parses its argv and stdin as pi 0.73.1 does and
// puts the prompt it got into its reply (FAKE_AGENT_MODE=reply); test/real/prompt-verbatim.test.ts
// checks the same against the real pi and a mock model server.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { turnResultSchema } from "../../src/result.js";
import {
  type AgentCall,
  agentCalls,
  createWorld,
  ensureBuilt,
  onlyCall,
  scv,
  signIn,
  type World,
} from "../helpers/scv.js";

const PI_SESSION = "01a23649-3e3c-7680-be58-664ee3a8aca0";

let world: World;
beforeAll(ensureBuilt, 120_000);
beforeEach(async () => {
  world = createWorld();
  await signIn(world, "pi");
  writeFileSync(join(world.project, "README.md"), "README CONTENT THAT MUST NOT BE ATTACHED\n");
});
afterEach(() => world.dispose());

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
  return { result: turnResultSchema().parse(JSON.parse(run.stdout)), call };
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
    expect(turnResultSchema().parse(JSON.parse(run.stdout)).reply).toBe("REPLY @README.md again\n");
    expect(agentCalls(world)[1]?.argv).toEqual(["-p", "--mode", "json", "--session", PI_SESSION, "\n"]);
  });
});
