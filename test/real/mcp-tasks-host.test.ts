// scv's delegate as an MCP task in the real Claude Code, offline. Claude Code runs tool calls as tasks
// only in its interactive UI (`-p` sends none: its task switch defaults on for the "cli" entrypoint
// alone), so it runs here under tmux, as a person starts it, with scv given by --mcp-config; its mock
// model calls scv's delegate, and scv delegates to the real Codex, whose own mock answers only after
// 70 s — longer than the 55 s a blocking delegate waits, and than the 60 s hosts commonly cut a call
// at (Claude Code's own limit for a stdio tool call is 30 minutes idle, MCP_TOOL_TIMEOUT otherwise).
// What Claude Code's model was given is read in its next requests: at once, that the call became a
// task in the background (not a 55 s block); later, a task notification carrying Codex's reply. The
// task's record in $SCV_HOME says which protocol version and shape it took. With
// CLAUDE_CODE_DISABLE_MCP_TASKS=1 the same call takes the blocking route: the model is told to wait
// for the job, and no task is made.

import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configureClaude, MOCK_SHAPE } from "./clis.js";
import { type Lab, scvEntry } from "./harness.js";
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
import { type MockServer, startMock } from "./mock/server.mjs";
import { PROBE_FILE } from "./mock/tools.mjs";
import { PROFILES, row } from "./profiles.js";

const CODEX_PROFILE = PROFILES.find((profile) => profile.cli === "codex");
const CODEX_SAYS = "CODEX-SAYS";
const TMUX = "/usr/bin/tmux";
const JOB = /codex-[0-9a-z]{6}\.[0-9a-z]{8}/;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/** Everything Claude Code's requests carried, in order (each request's body as text). */
function bodies(host: MockServer): string[] {
  return host.requests.filter((request) => request.kind === "generate").map((request) => request.rawBody);
}

async function until<T>(
  what: string,
  look: () => T | undefined,
  withinMs: number,
  screen: () => string,
): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const found = look();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`never saw ${what}; the screen:\n${screen()}`);
    await pause(250);
  }
}

/** Claude Code's UI in a private tmux server, scv given by --mcp-config; its model (the mock) calls
 * delegate with `input` when the message is typed. */
