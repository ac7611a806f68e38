// scv's MCP server in a real host, offline: the pinned Claude Code (scv given with --mcp-config) and the
// pinned Codex (scv registered by `scv mcp install codex`) each run against a loopback mock that answers
// their first request with a call of scv's delegate tool and their next with text quoting the tool's
// result; scv delegates to the real Codex CLI against a mock of its own. What Codex's mock said must
// travel back through scv into the host's next model request and its final answer. Traps, from the
// lab: Claude Code offers MCP tools only with ENABLE_TOOL_SEARCH=false; Codex offers them only for a
// model it has no metadata for ("mock-model").

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configureClaude, configureCodex } from "./clis.js";
import { describeRun, type Lab, type ScvRun, scvEntry } from "./harness.js";
import {
  agentToml,
  BIN,
  dummyKey,
  expectNothingLeft,
  named,
  newCanary,
  newLab,
  requestsWith,
  wireText,
  writeEndpoint,
} from "./kit.js";
import { type MockRequest, type MockServer, startMock } from "./mock/server.mjs";
import { PROFILES } from "./profiles.js";

const CODEX_PROFILE = PROFILES.find((profile) => profile.cli === "codex");
/** What Codex's mock answers (the first answer is CODEX-SAYS-1). */
const CODEX_SAYS = "CODEX-SAYS";

/** The host's model requests that carry `text` (the delegated agent's reply); at least one. */
function requestsCarrying(host: MockServer, text: string, who: string, run: ScvRun): MockRequest[] {
  const found = requestsWith(host, text);
  expect(
    found.length,
    `Codex's reply never reached ${who}'s next request\n${describeRun(run)}`,
  ).toBeGreaterThan(0);
  return found;
}

/** The JSON lines a host printed (its stream-json or JSONL events). */
function jsonLines<T>(run: ScvRun): T[] {
  return run.stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as T);
}

