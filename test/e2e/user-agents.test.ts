// Agents of the user's own config, through the built scv: a whole row for a CLI scv does not ship
// (test/fake-agents/acme.mjs) doing a turn and a continued one, and a shipped row changed with
// `extends` (another command, extra arguments).

import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { canaryVariables } from "../helpers/canaries.js";
import { useLab } from "../helpers/lab.js";
import { closeClients, connectMcp } from "../helpers/mcp-client.js";
import { agentCalls, configureAcme, conversationRecord, scv, signIn, type World } from "../helpers/scv.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A secret in the config's env for the agent: it reaches the agent and is never printed. */
const CONFIG_SECRET = "acme-config-secret-canary-5e1f";

let world: World;
useLab((created) => {
  world = created;
});

/** Installs `acme` on the world's PATH and writes `toml` as scv's config. */
const configure = (toml: string) => configureAcme(world, toml);

const ACME = `
[agents.acme]
command = "acme"
product = "Acme Agent"
args = ["run"]
headlessArgs = ["--stream"]
prompt = { kind = "positional", endOfOptions = true }
modelArgs = ["--model", "{model}"]
modelHint = "an Acme model, such as acme-large"
output = { kind = "claude-stream-json", args = [] }
resume = { kind = "supported", start = ["--sid", "{session}"], options = ["--resume", "{session}"], idPattern = "^[0-9a-f-]{36}$" }
removedEnvironment = ["ACME_*"]
fixedEnvironment = [["ACME_FIXED_TOKEN", "${CONFIG_SECRET}"]]
model = "acme-large"
env = { ACME_CONFIG_TOKEN = "${CONFIG_SECRET}" }
`;

function handleIn(stderr: string): string {
  const handle = /^conversation: ([a-z-]+-[0-9a-z]{6}) — continue with/m.exec(stderr)?.[1];
  if (handle === undefined) throw new Error(`no conversation line in: ${stderr}`);
  return handle;
}

