// MCP servers through the built scv to fake agent CLIs (src/turn/mcp-servers.ts): what each CLI is
// given (its argv, the variable naming a file, the file as it was while the turn ran), that a stdio
// server started as the CLI would start it gets its variables, and that what scv rendered is gone
// once the turn ends, however it ends. The servers' secrets are canaries: never in what scv prints,
// the agent's argv or environment, or what scv keeps.

import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { useLab } from "../helpers/lab.js";
import { type AgentCall, agentCalls, onlyCall, scv, signIn, startScv, type World } from "../helpers/scv.js";

const lab = useLab();

const ENV_CANARY = "mcp-env-canary-7c41d";
const HEADER_CANARY = "mcp-header-canary-93be0";

interface McpCall extends AgentCall {
  readonly mcpFiles: {
    readonly files: Record<string, { readonly text?: string; readonly mode: string }>;
    readonly started: Record<string, string>;
  };
}

/** A config with a stdio server (a node script printing its variable and arguments) and an http one. */
function configure(world: World, extra = ""): void {
  const probe = join(world.root, "probe.mjs");
  writeFileSync(
    probe,
    [
      "process.stdout.write(JSON.stringify({ token: process.env.DOCS_TOKEN, args: process.argv.slice(2) }));",
      // Started to stay (FAKE_AGENT_MCP_START=stay): running while the turn runs, as a server does.
      'if (process.argv.includes("--stay")) setTimeout(() => {}, 60_000);',
      "",
    ].join("\n"),
  );
  const config = join(world.root, "config.toml");
  writeFileSync(
    config,
    [
      "[mcp_servers.docs]",
      `command = ${JSON.stringify(process.execPath)}`,
      `args = [${JSON.stringify(probe)}, "--root", "/srv/docs"]`,
      `env = { DOCS_TOKEN = "${ENV_CANARY}" }`,
      "[mcp_servers.search]",
      'url = "http://127.0.0.1:9/mcp"',
      `headers = { Authorization = "Bearer ${HEADER_CANARY}" }`,
      extra,
    ].join("\n"),
  );
  chmodSync(config, 0o600);
  world.env.SCV_CONFIG = config;
}

function call(world: World): McpCall {
  return onlyCall(world) as McpCall;
}

function optionValue(argv: readonly string[], name: string): string | undefined {
  const at = argv.indexOf(name);
  return at === -1 ? undefined : argv[at + 1];
}

/** Everything under `dir`, as text, for a canary search. */
function allText(dir: string): string {
  if (!existsSync(dir)) return "";
  let text = "";
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const path = join(dir, name);
    if (statSync(path).isFile()) text += readFileSync(path, "utf8");
  }
  return text;
}

/** Not in what scv printed, kept under $SCV_HOME, or gave any agent as argv or environment (the
 * fake agents' own records hold what they read from the rendered files, and are not searched). */
function expectNoCanary(world: World, ...texts: string[]): void {
  const given = agentCalls(world).map((each) => [...each.argv, ...Object.values(each.env)].join("\n"));
  for (const text of [...texts, allText(world.scvHome), ...given]) {
    expect(text).not.toContain(ENV_CANARY);
    expect(text).not.toContain(HEADER_CANARY);
  }
}

