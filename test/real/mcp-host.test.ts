// scv's MCP server in a real host, offline: the pinned Claude Code (scv given with --mcp-config), the
// pinned Codex and the pinned pi (scv registered by `scv mcp install codex|pi`; pi's in
// mcp-host-pi.test.ts) each run against a
// loopback mock that answers their first request with a call of scv's delegate tool and their next with
// text quoting the tool's result; scv delegates to the real Codex CLI against a mock of its own. What
// the host's model was given is read where it was given: the tool result in the host's next model
// request. It must carry the delegated reply (leading), and the step to take next — to continue the
// conversation, or for a job still running, to call wait with it — whichever form of the result the
// host shows (Claude Code and Codex the structured content, pi the text); a reply cut into parts must be
// shown inline, not saved to a file or cut in the middle. Traps, from the lab: Claude Code offers MCP
// tools only with ENABLE_TOOL_SEARCH=false; Codex offers them only for a model it has no metadata for
// ("mock-model"), which also cuts a tool result over 12 000 bytes (10 000 tokens for the models it
// knows), so the long reply is Claude Code's and pi's case only; pi declares them only with `direct`
// exposure, and cuts the middle out of a text result over 20 KiB.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configureClaude, configureCodex } from "./clis.js";
import { describeRun, type ScvRun, scvEntry } from "./harness.js";
import { BIN, dummyKey, expectNothingLeft, named, requestsWith } from "./kit.js";
import { CODEX_PROFILE, CODEX_SAYS, JOB, jsonLines, modelSaw, useMcpHostLab } from "./mcp-host-lab.js";
import type { MockServer } from "./mock/server.mjs";