async function claudeUi(
  lab: Lab,
  name: string,
  input: Record<string, unknown>,
  extraEnv: Record<string, string>,
) {
  const host = await startMock({
    shape: "anthropic",
    text: "CLAUDE-SAYS",
    toolCall: { suffix: "__delegate", input },
  });
  const configDir = join(lab.home, `.claude-${name}`);
  const claude = await configureClaude({
    home: lab.home,
    mockUrl: host.url,
    apiKey: dummyKey("claude"),
    configDir,
  });
  // A person who has used Claude Code here before: no first-run questions.
  writeFileSync(
    join(configDir, ".claude.json"),
    JSON.stringify({
      hasCompletedOnboarding: true,
      theme: "dark",
      bypassPermissionsModeAccepted: true,
      projects: { [lab.cwd]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
    }),
  );
  const mcpConfig = join(lab.root, `mcp-${name}.json`);
  writeFileSync(
    mcpConfig,
    JSON.stringify({
      mcpServers: {
        scv: { command: process.execPath, args: [scvEntry(), "mcp"], env: { SCV_HOME: lab.scvHome } },
      },
    }),
  );
  const env: Record<string, string> = Object.fromEntries(
    Object.entries(lab.env).filter(([variable]) => !variable.startsWith("ANTHROPIC_")),
  );
  Object.assign(env, claude.env, { ENABLE_TOOL_SEARCH: "false", TERM: "xterm-256color" }, extraEnv);
  const socket = join(lab.root, `${name}.sock`);
  const script = join(lab.root, `${name}.sh`);
  const exports = Object.entries(env)
    .map(([variable, value]) => `export ${variable}=${quote(value)}`)
    .join("\n");
  const claudeArgs = [
    "--model",
    "sonnet",
    "--permission-mode",
    "bypassPermissions",
    "--mcp-config",
    mcpConfig,
    "--strict-mcp-config",
  ];
  writeFileSync(
    script,
    `#!/bin/sh\nunset CI\n${exports}\ncd ${quote(lab.cwd)}\n${quote(join(BIN ?? "", "claude"))} ${claudeArgs.map(quote).join(" ")}\nsleep 600\n`,
  );
  chmodSync(script, 0o755);
  const tmux = (...args: string[]) => execFileSync(TMUX, ["-S", socket, ...args], { encoding: "utf8" });
  tmux("-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "200", "-y", "50", script);
  const screen = () => {
    try {
      return tmux("capture-pane", "-p", "-J", "-t", "t");
    } catch (error) {
      return String(error);
    }
  };
  await until(
    "Claude Code's prompt",
    () => (/bypass permissions on/.test(screen()) ? true : undefined),
    60_000,
    screen,
  );
  /** Types the message until the model is offered scv's tools (MCP connects beside the UI). */
  const ask = async (message: string): Promise<number> => {
    for (let attempt = 0; attempt < 4; attempt += 1) {
      tmux("send-keys", "-t", "t", "-l", message);
      await pause(300);
      tmux("send-keys", "-t", "t", "Enter");
      const before = host.requests.length;
      const called = await until(
        "Claude Code's next request",
        () => {
          const later = host.requests.slice(before).filter((request) => request.kind === "generate");
          if (later.some((request) => request.toolCall !== null)) return true;
          return later.some((request) => request.reply !== null) ? false : undefined;
        },
        60_000,
        screen,
      );
      if (called) return Date.now();
      await pause(3_000);
    }
    throw new Error(`Claude Code never offered scv's delegate tool; the screen:\n${screen()}`);
  };
  const end = () => {
    try {
      tmux("kill-server");
    } catch {
      // Gone already.
    }
  };
  return { host, screen, ask, end, keys: (...keys: string[]) => tmux("send-keys", "-t", "t", ...keys) };
}

describe.skipIf(BIN === undefined || CODEX_PROFILE === undefined)(
  "scv's delegate as a task in the real Claude Code",
  () => {
    let trap: MockServer;
    let codexMock: MockServer;
    let lab: Lab;
    let canary: string;
    const hostMocks: MockServer[] = [];

    beforeAll(async () => {
      trap = await startMock({ shape: "openai-chat", text: "TRAP" });
      codexMock = await startMock({ shape: "openai-responses", text: CODEX_SAYS });
      canary = newCanary();
      lab = newLab("mcp-tasks", canary, trap);
      const key = dummyKey("codex");
      const endpoint = await writeEndpoint(
        lab,
        CODEX_PROFILE as NonNullable<typeof CODEX_PROFILE>,
        codexMock,
        key,
      );
      lab.writeConfig(agentToml("codex", { model: endpoint.config.model }, endpoint.agentEnv));
      const login = await lab.scv(["agents", "login", "codex", "--with-api-key"], { input: `${key}\n` });
      expect(login.code).toBe(0);
    });

    afterAll(async () => {
      try {
        for (const request of codexMock?.requests ?? [])
          expect(wireText(request), "an exported canary reached the delegated codex").not.toContain(canary);
        expect(trap?.requests.map((request) => `${request.method} ${request.url}`) ?? []).toEqual([]);
      } finally {
        for (const mock of [codexMock, trap, ...hostMocks]) await mock?.close();
        await lab?.[Symbol.asyncDispose]();
      }
    });

    it("Claude Code gets a task at once, not a 55 s block, and its later model request carries Codex's reply (a task notification)", async () => {
      codexMock.setDelay(70_000);
      const prompt = "mcp tasks host test: a slow codex";
      const ui = await claudeUi(
        lab,
        "tasks",
        { agent: "codex", prompt, policy: "auto", wait_seconds: 50 },
        {},
      );
      hostMocks.push(ui.host);
      try {
        const calledAt = await ui.ask("Ask codex, through scv.");
        // The tool result came back within seconds: the call became a task in the background.
        const told = await until(
          "the tool result",
          () =>
            bodies(ui.host).find(
              (body) =>
                body.includes("tool_result") &&
                body.includes("mcp__scv__delegate") &&
                /started server-side task/.test(body),
            ),
          30_000,
          ui.screen,
        );
        expect(Date.now() - calledAt).toBeLessThan(25_000);
        const job = JOB.exec(told)?.[0];
        expect(job, told.slice(-3000)).toBeDefined();
        expect(told).toMatch(/moved to the background as task/);
        // Codex got the prompt (its mock holds the answer back).
        await until(
          "the delegated codex's request",
          () => (requestsWith(codexMock, prompt).length > 0 ? true : undefined),
          30_000,
          ui.screen,
        );
        // Which protocol version and shape it took: the task's record beside its job.
        const record = JSON.parse(readFileSync(join(lab.scvHome, "turns", `${job}.task.json`), "utf8")) as {
          protocol: string;
          host: { name: string; version?: string };
        };
        expect(record.protocol).toBe("2026-07-28");
        expect(record.host).toEqual({ name: "claude-code", version: named("claude").split(" ")[1] });
        const delivered = await until(
          "a task notification with Codex's reply",
          () =>
            bodies(ui.host).find(
              (body) => body.includes("task-notification") && body.includes(`${CODEX_SAYS}-`),
            ),
          150_000,
          ui.screen,
        );
        expect(delivered).toContain(job);
        expect(delivered).toMatch(/<status>completed<\/status>/);
        expect(delivered).toMatch(new RegExp(`\\\\"reply\\\\":\\\\"${CODEX_SAYS}-\\d+`));
      } finally {
        ui.end();
        codexMock.setDelay(0);
      }
      await expectNothingLeft(lab, "claude", "Claude Code with an scv task");
    });

    it("with CLAUDE_CODE_DISABLE_MCP_TASKS=1 the same call takes the blocking route: the model is told to wait for the job", async () => {
      codexMock.setDelay(30_000);
      const prompt = "mcp tasks host test: tasks off";
      const ui = await claudeUi(
        lab,
        "no-tasks",
        { agent: "codex", prompt, policy: "auto", wait_seconds: 10 },
        { CLAUDE_CODE_DISABLE_MCP_TASKS: "1" },
      );
      hostMocks.push(ui.host);
      try {
        const calledAt = await ui.ask("Ask codex, through scv.");
        const told = await until(
          "the tool result",
          () =>
            bodies(ui.host).find((body) => body.includes("tool_result") && /Call wait with job/.test(body)),
          60_000,
          ui.screen,
        );
        // It blocked for wait_seconds, then said to wait for the job.
        expect(Date.now() - calledAt).toBeGreaterThanOrEqual(9_000);
        expect(told).not.toContain("server-side task");
        const job = JOB.exec(told)?.[0];
        expect(job).toBeDefined();
        expect(
          readdirSync(join(lab.scvHome, "turns")).filter(
            (file) => file.endsWith(".task.json") && file.startsWith(job ?? ""),
          ),
        ).toEqual([]);
        const waited = await lab.scv(["wait", job ?? ""]);
        expect(waited.code).toBe(0);
        expect(waited.stdout).toContain(`${CODEX_SAYS}-`);
      } finally {
        ui.end();
        codexMock.setDelay(0);
      }
      await expectNothingLeft(lab, "claude", "Claude Code with tasks off");
    });
  },
);

const GEMINI_PROFILE = PROFILES.find((profile) => profile.cli === "gemini");

describe.skipIf(BIN === undefined || GEMINI_PROFILE === undefined)(
  "an approval inside the task reaches the person at the real Claude Code",
  () => {
    let trap: MockServer;
    let mock: MockServer;
    let lab: Lab;
    let canary: string;
    let host: MockServer | undefined;

    beforeAll(async () => {
      const profile = GEMINI_PROFILE as NonNullable<typeof GEMINI_PROFILE>;
      trap = await startMock({ shape: "openai-chat", text: "TRAP" });
      // The first request is answered with a call of Gemini's shell tool (`touch scv-tool-probe.txt`).
      mock = await startMock({ shape: MOCK_SHAPE.gemini, mode: "tool" });
      canary = newCanary();
      lab = newLab("mcp-tasks-gemini", canary, trap);
      const key = dummyKey("gemini");
      const endpoint = await writeEndpoint(lab, profile, mock, key);
      const model: Record<string, string> =
        row("gemini").acp?.modelArgs === undefined ? {} : { model: endpoint.config.model };
      lab.writeConfig(
        agentToml(
          "gemini",
          { transport: "acp", policy: "default", ...model, session_idle: "0" },
          endpoint.agentEnv,
        ),
      );
      if (profile.signIn === "api-key") {
        const login = await lab.scv(["agents", "login", "gemini", "--with-api-key"], { input: `${key}\n` });
        expect(login.code).toBe(0);
      }
    }, 120_000);

    afterAll(async () => {
      try {
        for (const request of mock?.requests ?? [])
          expect(wireText(request), "an exported canary reached gemini").not.toContain(canary);
        expect(trap?.requests.length ?? 0).toBe(0);
      } finally {
        for (const each of [mock, trap, host]) await each?.close();
        await lab?.[Symbol.asyncDispose]();
      }
    });

    it("Gemini over ACP asks to run a tool: Claude Code shows its person the form; the answer chosen there reaches Gemini", async () => {
      const ui = await claudeUi(
        lab,
        "approve",
        { agent: "gemini", prompt: "mcp tasks host test: use your shell tool", policy: "default" },
        {},
      );
      host = ui.host;
      try {
        await ui.ask("Ask gemini, through scv.");
        // The question, as the person sees it: the agent, the tool, what it would run.
        const form = await until(
          "the form asking the person",
          () => {
            const text = ui.screen();
            return /requests your input/.test(text) && /touch scv-tool-probe\.txt/.test(text)
              ? text
              : undefined;
          },
          120_000,
          ui.screen,
        );
        expect(form).toMatch(/gemini asks to run .*touch scv-tool-probe\.txt.*Allow it\?/);
        expect(existsSync(join(lab.cwd, PROBE_FILE)), "the command ran before the person answered").toBe(
          false,
        );
        // Open the answers, choose the first (Allow once), accept the form.
        ui.keys("Right");
        await until(
          "the answers",
          () => (/Allow once/.test(ui.screen()) ? true : undefined),
          10_000,
          ui.screen,
        );
        ui.keys("Enter");
        await until(
          "the chosen answer",
          () => (/✔.*Allow once/.test(ui.screen()) ? true : undefined),
          10_000,
          ui.screen,
        );
        // The focus moves on to Accept once the field is set; Enter there sends the form.
        await until(
          "Accept focused",
          () => (/❯ Accept/.test(ui.screen()) ? true : undefined),
          10_000,
          ui.screen,
        );
        await pause(500);
        ui.keys("Enter");
        const delivered = await until(
          "a task notification with Gemini's reply",
          () =>
            bodies(ui.host).find((body) => body.includes("task-notification") && body.includes("MOCK-REPLY")),
          150_000,
          ui.screen,
        );
        expect(delivered).toMatch(/<status>completed<\/status>/);
        expect(existsSync(join(lab.cwd, PROBE_FILE)), "the command the person allowed never ran").toBe(true);
      } finally {
        ui.end();
      }
      await expectNothingLeft(lab, "claude", "Claude Code asking its person for Gemini");
    });
  },
);