describe("scv delegate --mcp", () => {
  it("gives Claude Code the server in a --mcp-config file of the turn's, with --strict-mcp-config; the server alone gets its secret; all of it goes with the turn", async () => {
    const world = lab.world;
    configure(world);
    await signIn(world, "claude");
    const run = await scv(world, ["delegate", "claude", "--mcp", "docs", "--json", "Say hi"], {
      env: { FAKE_AGENT_MCP_START: "1" },
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const got = call(world);
    const file = optionValue(got.argv, "--mcp-config") ?? "";
    expect(file).toBe(join(got.env.TMPDIR ?? "", "scv-mcp", "mcp.json"));
    expect(got.argv.slice(0, 4)).toEqual(["-p", "--mcp-config", file, "--strict-mcp-config"]);
    const rendered = got.mcpFiles.files[file];
    expect(rendered?.mode).toBe("0600");
    const envFile = join(got.env.TMPDIR ?? "", "scv-mcp", "docs.env");
    expect(JSON.parse(rendered?.text ?? "")).toEqual({
      mcpServers: {
        docs: {
          command: "/bin/sh",
          args: [
            "-c",
            'set -a; . "$0"; set +a; exec "$@"',
            envFile,
            process.execPath,
            join(world.root, "probe.mjs"),
            "--root",
            "/srv/docs",
          ],
        },
      },
    });
    expect(got.mcpFiles.files[envFile]?.mode).toBe("0600");
    // Started as Claude Code starts a stdio server: the server has its variable and its arguments.
    expect(JSON.parse(got.mcpFiles.started.docs ?? "")).toEqual({
      token: ENV_CANARY,
      args: ["--root", "/srv/docs"],
    });
    expect(existsSync(file)).toBe(false);
    expect(existsSync(envFile)).toBe(false);
    expect(readdirSync(world.tmp)).toEqual([]);
    expect(got.argv.join(" ")).not.toContain(ENV_CANARY);
    expect(Object.values(got.env).join(" ")).not.toContain(ENV_CANARY);
    expectNoCanary(world, run.stdout, run.stderr);
  });

  it("gives no server by default, and keeps others out; an agent's default from the config, and --mcp none over it", async () => {
    const world = lab.world;
    configure(world, '[agents.claude]\nmcp = ["docs"]');
    await signIn(world, "claude");
    const byDefault = await scv(world, ["delegate", "claude", "--events", "Say hi"]);
    expect(byDefault.exitCode, byDefault.stderr).toBe(0);
    const none = await scv(world, ["delegate", "claude", "--mcp", "none", "Say hi"]);
    expect(none.exitCode, none.stderr).toBe(0);
    const [withDefault, withNone] = agentCalls(world) as McpCall[];
    expect(optionValue(withDefault?.argv ?? [], "--mcp-config")).toMatch(/scv-mcp\/mcp\.json$/);
    expect(withNone?.argv).toContain("--strict-mcp-config");
    expect(withNone?.argv).not.toContain("--mcp-config");
    expectNoCanary(world, byDefault.stdout, byDefault.stderr, none.stdout, none.stderr);

    const unconfigured = join(world.root, "empty.toml");
    writeFileSync(unconfigured, "");
    const plain = await scv(world, ["delegate", "claude", "Say hi"], { env: { SCV_CONFIG: unconfigured } });
    expect(plain.exitCode, plain.stderr).toBe(0);
    const last = agentCalls(world).at(-1);
    expect(last?.argv.slice(0, 2)).toEqual(["-p", "--strict-mcp-config"]);
  });

  it("removes what it rendered after a failed turn and after one it ended", async () => {
    const world = lab.world;
    configure(world);
    await signIn(world, "claude");
    const failed = await scv(world, ["delegate", "claude", "--mcp", "docs,search", "Say hi"], {
      env: { FAKE_AGENT_MODE: "exit:1" },
    });
    expect(failed.exitCode).toBe(1);
    const timedOut = await scv(world, ["delegate", "claude", "--mcp", "docs", "--timeout", "1s", "Say hi"], {
      env: { FAKE_AGENT_MODE: "hang" },
    });
    await lab.pidsOf();
    expect(timedOut.exitCode).toBe(124);
    const calls = agentCalls(world) as McpCall[];
    expect(calls).toHaveLength(2);
    for (const each of calls) {
      const file = optionValue(each.argv, "--mcp-config") ?? "";
      expect(each.mcpFiles.files[file]?.mode).toBe("0600");
      expect(existsSync(file)).toBe(false);
    }
    expect(readdirSync(world.tmp)).toEqual([]);
    expectNoCanary(world, failed.stdout, failed.stderr, timedOut.stdout, timedOut.stderr);
  });

  it("is removed by the next scv when the turn's scv was SIGKILLed, and by scv kill", async () => {
    const world = lab.world;
    configure(world);
    await signIn(world, "claude");
    const killed = startScv(world, ["delegate", "claude", "--mcp", "docs", "Say hi"], {
      env: { FAKE_AGENT_MODE: "hang" },
    });
    await lab.pidsOf();
    killed.kill("SIGKILL");
    await killed;
    const file = optionValue(agentCalls(world)[0]?.argv ?? [], "--mcp-config") ?? "";
    expect(existsSync(file)).toBe(true);
    expect((await scv(world, ["ps"])).exitCode).toBe(0);
    expect(existsSync(file)).toBe(false);

    const stopped = startScv(world, ["delegate", "claude", "--mcp", "docs", "Say hi"], {
      env: { FAKE_AGENT_MODE: "hang", FAKE_AGENT_PIDS: "pids-2.json" },
    });
    await lab.pidsOf("pids-2.json");
    const second = optionValue(agentCalls(world)[1]?.argv ?? [], "--mcp-config") ?? "";
    expect(existsSync(second)).toBe(true);
    const handle =
      /^claude-[0-9a-z]{6}/.exec(
        second
          .split("/")
          .find((part) => part.startsWith("scv-claude-"))
          ?.slice(4) ?? "",
      )?.[0] ?? "";
    const kill = await scv(world, ["kill", handle]);
    expect(kill.exitCode, kill.stderr).toBe(0);
    await stopped;
    expect(existsSync(second)).toBe(false);
    expect(readdirSync(world.tmp)).toEqual([]);
  });

  it("gives Codex -c overrides, also when continuing", async () => {
    const world = lab.world;
    configure(world);
    await signIn(world, "codex");
    const first = await scv(world, ["delegate", "codex", "--mcp", "docs", "Say hi"]);
    expect(first.exitCode, first.stderr).toBe(0);
    const handle = /conversation: (\S+)/.exec(first.stderr)?.[1] ?? "";
    const next = await scv(world, ["delegate", "-c", handle, "--mcp", "docs", "Again"]);
    expect(next.exitCode, next.stderr).toBe(0);
    const [started, resumed] = agentCalls(world);
    const envFile = (argv: readonly string[]) =>
      argv.find((arg) => arg.startsWith("mcp_servers.docs.args="))?.match(/"([^"]*docs\.env)"/)?.[1];
    expect(started?.argv.slice(0, 5)).toEqual([
      "exec",
      "-c",
      'mcp_servers.docs.command="/bin/sh"',
      "-c",
      expect.stringMatching(/^mcp_servers\.docs\.args=\["-c",/),
    ]);
    expect(resumed?.argv.slice(0, 3)).toEqual(["exec", "resume", "-c"]);
    expect(envFile(started?.argv ?? [])).toMatch(/scv-mcp\/docs\.env$/);
    expect(existsSync(envFile(started?.argv ?? []) ?? "")).toBe(false);
    expectNoCanary(world, first.stdout, first.stderr, next.stdout, next.stderr);
  });

  it("gives Copilot CLI an @file and OpenCode a config file named by OPENCODE_CONFIG", async () => {
    const world = lab.world;
    configure(world);
    const run = await scv(world, ["delegate", "copilot", "opencode", "--mcp", "search", "Say hi"]);
    expect(run.exitCode, run.stderr).toBe(0);
    const calls = agentCalls(world) as McpCall[];
    const of = (cli: string) => calls.find((each) => each.cli === cli);
    const copilot = of("copilot");
    const copilotFile = (optionValue(copilot?.argv ?? [], "--additional-mcp-config") ?? "").replace(/^@/, "");
    expect(copilot?.argv).toContain("--disable-builtin-mcps");
    expect(JSON.parse(copilot?.mcpFiles.files[copilotFile]?.text ?? "")).toEqual({
      mcpServers: {
        search: {
          type: "http",
          url: "http://127.0.0.1:9/mcp",
          headers: { Authorization: `Bearer ${HEADER_CANARY}` },
          tools: ["*"],
        },
      },
    });
    const opencode = of("opencode");
    const opencodeFile = opencode?.env.OPENCODE_CONFIG ?? "";
    expect(opencode?.mcpFiles.files[opencodeFile]?.mode).toBe("0600");
    for (const path of [copilotFile, opencodeFile]) {
      expect(path).toMatch(/scv-mcp\/(mcp|settings)\.json$/);
      expect(existsSync(path)).toBe(false);
    }
    // The header is in the agents' own 0600 files only, never printed or kept.
    expect(run.stdout + run.stderr).not.toContain(HEADER_CANARY);
    for (const each of calls) expect(each.argv.join(" ")).not.toContain(HEADER_CANARY);
    expect(allText(world.scvHome)).not.toContain(HEADER_CANARY);
  });

  it("refuses a config holding a server's secret that others can read", async () => {
    const world = lab.world;
    configure(world);
    await signIn(world, "claude");
    const config = world.env.SCV_CONFIG ?? "";
    chmodSync(config, 0o644);
    const run = await scv(world, ["delegate", "claude", "Say hi"]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe(
      `scv: config file ${config} holds secrets (mcp_servers.docs.env) and others can read it — run: chmod 600 ${config}\n`,
    );
    expect(agentCalls(world)).toEqual([]);
  });

  it("refuses an unknown server, and servers for an agent with no way to take them, before running", async () => {
    const world = lab.world;
    configure(world);
    await signIn(world, "claude");
    const unknown = await scv(world, ["delegate", "claude", "--mcp", "nope", "Say hi"]);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toBe(
      "scv: --mcp 'nope': no [mcp_servers.nope] in scv's config — known: docs, search\n",
    );
    const pi = await scv(world, ["delegate", "pi", "--mcp", "docs", "Say hi"]);
    expect(pi.exitCode).toBe(2);
    expect(pi.stderr).toContain(
      "pi cannot be given MCP servers on its command line (pi reads MCP servers only from mcp.json in its agent home, which concurrent turns share",
    );
    const gemini = await scv(world, ["delegate", "gemini", "--mcp", "docs", "Say hi"]);
    expect(gemini.exitCode).toBe(2);
    // Whoever runs scv, root included: what Gemini CLI checks, not only who owns the file.
    expect(gemini.stderr).toBe(
      "scv: Gemini CLI cannot be given MCP servers on its command line (it reads a per-run settings file only where root owns it and every folder above it, none writable by group or others, and scv writes a turn's files under TMPDIR (/tmp is writable by all); over ACP session/new takes them) — use --transport acp, or drop --mcp\n",
    );
    expect(gemini.stderr).not.toContain("must be owned by root");
    const codexHeaders = await scv(world, ["delegate", "codex", "--mcp", "search", "Say hi"]);
    expect(codexHeaders.exitCode).toBe(2);
    const bad = await scv(world, ["delegate", "claude", "--mcp", "docs,,search", "Say hi"]);
    expect(bad.exitCode).toBe(2);
    expect(agentCalls(world)).toEqual([]);
  });

  it("passes a background turn's servers to the detached scv that runs it", async () => {
    const world = lab.world;
    configure(world);
    await signIn(world, "claude");
    const started = await scv(world, ["delegate", "--background", "claude", "--mcp", "docs", "Say hi"]);
    expect(started.exitCode, started.stderr).toBe(0);
    const waited = await scv(world, ["wait", started.stdout.trim()]);
    expect(waited.exitCode, waited.stderr).toBe(0);
    const got = call(world);
    expect(optionValue(got.argv, "--mcp-config")).toMatch(/scv-mcp\/mcp\.json$/);
    expectNoCanary(world, started.stdout, started.stderr, waited.stdout, waited.stderr);
  });
});

describe("scv delegate --mcp, while the turn runs", () => {
  it("shows the secret in no process's argv (ps) and in no row of scv ps; the server's environment has it", async () => {
    const world = lab.world;
    configure(world);
    const config = readFileSync(world.env.SCV_CONFIG ?? "", "utf8").replace(
      '"/srv/docs"]',
      '"/srv/docs", "--stay"]',
    );
    writeFileSync(world.env.SCV_CONFIG ?? "", config);
    await signIn(world, "claude");
    const turn = startScv(world, ["delegate", "claude", "--mcp", "docs", "Say hi"], {
      env: { FAKE_AGENT_MODE: "hang", FAKE_AGENT_MCP_START: "stay" },
    });
    try {
      const [agent] = await lab.pidsOf();
      const server = Number(readFileSync(join(world.calls, "mcp-server.pid"), "utf8"));
      lab.track([server]);
      const table = execFileSync("ps", ["-eo", "pid,args"], { encoding: "utf8" });
      expect(table).toContain(String(agent));
      expect(table).toMatch(new RegExp(`^\\s*${server} /bin/sh |^\\s*${server} \\S*node `, "m"));
      expect(table).not.toContain(ENV_CANARY);
      const listed = await scv(world, ["ps", "--json"]);
      expect(listed.exitCode, listed.stderr).toBe(0);
      expect(listed.stdout).toContain("claude");
      expect(listed.stdout).not.toContain(ENV_CANARY);
      // The server itself has its variable.
      expect(readFileSync(`/proc/${server}/environ`, "utf8").split("\0")).toContain(
        `DOCS_TOKEN=${ENV_CANARY}`,
      );
      expect(readFileSync(`/proc/${agent}/environ`, "utf8")).not.toContain(ENV_CANARY);
    } finally {
      turn.kill("SIGTERM");
      await turn;
    }
    expect(readdirSync(world.tmp)).toEqual([]);
  });
});

const ACP_AGENT = pathToFileURL(join(import.meta.dirname, "..", "fake-agents", "acp-agent.mjs")).href;

describe("scv delegate --transport acp --mcp", () => {
  it("puts the servers in session/new, variables and headers as the protocol has them", async () => {
    const world = lab.world;
    writeFileSync(
      join(world.bin, "gemini"),
      `#!${process.execPath}\nprocess.argv.splice(2, process.argv.length, "scripted");\nimport(${JSON.stringify(ACP_AGENT)});\n`,
    );
    chmodSync(join(world.bin, "gemini"), 0o755);
    configure(world, '[defaults]\nsession_idle = "0"');
    const run = await scv(world, [
      "delegate",
      "gemini",
      "--transport",
      "acp",
      "--mcp",
      "docs,search",
      "--json",
      "Say hi",
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    const sessions = readFileSync(join(world.calls, "acp-log.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { method?: string; params?: { mcpServers?: unknown } })
      .filter((message) => message.method === "session/new");
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.params?.mcpServers).toEqual([
      {
        name: "docs",
        command: process.execPath,
        args: [join(world.root, "probe.mjs"), "--root", "/srv/docs"],
        env: [{ name: "DOCS_TOKEN", value: ENV_CANARY }],
      },
      {
        type: "http",
        name: "search",
        url: "http://127.0.0.1:9/mcp",
        headers: [{ name: "Authorization", value: `Bearer ${HEADER_CANARY}` }],
      },
    ]);
    expect(run.stdout + run.stderr).not.toContain(ENV_CANARY);
    expect(allText(world.scvHome)).not.toContain(ENV_CANARY);
    expect(allText(world.scvHome)).not.toContain(HEADER_CANARY);
  });
});
