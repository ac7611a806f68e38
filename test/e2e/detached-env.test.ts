// The detached scvs — a background turn's runner, a session host, `scv mcp`'s spare runner — outlive
// the command that started them, so their environment (readable in /proc/<pid>/environ) holds only
// what scv reads: no secret of the caller's shell. What the turn's agent may inherit still reaches
// it (a user's own variable), and what no agent inherits (a model provider's key) still does not.

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterEach, describe, expect, it } from "vitest";
import { type AcpWorld, acpWorldPerTest, resultOf } from "../helpers/acp-world.js";
import { killAll } from "../helpers/pids.js";
import { agentCalls, agentPids, SCV, scv, signIn } from "../helpers/scv.js";

let world: AcpWorld;
const started: number[] = [];
acpWorldPerTest((created) => {
  world = created;
  // A provider's key, which no agent inherits, and the user's own secret, which agents do.
  world.env.OPENAI_API_KEY = "sk-canary-provider-7f3a";
  world.env.MY_DB_PASSWORD = "canary-user-secret-91c2";
});
afterEach(() => killAll(started.splice(0)));

const CANARIES = ["sk-canary-provider-7f3a", "canary-user-secret-91c2"];

function environ(pid: number): string {
  return readFileSync(`/proc/${pid}/environ`, "latin1");
}

/** The canaries in `pid`'s environment. */
function canariesOf(pid: number): string[] {
  const text = environ(pid);
  return CANARIES.filter((canary) => text.includes(canary));
}

async function found<T>(find: () => T | undefined, withinMs: number): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error("not found in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A background claude turn whose agent waits; its conversation and its runner's pid. */
async function hangingInBackground(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ handle: string; runner: number }> {
  const run = await scv(world, ["delegate", "--background", "claude", ...args, "wait"], {
    env: { FAKE_AGENT_MODE: "hang", ...env },
  });
  expect(run.exitCode, run.stderr).toBe(0);
  const handle = run.stdout.trim().replace(/\.[0-9a-z]{8}$/, "");
  started.push(...(await agentPids(world)));
  const record = JSON.parse(readFileSync(join(world.scvHome, "turns", `${handle}.json`), "utf8")) as {
    scv: { pid: number };
  };
  started.push(record.scv.pid);
  return { handle, runner: record.scv.pid };
}

describe.runIf(process.platform === "linux")("what a detached scv's environment holds", () => {
  it("a background turn's runner: no canary; its agent gets the user's variable and not the provider's key", async () => {
    await signIn(world, "claude");
    const { handle, runner } = await hangingInBackground([]);
    expect(environ(runner)).toContain(`SCV_HOME=${world.scvHome}`);
    expect(canariesOf(runner)).toEqual([]);
    const [call] = agentCalls(world);
    expect(call?.env.MY_DB_PASSWORD).toBe("canary-user-secret-91c2");
    expect(call?.env.FAKE_AGENT_MODE).toBe("hang");
    expect(call?.env.OPENAI_API_KEY).toBeUndefined();
    expect((await scv(world, ["kill", handle])).exitCode).toBe(0);
  });

  it("a background turn with an endpoint of the user's own: its agent gets the key, the runner's environment does not", async () => {
    const key = "sk-endpoint-canary-5d1e";
    writeFileSync(
      join(world.root, "config.toml"),
      '[agents.claude]\nbase_url = "http://127.0.0.1:4000"\napi_key_env = "MY_ENDPOINT_KEY"\n',
    );
    world.env.SCV_CONFIG = join(world.root, "config.toml");
    const { handle, runner } = await hangingInBackground(["-m", "mock-model"], { MY_ENDPOINT_KEY: key });
    expect(environ(runner)).not.toContain(key);
    const [call] = agentCalls(world);
    const holding = Object.entries(call?.env ?? {}).filter(([, value]) => value === key);
    expect(holding.map(([name]) => name)).toEqual(["ANTHROPIC_API_KEY"]);
    expect((await scv(world, ["kill", handle])).exitCode).toBe(0);
  });

  it("a session host: no canary; its server gets the user's variable and not the provider's key", async () => {
    const run = await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", "one"]);
    expect(run.exitCode, run.stderr).toBe(0);
    const handle = resultOf(run.stdout).conversation ?? "";
    const host = world.hostRecord(handle);
    if (host === undefined) throw new Error("no session host");
    expect(canariesOf(host.scv.pid)).toEqual([]);
    const server = environ(host.server.pid);
    expect(server).toContain("MY_DB_PASSWORD=canary-user-secret-91c2");
    expect(server).not.toContain("sk-canary-provider-7f3a");
    expect((await scv(world, ["kill", handle])).exitCode).toBe(0);
  });

  it("scv mcp's spare runner: no canary, before and after it runs a job", async () => {
    await signIn(world, "claude");
    const client = new Client({ name: "scv-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [SCV, "mcp"],
        cwd: world.project,
        env: world.env,
      }),
    );
    try {
      /** The spare: a `background-turn` scv of this world's SCV_HOME with no job yet. */
      const spare = () =>
        readdirSync("/proc")
          .filter((name) => /^\d+$/.test(name))
          .map(Number)
          .find((pid) => {
            try {
              return (
                readFileSync(`/proc/${pid}/cmdline`, "latin1").includes("background-turn") &&
                environ(pid).includes(`SCV_HOME=${world.scvHome}\0`)
              );
            } catch {
              return false;
            }
          });
      const pid = await found(spare, 20_000);
      started.push(pid);
      expect(canariesOf(pid)).toEqual([]);
      const result = await client.callTool(
        { name: "delegate", arguments: { agent: "claude", prompt: "Say hi" } },
        { timeout: 90_000 },
      );
      expect(result.isError, JSON.stringify(result.content)).not.toBe(true);
      const [call] = agentCalls(world);
      expect(call?.env.MY_DB_PASSWORD).toBe("canary-user-secret-91c2");
      expect(call?.env.OPENAI_API_KEY).toBeUndefined();
      // The next spare, started for the next call.
      const next = await found(() => {
        const found = spare();
        return found === pid ? undefined : found;
      }, 20_000);
      started.push(next);
      expect(canariesOf(next)).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
