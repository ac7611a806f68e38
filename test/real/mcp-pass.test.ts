// MCP servers passed through scv to real CLIs, offline. The pinned Claude Code, signed in against
// the loopback Anthropic mock, is given `[mcp_servers.docs]` (a tiny stdio server, test/real/mcp/)
// with `scv delegate claude --mcp docs`; the mock calls the server's tool and answers with what it
// returned. The server's secret (its env) must reach the server — its answer carries the secret's
// hash — and nothing else: not the wire, not scv's output. A turn that names no server gets none,
// not even the one the project's own .mcp.json declares and its settings approve. Then Codex (whose
// mock calls the tool too), Gemini CLI over ACP, OpenCode and Copilot CLI (whose mocks show the tool
// offered). Trap, from the lab: Claude Code offers MCP tools in a request's `tools` only with
// ENABLE_TOOL_SEARCH=false.

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MOCK_SHAPE, type RealCli } from "./clis.js";
import { describeRun, type Lab } from "./harness.js";
import {
  agentToml,
  BIN,
  dummyKey,
  expectNothingLeft,
  expectTurn,
  named,
  newCanary,
  newLab,
  wireText,
  writeEndpoint,
} from "./kit.js";
import { type MockRequest, type MockServer, startMock } from "./mock/server.mjs";
import { PROFILES, type Profile } from "./profiles.js";

const profile = PROFILES.find((candidate) => candidate.cli === "claude");
const SERVER = fileURLToPath(new URL("./mcp/docs-server.mjs", import.meta.url));

describe.skipIf(BIN === undefined || profile === undefined)("claude: MCP servers through scv", () => {
  const who = named("claude");
  let lab: Lab;
  let mock: MockServer;
  let trap: MockServer;
  let secret: string;

  beforeAll(async () => {
    trap = await startMock({ shape: "openai-chat" });
    mock = await startMock({
      shape: "anthropic",
      text: "CLAUDE-SAYS",
      toolCall: { suffix: "__lookup", input: { topic: "scv" } },
    });
    lab = newLab("mcp-pass", newCanary(), trap);
    secret = `docs-secret-${newCanary()}`;
    const key = dummyKey("claude");
    const endpoint = await writeEndpoint(lab, profile ?? PROFILES[0]!, mock, key);
    lab.writeConfig(
      [
        agentToml(
          "claude",
          { model: endpoint.config.model },
          { ...endpoint.agentEnv, ENABLE_TOOL_SEARCH: "false" },
        ),
        "[mcp_servers.docs]",
        `command = ${JSON.stringify(process.execPath)}`,
        `args = [${JSON.stringify(SERVER)}]`,
        `env = { DOCS_TOKEN = ${JSON.stringify(secret)} }`,
        "",
      ].join("\n"),
    );
    // A server of the project's own, approved in the project's settings: one a delegated turn must
    // never get.
    mkdirSync(join(lab.cwd, ".claude"), { recursive: true });
    writeFileSync(
      join(lab.cwd, ".claude", "settings.json"),
      JSON.stringify({ enableAllProjectMcpServers: true }),
    );
    writeFileSync(
      join(lab.cwd, ".mcp.json"),
      JSON.stringify({
        mcpServers: { project: { command: process.execPath, args: [SERVER, "DECOY"] } },
      }),
    );
    const login = await lab.scv(["agents", "login", "claude", "--with-api-key"], { input: `${key}\n` });
    expect(login.code, describeRun(login)).toBe(0);
  });

  afterAll(async () => {
    try {
      for (const request of mock?.requests ?? [])
        expect(wireText(request), "the server's secret reached the model").not.toContain(secret);
      expect(trap?.requests ?? []).toEqual([]);
    } finally {
      await mock?.close();
      await trap?.close();
      await lab?.[Symbol.asyncDispose]();
    }
  });

  it("--mcp docs: the real CLI starts the server, the model calls its tool, the answer comes back", async () => {
    const from = mock.requests.length;
    const run = await lab.scv(
      ["delegate", "claude", "--mcp", "docs", "--policy", "auto", "--json", "--timeout", "90s", "look it up"],
      { limitMs: 120_000 },
    );
    const result = expectTurn("claude", run, 0);
    const requests = mock.requests.slice(from);
    const called = requests.find((request) => request.toolCall !== null);
    expect(called?.toolCall, `${who} never offered the docs server's tool\n${describeRun(run)}`).toBe(
      "mcp__docs__lookup",
    );
    const proof = createHash("sha256").update(secret).digest("hex");
    const answer = `DOCS-ANSWER topic=scv proof=${proof}`;
    expect(result.reply, describeRun(run)).toContain(answer);
    const offered = requests.flatMap((request) =>
      ((request.body as { tools?: { name?: string }[] } | null)?.tools ?? []).map((tool) => tool.name),
    );
    expect(offered, "the project's own server was offered").not.toContain("mcp__project__lookup");
    expect(run.stdout + run.stderr).not.toContain(secret);
    // The turn's rendered files went with its TMPDIR.
    expect(readdirSync(lab.tmp).filter((name) => name.startsWith("scv-"))).toEqual([]);
    await expectNothingLeft(lab, "claude", "scv delegate claude --mcp docs");
  });

  it("no --mcp: no server at all, not the project's", async () => {
    const from = mock.requests.length;
    const run = await lab.scv(
      ["delegate", "claude", "--policy", "auto", "--json", "--timeout", "90s", "just answer"],
      { limitMs: 120_000 },
    );
    expectTurn("claude", run, 0);
    const requests = mock.requests.slice(from);
    expect(requests.length).toBeGreaterThan(0);
    const offered = requests.flatMap((request) =>
      ((request.body as { tools?: { name?: string }[] } | null)?.tools ?? []).map((tool) => tool.name ?? ""),
    );
    expect(
      offered.filter((name) => name.startsWith("mcp__")),
      `${who} was offered MCP tools`,
    ).toEqual([]);
    expect(requests.every((request) => request.toolCall === null)).toBe(true);
    expect(existsSync(join(lab.cwd, ".mcp.json"))).toBe(true);
    await expectNothingLeft(lab, "claude", "scv delegate claude");
  });
});

