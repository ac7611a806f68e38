// ACP turns through the built scv, against the scripted fake ACP agent (test/fake-agents/
// acp-agent.mjs) standing in for `gemini --acp`: the launch, the stripped environment, session/new
// in the project, a cold continued turn through session/load (and where it cannot be), the
// background, the config's transport. The policy's mode, models, efforts and permission requests are
// acp-policy.test.ts, a terminal's permission requests acp-terminal.test.ts, ps and kill and how a
// turn ends acp-end.test.ts, a failing server's acp-server.test.ts. Cold turns only
// (session_idle = "0"); warm ones are acp-warm*.test.ts.

import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { acpCalls, acpReceived, useColdAcpLab } from "../helpers/acp.js";
import { resultOf as json } from "../helpers/acp-world.js";
import { survivors } from "../helpers/pids.js";
import { scv, type World } from "../helpers/scv.js";

let world: World;
useColdAcpLab((created) => {
  world = created;
});

describe("an ACP turn", () => {
  it("starts the row's ACP launch in the agent's home with a stripped environment, in the project", async () => {
    const run = await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", "hello"], {
      env: { GEMINI_API_KEY: "canary-gemini-key-0001" },
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const result = json(run.stdout);
    expect(result.reply).toBe("REPLY hello (turn 1, mode default)");
    expect(result.status).toBe("completed");
    expect(result.usage).toMatchObject({ input: 10, output: 5 });
    const [call] = acpCalls(world);
    expect(call?.argv).toEqual(["--acp", "--skip-trust"]);
    expect(call?.env.GEMINI_API_KEY).toBeUndefined();
    expect(call?.env.HOME).toBe(join(world.scvHome, "agents", "gemini"));
    expect(call?.env.SCV_TURN).toBeDefined();
    expect(call?.cwd).toBe(world.project);
    const [init, created] = acpReceived(world);
    expect(init).toMatchObject({ method: "initialize", params: { protocolVersion: 1 } });
    expect(created).toMatchObject({ method: "session/new", params: { cwd: world.project } });
    // Nothing of the turn is left running.
    expect(await survivors([call?.pid ?? 0])).toEqual([]);
  });

  it("a cold continued turn loads the session in a new process; the replayed history is not the reply", async () => {
    const first = json(
      (await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", "one"])).stdout,
    );
    expect(first.conversation).not.toBeNull();
    // The conversation keeps its transport: -c needs no --transport.
    const second = await scv(world, ["delegate", "-c", first.conversation ?? "", "--json", "two"]);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(json(second.stdout).reply).toBe("REPLY two (turn 2, mode default)");
    expect(acpCalls(world)).toHaveLength(2);
    const load = acpReceived(world).find((message) => message.method === "session/load");
    expect(load?.params).toMatchObject({ sessionId: first.session, cwd: world.project });
  });

  it("a continued turn whose session the agent lost says so in one line, and keeps its conversation", async () => {
    const first = json(
      (await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", "one"])).stdout,
    );
    // The agent lost the session: its session/load is refused, resource not found.
    rmSync(join(world.calls, "sessions"), { recursive: true });
    const handle = first.conversation ?? "";
    const second = await scv(world, ["delegate", "-c", handle, "--json", "two"]);
    expect(second.exitCode).toBe(2);
    const result = json(second.stdout);
    expect(result.conversation).toBe(handle);
    expect(result.error).toBe(
      `cannot continue ${handle}: Gemini CLI no longer has its session ${first.session}, and with it its one earlier turn`,
    );
    expect(result.hint).toBe('start a new conversation: scv delegate gemini "…"');
    const plain = await scv(world, ["delegate", "-c", handle, "three"]);
    expect(plain.exitCode).toBe(2);
    expect(plain.stderr).toBe(
      `scv: cannot continue ${handle}: Gemini CLI no longer has its session ${first.session}, and with it its 2 earlier turns — start a new conversation: scv delegate gemini "…"\n`,
    );
  });

  it("refuses to continue where the agent cannot load a session, in one line", async () => {
    const first = json(
      (await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", "one"])).stdout,
    );
    const second = await scv(world, ["delegate", "-c", first.conversation ?? "", "two"], {
      env: { FAKE_ACP_NO_LOAD: "1" },
    });
    expect(second.exitCode).toBe(2);
    expect(second.stderr).toBe(
      "scv: Gemini CLI's ACP server cannot load an earlier session (it offers no loadSession) — start a new conversation\n",
    );
  });

  it("runs in the background too: scv wait prints its reply", async () => {
    const started = await scv(world, ["delegate", "--background", "gemini", "--transport", "acp", "hi"]);
    expect(started.exitCode, started.stderr).toBe(0);
    const waited = await scv(world, ["wait", started.stdout.trim()]);
    expect(waited.exitCode, waited.stderr).toBe(0);
    expect(waited.stdout).toBe("REPLY hi (turn 1, mode default)\n");
  });

  it('the config\'s transport = "acp" chooses it', async () => {
    writeFileSync(
      join(world.root, "config.toml"),
      '[defaults]\nsession_idle = "0"\n[agents.gemini]\ntransport = "acp"\n',
    );
    const env = { SCV_CONFIG: join(world.root, "config.toml") };
    const run = await scv(world, ["delegate", "gemini", "hi"], { env });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toBe("REPLY hi (turn 1, mode default)\n");
  });
});