describe.skipIf(BIN === undefined || CODEX_PROFILE === undefined)("scv mcp in a real host", () => {
  let trap: MockServer;
  let codexMock: MockServer;
  let lab: Lab;
  let canary: string;
  const hostMocks: MockServer[] = [];

  beforeAll(async () => {
    trap = await startMock({ shape: "openai-chat", text: "TRAP" });
    codexMock = await startMock({ shape: "openai-responses", text: CODEX_SAYS });
    canary = newCanary();
    lab = newLab("mcp", canary, trap);
    // Codex signed in inside scv's home, as a user does it.
    const key = dummyKey("codex");
    const endpoint = await writeEndpoint(
      lab,
      CODEX_PROFILE as NonNullable<typeof CODEX_PROFILE>,
      codexMock,
      key,
    );
    lab.writeConfig(agentToml("codex", { model: endpoint.config.model }, endpoint.agentEnv));
    const login = await lab.scv(["agents", "login", "codex", "--with-api-key"], { input: `${key}\n` });
    expect(login.code, describeRun(login)).toBe(0);
  });

  afterAll(async () => {
    try {
      for (const request of codexMock?.requests ?? []) {
        expect(wireText(request), "an exported canary credential reached the delegated codex").not.toContain(
          canary,
        );
      }
      expect(trap?.requests.map((request) => `${request.method} ${request.url}`) ?? []).toEqual([]);
    } finally {
      for (const mock of [codexMock, trap, ...hostMocks]) await mock?.close();
      await lab?.[Symbol.asyncDispose]();
    }
  });

  /** The lab's environment without the canaries of the host's own vendor: a user's host has its own
   * key and endpoint (the rest stay, and must not reach the delegated agent). */
  function hostEnvironment(prefixes: readonly string[]): Record<string, string> {
    return Object.fromEntries(
      Object.entries(lab.env).filter(([name]) => !prefixes.some((prefix) => name.startsWith(prefix))),
    );
  }

  it(`Claude Code calls scv's delegate tool; Codex's reply comes back into its next request and result`, async () => {
    const prompt = "mcp host test: say hello from codex";
    const host = await startMock({
      shape: "anthropic",
      text: "CLAUDE-SAYS",
      toolCall: { suffix: "__delegate", input: { agent: "codex", prompt, policy: "auto", wait_seconds: 50 } },
    });
    hostMocks.push(host);
    const claude = await configureClaude({
      home: lab.home,
      mockUrl: host.url,
      apiKey: dummyKey("claude"),
      configDir: join(lab.home, ".claude"),
    });
    // What `scv mcp install claude` registers, given on the command line.
    const mcpConfig = join(lab.root, "mcp.json");
    writeFileSync(
      mcpConfig,
      JSON.stringify({
        mcpServers: {
          scv: { command: process.execPath, args: [scvEntry(), "mcp"], env: { SCV_HOME: lab.scvHome } },
        },
      }),
    );
    const run = await lab.run(
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
        env: { ...hostEnvironment(["ANTHROPIC_"]), ...claude.env, ENABLE_TOOL_SEARCH: "false" },
        limitMs: 150_000,
      },
    );
    const who = named("claude");
    expect(run.code, `${who} as the host\n${describeRun(run)}`).toBe(0);
    const called = host.requests.find((request) => request.toolCall !== null);
    expect(called?.toolCall, `${who} never offered scv's delegate tool\n${describeRun(run)}`).toBe(
      "mcp__scv__delegate",
    );
    expect(
      requestsWith(codexMock, prompt).length,
      "the delegated codex never got the prompt",
    ).toBeGreaterThan(0);
    const codexReply = `${CODEX_SAYS}-1`;
    const after = requestsCarrying(host, codexReply, who, run);
    const final = jsonLines<{ type?: string; result?: string }>(run).find((event) => event.type === "result");
    expect(final?.result, describeRun(run)).toBe(after.at(-1)?.reply);
    expect(final?.result).toContain(codexReply);
    await expectNothingLeft(lab, "claude", "Claude Code with scv mcp");
  });

  it("Codex as the host, scv registered by scv mcp install codex: the same round trip", async () => {
    const prompt = "mcp host test: codex asks codex";
    const host = await startMock({
      shape: "openai-responses",
      text: "HOST-SAYS",
      toolCall: {
        suffix: "mcp__scv__delegate",
        input: { agent: "codex", prompt, policy: "auto", wait_seconds: 50 },
      },
    });
    hostMocks.push(host);
    // The user's own Codex (~/.codex), on a model Codex has no metadata for.
    const codexHome = join(lab.home, ".codex");
    const hostConfig = await configureCodex({
      home: lab.home,
      codexHome,
      mockUrl: host.url,
      apiKey: dummyKey("codex"),
    });
    const configFile = join(codexHome, "config.toml");
    writeFileSync(
      configFile,
      readFileSync(configFile, "utf8").replace(/^model = ".*"$/m, 'model = "mock-model"'),
    );
    const env = hostEnvironment(["OPENAI_", "CODEX_"]);
    const install = await lab.run(process.execPath, [scvEntry(), "mcp", "install", "codex"], { env });
    expect(install.code, describeRun(install)).toBe(0);
    const registered = readFileSync(configFile, "utf8");
    expect(registered).toContain("tool_timeout_sec = 120");
    expect(registered).toContain(`SCV_HOME = "${lab.scvHome}"`);

    const before = codexMock.requests.length;
    const run = await lab.run(
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
      `${who} never offered scv's tools`,
    ).toBe(true);
    const codexReply = `${CODEX_SAYS}-${codexMock.generations}`;
    expect(requestsWith(codexMock, prompt, before).length, "the delegated codex never got the prompt").toBe(
      1,
    );
    const after = requestsCarrying(host, codexReply, who, run);
    const events = jsonLines<{ type?: string; item?: { type?: string; text?: string } }>(run);
    expect(
      events.some((event) => event.type === "item.completed" && event.item?.type === "mcp_tool_call"),
      describeRun(run),
    ).toBe(true);
    const message = events.filter((event) => event.item?.type === "agent_message").at(-1)?.item?.text;
    expect(message).toBe(after.at(-1)?.reply);
    expect(message).toContain(codexReply);
    await expectNothingLeft(lab, "codex", "Codex with scv mcp");

    const removed = await lab.run(process.execPath, [scvEntry(), "mcp", "uninstall", "codex"], { env });
    expect(removed.code, describeRun(removed)).toBe(0);
    expect(readFileSync(configFile, "utf8")).not.toContain("mcp_servers.scv");
  });
});