describe("an agent defined in scv's config", () => {
  it("runs a first turn with its own grammar, then continues it; its own and every agent's credentials stay out", async () => {
    const env = { ...configure(ACME), ...canaryVariables(), ACME_TOKEN: "acme-inherited-canary" };
    const first = await scv(world, ["delegate", "acme", "Say hi"], { env });
    expect(first.stderr).not.toContain("scv:");
    expect(first.exitCode).toBe(0);
    expect(first.stdout).toBe("MOCK-REPLY-1\n");
    const [call] = agentCalls(world);
    const session = call?.argv[call.argv.indexOf("--sid") + 1] ?? "";
    expect(session).toMatch(UUID);
    expect(call?.argv).toEqual(["run", "--stream", "--model", "acme-large", "--sid", session, "Say hi"]);
    expect(call?.cwd).toBe(world.project);
    // Its private home, like a shipped agent's.
    expect(call?.env.HOME).toBe(join(world.scvHome, "agents", "acme"));
    // Its own removed variables, every shipped agent's, and *_API_KEY are stripped; the config's env is set.
    expect(call?.env.ACME_TOKEN).toBeUndefined();
    expect(call?.env.OPENAI_API_KEY).toBeUndefined();
    expect(call?.env.ANTHROPIC_API_KEY).toBeUndefined();
    expect(call?.env.MY_SERVICE_API_KEY).toBeUndefined();
    expect(call?.env.ACME_CONFIG_TOKEN).toBe(CONFIG_SECRET);
    expect(call?.env.ACME_FIXED_TOKEN).toBe(CONFIG_SECRET);

    const handle = handleIn(first.stderr);
    expect(handle).toMatch(/^acme-[0-9a-z]{6}$/);
    expect(conversationRecord(world, handle)).toMatchObject({ agent: "acme", sessionId: session, turns: 1 });

    const second = await scv(world, ["delegate", "-c", handle, "Say hi again"], { env });
    expect(second.stderr).not.toContain("scv:");
    expect(second.exitCode).toBe(0);
    expect(second.stdout).toBe("MOCK-REPLY-2\n");
    expect(agentCalls(world)[1]?.argv).toEqual([
      "run",
      "--stream",
      "--model",
      "acme-large",
      "--resume",
      session,
      "Say hi again",
    ]);
    expect(conversationRecord(world, handle)).toMatchObject({ turns: 2 });
    for (const run of [first, second]) expect(`${run.stdout}${run.stderr}`).not.toContain(CONFIG_SECRET);
  });

  it("is listed, shown and in status, and the secret in its env is never printed", async () => {
    const env = configure(ACME);
    const list = await scv(world, ["agents", "list", "--json"], { env });
    expect(list.exitCode).toBe(0);
    const acme = (JSON.parse(list.stdout) as { name: string; installed: boolean; resume: boolean }[]).find(
      (entry) => entry.name === "acme",
    );
    expect(acme).toMatchObject({ installed: true, resume: true });

    const show = await scv(world, ["agents", "show", "acme"], { env });
    expect(show.exitCode).toBe(0);
    expect(show.stdout).toMatch(/^agent: +acme — Acme Agent$/m);
    expect(show.stdout).toMatch(/^from: +defined in .*scv\.toml \[agents\.acme\]$/m);
    expect(show.stdout).toMatch(
      /^resume: +starts with --sid \{session\}; continues with --resume \{session\}/m,
    );
    expect(show.stdout).toMatch(/^env: +ACME_CONFIG_TOKEN \(values not shown\)$/m);
    const json = await scv(world, ["agents", "show", "acme", "--json"], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({
      name: "acme",
      output: { kind: "claude-stream-json" },
      resume: { idPattern: "^[0-9a-f-]{36}$" },
      settings: { env: ["ACME_CONFIG_TOKEN"] },
      fixedEnvironment: [["ACME_FIXED_TOKEN", "(value not shown)"]],
    });

    const status = await scv(world, ["agents", "status", "--json"], { env });
    expect(status.stdout).toContain('"acme"');
    const gc = await scv(world, ["agents", "gc", "acme", "--dry-run"], { env });
    // A row that names no transcript folder: gc says so, and checks its conversation records.
    expect(gc.stderr).toContain("transcripts skipped for acme");
    expect(gc.stderr).not.toContain("unknown agent");
    expect(gc.exitCode).toBe(0);
    for (const run of [list, show, json, status, gc]) {
      expect(`${run.stdout}${run.stderr}`).not.toContain(CONFIG_SECRET);
    }
  });

  it("runs in a fan-out beside a shipped agent, and through scv mcp's tools", async () => {
    const env = configure(ACME);
    await signIn(world, "claude");
    const both = await scv(world, ["delegate", "acme", "claude", "--json", "Say hi"], { env });
    expect(both.exitCode).toBe(0);
    const results = JSON.parse(both.stdout) as { agent: string; reply: string }[];
    expect(results.map((result) => [result.agent, result.reply])).toEqual([
      ["acme", "MOCK-REPLY-1"],
      ["claude", "MOCK-REPLY-1"],
    ]);

    const client = await connectMcp(world, env);
    try {
      const agents = await client.callTool({ name: "agents", arguments: { agent: "acme" } });
      expect(agents.isError).not.toBe(true);
      expect(JSON.stringify(agents.structuredContent)).toContain('"agent":"acme","product":"Acme Agent"');
      expect(JSON.stringify(agents)).not.toContain(CONFIG_SECRET);
      const turn = await client.callTool(
        { name: "delegate", arguments: { agent: "acme", prompt: "Say hi" } },
        { timeout: 60_000 },
      );
      expect(turn.isError).not.toBe(true);
      expect(turn.structuredContent).toMatchObject({ agent: "acme", reply: "MOCK-REPLY-1" });
    } finally {
      await closeClients();
    }
  });

  it("refuses a malformed row naming the file, the key and what was expected, and runs nothing", async () => {
    const env = configure(ACME.replace('kind = "claude-stream-json"', 'kind = "acme-json"'));
    const run = await scv(world, ["delegate", "acme", "Say hi"], { env });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/^scv: .*scv\.toml: agents\.acme\.output\.kind: expected one of "text", /m);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(agentCalls(world)).toEqual([]);
  });
});