describe.skipIf(BIN === undefined || CODEX_PROFILE === undefined)("scv mcp in a real host", () => {
  const hosts = useMcpHostLab("mcp");

  /** Claude Code as the host, its model calling delegate with `input`: the run, its mock, and what its
   * model was given of the result. */
  async function claudeHost(
    input: Record<string, unknown>,
  ): Promise<{ run: ScvRun; host: MockServer; saw: string }> {
    const host = await hosts.hostMock({
      shape: "anthropic",
      text: "CLAUDE-SAYS",
      toolCall: { suffix: "__delegate", input },
    });
    const claude = await configureClaude({
      home: hosts.lab.home,
      mockUrl: host.url,
      apiKey: dummyKey("claude"),
      configDir: join(hosts.lab.home, ".claude"),
    });
    // What `scv mcp install claude` registers, given on the command line.
    const mcpConfig = join(hosts.lab.root, "mcp.json");
    writeFileSync(
      mcpConfig,
      JSON.stringify({
        mcpServers: {
          scv: { command: process.execPath, args: [scvEntry(), "mcp"], env: { SCV_HOME: hosts.lab.scvHome } },
        },
      }),
    );
    const run = await hosts.lab.run(
      join(BIN ?? "", "claude"),
      [
        "-p",
        "Ask codex to say hello, through scv.",
        "--output-format",
        "stream-json",
        "--verbose",
        "--model",
        "sonnet",
        "--permission-mode",
        "bypassPermissions",
        "--mcp-config",
        mcpConfig,
        "--strict-mcp-config",
      ],
      {
        env: { ...hosts.hostEnvironment(["ANTHROPIC_"]), ...claude.env, ENABLE_TOOL_SEARCH: "false" },
        limitMs: 150_000,
      },
    );
    const who = named("claude");
    expect(run.code, `${who} as the host\n${describeRun(run)}`).toBe(0);
    const called = host.requests.find((request) => request.toolCall !== null);
    expect(called?.toolCall, `${who} never offered scv's delegate tool\n${describeRun(run)}`).toBe(
      "mcp__scv__delegate",
    );
    return { run, host, saw: modelSaw(host, who, run) };
  }

  it(`Claude Code calls scv's delegate tool; its model is given Codex's reply first, then how to continue`, async () => {
    const prompt = "mcp host test: say hello from codex";
    const { run, host, saw } = await claudeHost({ agent: "codex", prompt, policy: "auto", wait_seconds: 50 });
    expect(
      requestsWith(hosts.codexMock, prompt).length,
      "the delegated codex never got the prompt",
    ).toBeGreaterThan(0);
    const codexReply = `${CODEX_SAYS}-1`;
    expect(saw.indexOf(codexReply), `what the model was given:\n${saw}`).toBeGreaterThanOrEqual(0);
    // The reply leads, before the --json object's other members.
    expect(saw.indexOf(codexReply), saw).toBeLessThan(20);
    expect(saw).toMatch(/To continue this conversation, call delegate with conversation codex-[0-9a-z]{6}\./);
    const final = jsonLines<{ type?: string; result?: string }>(run).find((event) => event.type === "result");
    const after = host.requests.filter((request) => request.reply !== null).at(-1);
    expect(final?.result, describeRun(run)).toBe(after?.reply);
    expect(final?.result).toContain(codexReply);
    await expectNothingLeft(hosts.lab, "claude", "Claude Code with scv mcp");
  });

  it("Claude Code: a job still running when the call returns — its model is told to call wait with the job", async () => {
    const { saw } = await claudeHost({
      agent: "codex",
      prompt: "mcp host test: a job to wait for",
      policy: "auto",
      wait_seconds: 0,
    });
    await hosts.toldToWait(saw);
    await expectNothingLeft(hosts.lab, "claude", "Claude Code with a running scv job");
  });

  it("Claude Code: a reply too long for one result — the first part is shown inline, not saved to a file", async () => {
    // Escapes and characters of several bytes make the structured content longer than the reply.
    const long = Array.from({ length: 1400 }, (_, i) => `line ${i}: "quoted" naïve — path C:\\x`).join("\n");
    hosts.codexMock.setText(long);
    try {
      const { saw } = await claudeHost({
        agent: "codex",
        prompt: "mcp host test: a long reply",
        policy: "auto",
        wait_seconds: 50,
      });
      expect(saw, saw.slice(0, 500)).not.toMatch(
        /persisted-output|Output too large|exceeds maximum allowed tokens/,
      );
      expect(saw.length).toBeGreaterThan(40_000);
      expect(saw.length).toBeLessThanOrEqual(50_000);
      // The reply leads (as JSON, its quotes escaped), and the model is told how to read the rest.
      expect(saw.slice(0, 1_000)).toContain(JSON.stringify(long.slice(0, 500)).slice(1, -1));
      expect(saw).toMatch(new RegExp(`call wait with job ${JOB.source} and offset \\d+`));
      await hosts.finish(saw);
    } finally {
      hosts.codexMock.setText(CODEX_SAYS);
    }
    await expectNothingLeft(hosts.lab, "claude", "Claude Code with a long reply");
  });

  /** Codex as the host (the user's own ~/.codex, on a model Codex has no metadata for), scv registered
   * by `scv mcp install codex`, its model calling delegate with `input`. */
  async function codexHost(input: Record<string, unknown>): Promise<{
    run: ScvRun;
    host: MockServer;
    saw: string;
    configFile: string;
    env: Record<string, string>;
  }> {
    const host = await hosts.hostMock({
      shape: "openai-responses",
      text: "HOST-SAYS",
      toolCall: { suffix: "mcp__scv__delegate", input },
    });
    const codexHome = join(hosts.lab.home, ".codex");
    const hostConfig = await configureCodex({
      home: hosts.lab.home,
      codexHome,
      mockUrl: host.url,
      apiKey: dummyKey("codex"),
    });
    const configFile = join(codexHome, "config.toml");
    writeFileSync(
      configFile,
      readFileSync(configFile, "utf8").replace(/^model = ".*"$/m, 'model = "mock-model"'),
    );
    const env = hosts.hostEnvironment(["OPENAI_", "CODEX_"]);
    const install = await hosts.lab.run(process.execPath, [scvEntry(), "mcp", "install", "codex"], { env });
    expect(install.code, describeRun(install)).toBe(0);
    const run = await hosts.lab.run(
      join(BIN ?? "", "codex"),
      [
        "exec",
        "--json",
        "--skip-git-repo-check",
        "--dangerously-bypass-approvals-and-sandbox",
        "Ask codex, through scv.",
      ],
      { env: { ...env, ...hostConfig.env }, limitMs: 150_000 },
    );
    const who = named("codex");
    expect(run.code, `${who} as the host\n${describeRun(run)}`).toBe(0);
    expect(
      host.requests.some((request) => request.toolCall !== null),
      `${who} never offered scv's tools\n${describeRun(run)}`,
    ).toBe(true);
    return { run, host, saw: modelSaw(host, who, run), configFile, env };
  }

  it("Codex as the host, scv registered by scv mcp install codex: the same round trip", async () => {
    const prompt = "mcp host test: codex asks codex";
    const before = hosts.codexMock.requests.length;
    const { run, host, saw, configFile, env } = await codexHost({
      agent: "codex",
      prompt,
      policy: "auto",
      wait_seconds: 50,
    });
    const registered = readFileSync(configFile, "utf8");
    expect(registered).toContain("tool_timeout_sec = 120");
    expect(registered).toContain(`SCV_HOME = "${hosts.lab.scvHome}"`);
    const codexReply = `${CODEX_SAYS}-${hosts.codexMock.generations}`;
    expect(
      requestsWith(hosts.codexMock, prompt, before).length,
      "the delegated codex never got the prompt",
    ).toBe(1);
    // Codex gives its model the structured content after a header of its own.
    expect(saw, `what the model was given:\n${saw}`).toMatch(
      new RegExp(`^(?:[^\\n]*\\n){0,3}\\{"reply":"${codexReply}",`),
    );
    expect(saw).toMatch(/To continue this conversation, call delegate with conversation codex-[0-9a-z]{6}\./);
    const events = jsonLines<{ type?: string; item?: { type?: string; text?: string } }>(run);
    expect(
      events.some((event) => event.type === "item.completed" && event.item?.type === "mcp_tool_call"),
      describeRun(run),
    ).toBe(true);
    const message = events.filter((event) => event.item?.type === "agent_message").at(-1)?.item?.text;
    expect(message).toBe(host.requests.filter((request) => request.reply !== null).at(-1)?.reply);
    expect(message).toContain(codexReply);
    await expectNothingLeft(hosts.lab, "codex", "Codex with scv mcp");

    const removed = await hosts.lab.run(process.execPath, [scvEntry(), "mcp", "uninstall", "codex"], { env });
    expect(removed.code, describeRun(removed)).toBe(0);
    expect(readFileSync(configFile, "utf8")).not.toContain("mcp_servers.scv");
  });

  it("Codex as the host: a job still running — its model is told to call wait with the job", async () => {
    const { saw, env } = await codexHost({
      agent: "codex",
      prompt: "mcp host test: codex waits for codex",
      policy: "auto",
      wait_seconds: 0,
    });
    await hosts.toldToWait(saw);
    await expectNothingLeft(hosts.lab, "codex", "Codex with a running scv job");
    await hosts.lab.run(process.execPath, [scvEntry(), "mcp", "uninstall", "codex"], { env });
  });
});
