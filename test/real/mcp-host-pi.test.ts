// pi 1.6.0 as an MCP host, offline (mcp-host.test.ts says how these tests go): scv registered by `scv mcp
// install pi` in the user's agent directory, its provider a loopback mock that calls scv's delegate tool;
// scv delegates to the real Codex against a mock of its own. pi declares an MCP tool to its model only
// with `direct` exposure (its default, codemode, declares its codemode tool instead), gives its model the
// text of a result (not the structured content), and cuts the middle out of a text over 20 KiB.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configurePi } from "./clis.js";
import { describeRun, type ScvRun, scvEntry } from "./harness.js";
import { BIN, dummyKey, expectNothingLeft, named, requestsWith } from "./kit.js";
import { CODEX_PROFILE, CODEX_SAYS, JOB, jsonLines, modelSaw, useMcpHostLab } from "./mcp-host-lab.js";
import type { MockServer } from "./mock/server.mjs";

/** An assistant message of pi's `--mode json` (its `message_end` events). */
interface PiMessage {
  role?: string;
  content?: { type?: string; text?: string }[];
}

describe.skipIf(BIN === undefined || CODEX_PROFILE === undefined)("scv mcp in the real pi", () => {
  const hosts = useMcpHostLab("mcp-pi");

  /** pi as the host (the user's own agent directory, its provider the mock), scv registered by `scv mcp
   * install pi`, its model calling delegate with `input`. */
  async function piHost(input: Record<string, unknown>): Promise<{
    run: ScvRun;
    host: MockServer;
    saw: string;
    env: Record<string, string>;
  }> {
    const host = await hosts.hostMock({
      shape: "openai-chat",
      text: "PI-SAYS",
      toolCall: { suffix: "mcp__scv__delegate", input },
    });
    const pi = await configurePi({ home: hosts.lab.home, mockUrl: host.url, apiKey: dummyKey("pi") });
    const env = { ...hosts.hostEnvironment(["PI_"]), ...pi.env };
    const install = await hosts.lab.run(process.execPath, [scvEntry(), "mcp", "install", "pi"], { env });
    expect(install.code, describeRun(install)).toBe(0);
    const run = await hosts.lab.run(
      join(BIN ?? "", "pi"),
      ["-p", "--mode", "json", "--model", pi.model, "Ask codex, through scv."],
      { env, limitMs: 150_000 },
    );
    const who = named("pi");
    expect(run.code, `${who} as the host\n${describeRun(run)}`).toBe(0);
    // Its default exposure (codemode) would declare only its codemode tool.
    const called = host.requests.find((request) => request.toolCall !== null);
    expect(called?.toolCall, `${who} never offered scv's delegate tool\n${describeRun(run)}`).toBe(
      "mcp__scv__delegate",
    );
    return { run, host, saw: modelSaw(host, who, run), env };
  }

  it("pi as the host, scv registered by scv mcp install pi: its model is given Codex's reply first, then how to continue", async () => {
    const prompt = "mcp host test: pi asks codex";
    const before = hosts.codexMock.requests.length;
    const { run, host, saw, env } = await piHost({
      agent: "codex",
      prompt,
      policy: "auto",
      wait_seconds: 50,
    });
    const registered = JSON.parse(readFileSync(join(hosts.lab.home, ".pi", "agent", "mcp.json"), "utf8"));
    expect(registered.mcpServers.scv).toMatchObject({
      args: ["mcp"],
      env: { SCV_HOME: hosts.lab.scvHome },
      exposure: "direct",
      timeout: 120,
    });
    expect(
      requestsWith(hosts.codexMock, prompt, before).length,
      "the delegated codex never got the prompt",
    ).toBe(1);
    const codexReply = `${CODEX_SAYS}-${hosts.codexMock.generations}`;
    // pi gives its model the text content: the reply leads, not scv's JSON.
    expect(saw.startsWith(codexReply), `what the model was given:\n${saw}`).toBe(true);
    expect(saw).not.toContain('{"reply"');
    expect(saw).toMatch(/To continue this conversation, call delegate with conversation codex-[0-9a-z]{6}\./);
    const events = jsonLines<{ type?: string; toolName?: string; message?: PiMessage }>(run);
    expect(
      events.some((event) => event.type === "tool_execution_end" && event.toolName === "mcp__scv__delegate"),
      describeRun(run),
    ).toBe(true);
    const said = events
      .filter((event) => event.type === "message_end" && event.message?.role === "assistant")
      .at(-1)
      ?.message?.content?.flatMap((block) => (block.type === "text" ? [block.text ?? ""] : []))
      .join("");
    expect(said).toBe(host.requests.filter((request) => request.reply !== null).at(-1)?.reply);
    expect(said).toContain(codexReply);
    await expectNothingLeft(hosts.lab, "pi", "pi with scv mcp");

    const removed = await hosts.lab.run(process.execPath, [scvEntry(), "mcp", "uninstall", "pi"], { env });
    expect(removed.code, describeRun(removed)).toBe(0);
    expect(readFileSync(join(hosts.lab.home, ".pi", "agent", "mcp.json"), "utf8")).not.toContain('"scv"');
  });

  it("pi as the host: a job still running — its model is told to call wait with the job", async () => {
    const { saw, env } = await piHost({
      agent: "codex",
      prompt: "mcp host test: pi waits for codex",
      policy: "auto",
      wait_seconds: 0,
    });
    await hosts.toldToWait(saw);
    await expectNothingLeft(hosts.lab, "pi", "pi with a running scv job");
    await hosts.lab.run(process.execPath, [scvEntry(), "mcp", "uninstall", "pi"], { env });
  });

  it("pi as the host: a reply too long for one result — the first part reaches its model whole, not cut in the middle", async () => {
    const long = Array.from({ length: 1400 }, (_, i) => `line ${i}: "quoted" naïve — path C:\\x`).join("\n");
    hosts.codexMock.setText(long);
    try {
      const { saw, env } = await piHost({
        agent: "codex",
        prompt: "mcp host test: pi gets a long reply",
        policy: "auto",
        wait_seconds: 50,
      });
      // pi 1.6.0 cuts the middle out of a text result over 20 KiB (MCP_OUTPUT_MAX_BYTES).
      expect(saw.slice(0, 500), saw.slice(0, 500)).not.toMatch(/truncated output/);
      expect(Buffer.byteLength(saw)).toBeLessThanOrEqual(20 * 1024);
      expect(Buffer.byteLength(saw)).toBeGreaterThan(15_000);
      expect(saw.slice(0, 1_000)).toContain(long.slice(0, 500));
      expect(saw).toMatch(new RegExp(`call wait with job ${JOB.source} and offset \\d+`));
      await hosts.finish(saw);
      await hosts.lab.run(process.execPath, [scvEntry(), "mcp", "uninstall", "pi"], { env });
    } finally {
      hosts.codexMock.setText(CODEX_SAYS);
    }
    await expectNothingLeft(hosts.lab, "pi", "pi with a long reply");
  });
});
