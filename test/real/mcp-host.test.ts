// scv's MCP server in a real host, offline: the pinned Claude Code (scv given with --mcp-config) and the
// pinned Codex (scv registered by `scv mcp install codex`) each run against a loopback mock that answers
// their first request with a call of scv's delegate tool and their next with text quoting the tool's
// result; scv delegates to the real Codex CLI against a mock of its own. What the host's model was
// given is read where it was given: the tool result in the host's next model request. It must carry
// the delegated reply (leading), and the step to take next — to continue the conversation, or for a
// job still running, to call wait with it — whichever form of the result the host shows (both show
// the structured content); a reply cut into parts must be shown inline, not saved to a file. Traps,
// from the lab: Claude Code offers MCP tools only with ENABLE_TOOL_SEARCH=false; Codex offers them only
// for a model it has no metadata for ("mock-model"), which also cuts a tool result over 12 000 bytes
// (10 000 tokens for the models it knows), so the long reply is Claude Code's case only.

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
import { type MockServer, startMock, toolResultText } from "./mock/server.mjs";
import { PROFILES } from "./profiles.js";

const CODEX_PROFILE = PROFILES.find((profile) => profile.cli === "codex");
/** What Codex's mock answers (the first answer is CODEX-SAYS-1). */
const CODEX_SAYS = "CODEX-SAYS";
/** A job of scv's, as its results name it. */
const JOB = /codex-[0-9a-z]{6}\.[0-9a-z]{8}/;

/** What the host's model was given of scv's tool result: the tool result its next request carries. */
function modelSaw(host: MockServer, who: string, run: ScvRun): string {
  const given = host.requests
    .filter((request) => request.kind === "generate")
    .map((request) => toolResultText(host.shape, request.body))
    .find((text) => text !== undefined);
  expect(given, `${who} never sent scv's tool result to its model\n${describeRun(run)}`).toBeDefined();
  return given ?? "";
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

  /** Claude Code as the host, its model calling delegate with `input`: the run, its mock, and what its
   * model was given of the result. */
  async function claudeHost(
    input: Record<string, unknown>,
  ): Promise<{ run: ScvRun; host: MockServer; saw: string }> {
    const host = await startMock({
      shape: "anthropic",
      text: "CLAUDE-SAYS",
      toolCall: { suffix: "__delegate", input },
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
    return { run, host, saw: modelSaw(host, who, run) };
  }

  /** The model was told its job still runs and to call wait with it; the job is then read whole. */
  async function toldToWait(saw: string): Promise<void> {
    expect(saw, `what the model was given:\n${saw}`).toMatch(
      new RegExp(
        `codex is still working on job ${JOB.source}.*Call wait with job ${JOB.source} for its reply`,
      ),
    );
    await finish(saw);
  }

  /** Reads a job's result whole (`scv wait`), so nothing of it is left running or kept. */
  async function finish(saw: string): Promise<void> {
    const job = JOB.exec(saw)?.[0];
    expect(job, saw.slice(0, 2000)).toBeDefined();
    const waited = await lab.scv(["wait", job ?? ""]);
    expect(waited.code, describeRun(waited)).toBe(0);
  }

  it(`Claude Code calls scv's delegate tool; its model is given Codex's reply first, then how to continue`, async () => {
    const prompt = "mcp host test: say hello from codex";
    const { run, host, saw } = await claudeHost({ agent: "codex", prompt, policy: "auto", wait_seconds: 50 });
    expect(
      requestsWith(codexMock, prompt).length,
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
    await expectNothingLeft(lab, "claude", "Claude Code with scv mcp");
  });

  it("Claude Code: a job still running when the call returns — its model is told to call wait with the job", async () => {
    const { saw } = await claudeHost({
      agent: "codex",
      prompt: "mcp host test: a job to wait for",
      policy: "auto",
      wait_seconds: 0,
    });
    await toldToWait(saw);
    await expectNothingLeft(lab, "claude", "Claude Code with a running scv job");
  });

  it("Claude Code: a reply too long for one result — the first part is shown inline, not saved to a file", async () => {
    // Escapes and characters of several bytes make the structured content longer than the reply.
    const long = Array.from({ length: 1400 }, (_, i) => `line ${i}: "quoted" naïve — path C:\\x`).join("\n");
    codexMock.setText(long);
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
      await finish(saw);
    } finally {
      codexMock.setText(CODEX_SAYS);
    }
    await expectNothingLeft(lab, "claude", "Claude Code with a long reply");
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
    const host = await startMock({
      shape: "openai-responses",
      text: "HOST-SAYS",
      toolCall: { suffix: "mcp__scv__delegate", input },
    });
    hostMocks.push(host);
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
      `${who} never offered scv's tools\n${describeRun(run)}`,
    ).toBe(true);
    return { run, host, saw: modelSaw(host, who, run), configFile, env };
  }

  it("Codex as the host, scv registered by scv mcp install codex: the same round trip", async () => {
    const prompt = "mcp host test: codex asks codex";
    const before = codexMock.requests.length;
    const { run, host, saw, configFile, env } = await codexHost({
      agent: "codex",
      prompt,
      policy: "auto",
      wait_seconds: 50,
    });
    const registered = readFileSync(configFile, "utf8");
    expect(registered).toContain("tool_timeout_sec = 120");
    expect(registered).toContain(`SCV_HOME = "${lab.scvHome}"`);
    const codexReply = `${CODEX_SAYS}-${codexMock.generations}`;
    expect(requestsWith(codexMock, prompt, before).length, "the delegated codex never got the prompt").toBe(
      1,
    );
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
    await expectNothingLeft(lab, "codex", "Codex with scv mcp");

    const removed = await lab.run(process.execPath, [scvEntry(), "mcp", "uninstall", "codex"], { env });
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
    await toldToWait(saw);
    await expectNothingLeft(lab, "codex", "Codex with a running scv job");
    await lab.run(process.execPath, [scvEntry(), "mcp", "uninstall", "codex"], { env });
  });
});