/** Whether a request offered the docs server's tool (by its description, whatever the CLI names it). */
function offersDocs(request: MockRequest): boolean {
  return JSON.stringify((request.body as { tools?: unknown } | null)?.tools ?? []).includes(
    "Look a topic up in the project's documentation.",
  );
}

function offersDecoy(request: MockRequest): boolean {
  return JSON.stringify((request.body as { tools?: unknown } | null)?.tools ?? []).includes("DECOY");
}

/** What each CLI's loopback mock can show: Codex's (Responses) scripts a call of the tool; the
 * others' show it offered, which takes the server started and its tools listed. `decoy`: a server of
 * the project's own the CLI would load, which a turn must never get. `acp`: its turns go over its
 * ACP server, whose session/new takes the servers (Gemini CLI has no per-run file that works for a
 * user other than root, src/adapters.ts). */
const OTHERS: readonly {
  cli: RealCli;
  model?: string;
  call?: string;
  acp?: boolean;
  decoy?: (cwd: string) => void;
}[] = [
  // A model Codex has no metadata for: with a known one it defers MCP tools behind tool_search (lab).
  { cli: "codex", model: "mock-model", call: "mcp__docs__lookup" },
  { cli: "gemini", acp: true },
  // Not Qwen Code: over ACP (0.24.4) it took the servers in session/new but offered the mock only its
  // own tools and `tool_search`, naming no MCP tool in the request.
  { cli: "opencode" },
  { cli: "copilot" },
];