describe("an agent of the config that speaks only ACP", () => {
  it("runs a turn and a continued one over its ACP server, in its home, with the policy's mode", async () => {
    const acpAgent = pathToFileURL(join(import.meta.dirname, "..", "fake-agents", "acp-agent.mjs")).href;
    const launcher = join(world.bin, "zed-agent");
    writeFileSync(
      launcher,
      `#!${process.execPath}\nrequire("node:fs").appendFileSync(process.env.FAKE_AGENT_DIR + "/zed-calls.jsonl", JSON.stringify({ argv: process.argv.slice(2), home: process.env.HOME, key: process.env.OPENAI_API_KEY ?? null }) + "\\n");\nprocess.argv.splice(2, process.argv.length, "scripted");\nimport(${JSON.stringify(acpAgent)});\n`,
    );
    chmodSync(launcher, 0o755);
    const env = {
      ...configure(`
[defaults]
session_idle = "0"

[agents.zed]
command = "zed-agent"
transport = "acp"
cliTurns = false
acp = { command = "zed-agent", args = ["--acp"], full = { kind = "mode", mode = "yolo" }, fullEnvironment = [], verified = { kind = "unverified", reason = "a test's" } }
`),
      OPENAI_API_KEY: "sk-canary-zed",
    };
    const first = await scv(world, ["delegate", "zed", "--policy", "auto", "Say hi"], { env });
    expect(first.stderr).not.toContain("scv:");
    expect(first.exitCode).toBe(0);
    expect(first.stdout).toBe("REPLY Say hi (turn 1, mode yolo)\n");
    const handle = handleIn(first.stderr);
    const second = await scv(world, ["delegate", "-c", handle, "Again"], { env });
    expect(second.exitCode).toBe(0);
    // A continued turn loads the session in a new server (turn 2); a policy is never carried over.
    expect(second.stdout).toBe("REPLY Again (turn 2, mode default)\n");
    const calls = readFileSync(join(world.calls, "zed-calls.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { argv: string[]; home: string; key: string | null });
    expect(calls).toEqual([
      { argv: ["--acp"], home: join(world.scvHome, "agents", "zed"), key: null },
      { argv: ["--acp"], home: join(world.scvHome, "agents", "zed"), key: null },
    ]);
  });
});

describe("a shipped agent changed with extends", () => {
  it("runs another command with extra arguments under a name of its own, and codex itself as before", async () => {
    // A wrapper of the user's: marks its calls, then runs the (fake) codex.
    const wrapper = join(world.root, "wrappers", "my-codex");
    mkdirSync(join(world.root, "wrappers"));
    writeFileSync(wrapper, `#!/bin/sh\nFAKE_AGENT_VIA=wrapper exec ${join(world.bin, "codex")} "$@"\n`);
    chmodSync(wrapper, 0o755);
    const env = configure(`
[agents.codex-fast]
extends = "codex"
command = "${wrapper}"
extra_args = ["-c", 'model_reasoning_summary="none"']
model = "gpt-5.5-mini"
`);
    await signIn(world, "codex");
    // Its own home, signed in as codex's would be (its row's key store is codex's).
    const home = join(world.scvHome, "agents", "codex-fast");
    mkdirSync(home, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(home, "auth.json"),
      JSON.stringify({ auth_mode: "apikey", OPENAI_API_KEY: "sk-test-key" }),
      {
        mode: 0o600,
      },
    );
    const run = await scv(world, ["delegate", "codex-fast", "Say hi"], { env });
    expect(run.stderr).not.toContain("scv:");
    expect(run.exitCode).toBe(0);
    const [call] = agentCalls(world);
    expect(call?.env.FAKE_AGENT_VIA).toBe("wrapper");
    expect(call?.env.CODEX_HOME).toBe(join(world.scvHome, "agents", "codex-fast"));
    expect(call?.argv).toEqual([
      "exec",
      "--skip-git-repo-check",
      "-c",
      'model_reasoning_summary="none"',
      "--json",
      "-o",
      expect.any(String),
      "-m",
      "gpt-5.5-mini",
      "Say hi",
    ]);
    const plain = await scv(world, ["delegate", "codex", "Say hi"], { env });
    expect(plain.exitCode).toBe(0);
    expect(agentCalls(world)[1]?.env.FAKE_AGENT_VIA).toBeUndefined();
    expect(agentCalls(world)[1]?.argv).not.toContain('model_reasoning_summary="none"');
  });

  it("refuses to change a shipped row without saying so", async () => {
    const env = configure(`
[agents.codex]
headlessArgs = ["--skip-git-repo-check", "--oss"]
`);
    const run = await scv(world, ["delegate", "codex", "Say hi"], { env });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(
      /scv\.toml: agents\.codex\.headlessArgs: 'codex' is a shipped agent — to change its row add extends = "codex", or replace = true/,
    );
  });
});