for (const other of OTHERS) {
  const otherProfile = PROFILES.find((candidate) => candidate.cli === other.cli);
  describe.skipIf(BIN === undefined || otherProfile === undefined)(
    `${other.cli}: MCP servers through scv`,
    () => {
      const who = named(other.cli);
      let lab: Lab;
      let mock: MockServer;
      let trap: MockServer;
      let secret: string;

      beforeAll(async () => {
        trap = await startMock({ shape: "openai-chat" });
        mock = await startMock({
          shape: MOCK_SHAPE[other.cli],
          text: "AGENT-SAYS",
          ...(other.call === undefined ? {} : { toolCall: { suffix: other.call, input: { topic: "scv" } } }),
        });
        lab = newLab(`mcp-pass-${other.cli}`, newCanary(), trap);
        secret = `docs-secret-${newCanary()}`;
        const key = dummyKey(other.cli);
        const endpoint = await writeEndpoint(lab, otherProfile as Profile, mock, key);
        lab.writeConfig(
          [
            agentToml(
              other.cli,
              // Over ACP, the model the recipe configured in its home (as test/real/acp.test.ts).
              other.acp
                ? { transport: "acp", session_idle: "0" }
                : { model: other.model ?? endpoint.config.model },
              endpoint.agentEnv,
            ),
            "[mcp_servers.docs]",
            `command = ${JSON.stringify(process.execPath)}`,
            `args = [${JSON.stringify(SERVER)}]`,
            `env = { DOCS_TOKEN = ${JSON.stringify(secret)} }`,
            "",
          ].join("\n"),
        );
        other.decoy?.(lab.cwd);
        if ((otherProfile as Profile).signIn === "api-key") {
          const login = await lab.scv(["agents", "login", other.cli, "--with-api-key"], {
            input: `${key}\n`,
          });
          expect(login.code, describeRun(login)).toBe(0);
        }
      });

      afterAll(async () => {
        try {
          for (const request of mock?.requests ?? [])
            expect(wireText(request), "the server's secret reached the model").not.toContain(secret);
          expect(trap?.requests ?? []).toEqual([]);
        } finally {
          await mock?.close();
          await trap?.close();
          await lab?.[Symbol.asyncDispose]();
        }
      });

      it(`--mcp docs: ${other.call === undefined ? "the server's tool is offered to the model" : "the model calls the server's tool and gets its answer"}`, async () => {
        const from = mock.requests.length;
        const run = await lab.scv(
          [
            "delegate",
            other.cli,
            "--mcp",
            "docs",
            "--policy",
            "auto",
            "--json",
            "--timeout",
            "120s",
            "look it up",
          ],
          { limitMs: 150_000 },
        );
        const result = expectTurn(other.cli, run, 0);
        const requests = mock.requests.slice(from);
        if (other.call === undefined) {
          expect(
            requests.some(offersDocs),
            `${who} never offered the docs server's tool\n${describeRun(run)}`,
          ).toBe(true);
        } else {
          expect(
            requests.find((request) => request.toolCall !== null)?.toolCall,
            `${who} never offered the docs server's tool\n${describeRun(run)}`,
          ).toBe(other.call);
          const proof = createHash("sha256").update(secret).digest("hex");
          expect(result.reply, describeRun(run)).toContain(`DOCS-ANSWER topic=scv proof=${proof}`);
        }
        expect(requests.some(offersDecoy), `${who} was offered the project's own server`).toBe(false);
        expect(run.stdout + run.stderr).not.toContain(secret);
        expect(readdirSync(lab.tmp).filter((name) => name.startsWith("scv-"))).toEqual([]);
        await expectNothingLeft(lab, other.cli, `scv delegate ${other.cli} --mcp docs`);
      });

      it("no --mcp: the server is not offered", async () => {
        const from = mock.requests.length;
        const run = await lab.scv(
          ["delegate", other.cli, "--policy", "auto", "--json", "--timeout", "120s", "just answer"],
          { limitMs: 150_000 },
        );
        expectTurn(other.cli, run, 0);
        const requests = mock.requests.slice(from);
        expect(requests.length).toBeGreaterThan(0);
        expect(requests.some(offersDocs)).toBe(false);
        expect(requests.some(offersDecoy), `${who} was offered the project's own server`).toBe(false);
        await expectNothingLeft(lab, other.cli, `scv delegate ${other.cli}`);
      });
    },
  );
}
