// An ACP adapter drives the agent's CLI that scv located, not the copy it bundles: the built scv
// starts `codex-acp` (here the scripted fake ACP agent, test/fake-agents/acp-agent.mjs, noting its
// environment) with CODEX_PATH set to the `codex` it found — past the row's CODEX_* stripping, for a
// cold turn and for the server a session host keeps warm; a user's [agents.codex] env still wins;
// without an installed codex the variable stays unset and the turn runs on.

import { chmodSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { turnResultShape } from "../../src/json-shapes.js";
import { acpCalls, installAcpAgent } from "../helpers/acp.js";
import { useLab } from "../helpers/lab.js";
import { killAll, survivors } from "../helpers/pids.js";
import { scv, signIn, type World } from "../helpers/scv.js";

let world: World;
useLab((created) => {
  world = created;
});
beforeEach(async () => {
  installAcpAgent(world, "codex-acp");
  useConfig("");
  await signIn(world, "codex");
});
afterEach(() => {
  killAll(acpCalls(world).map((call) => call.pid));
});

function useConfig(agentSection: string): void {
  writeFileSync(
    join(world.root, "config.toml"),
    `[defaults]\nsession_idle = "0"\n\n[agents.codex]\ntransport = "acp"\n${agentSection}`,
  );
  world.env.SCV_CONFIG = join(world.root, "config.toml");
}

async function turn(args: readonly string[], env: Record<string, string> = {}) {
  const run = await scv(world, ["delegate", ...args, "--json"], { env });
  expect(run.exitCode, run.stderr).toBe(0);
  return turnResultShape().parse(JSON.parse(run.stdout));
}

describe("the CLI an ACP adapter drives", () => {
  it("is the codex scv located, not one exported in scv's environment (CODEX_* is stripped)", async () => {
    const result = await turn(["codex", "hello"], {
      CODEX_PATH: "/stale/codex",
      CODEX_API_KEY: "canary-codex-key-0001",
    });
    expect(result.reply).toBe("REPLY hello (turn 1, mode default)");
    const [call] = acpCalls(world);
    expect(call?.env.CODEX_PATH).toBe(join(world.bin, "codex"));
    expect(call?.env.CODEX_API_KEY).toBeUndefined();
    expect(call?.env.CODEX_HOME).toBe(join(world.scvHome, "agents", "codex"));
    expect(await survivors([call?.pid ?? 0])).toEqual([]);
  });

  it("is the config's command for codex", async () => {
    const mine = join(world.root, "codex-0.171");
    writeFileSync(mine, "#!/bin/sh\nexit 0\n");
    chmodSync(mine, 0o755);
    useConfig(`command = "${mine}"\n`);
    await turn(["codex", "hello"]);
    expect(acpCalls(world)[0]?.env.CODEX_PATH).toBe(mine);
  });

  it("is the user's where [agents.codex] env names one", async () => {
    useConfig('env = { CODEX_PATH = "/opt/my/codex" }\n');
    await turn(["codex", "hello"]);
    expect(acpCalls(world)[0]?.env.CODEX_PATH).toBe("/opt/my/codex");
  });

  it("is the adapter's own when codex is not installed: the variable stays unset", async () => {
    rmSync(join(world.bin, "codex"));
    const run = await scv(world, ["delegate", "codex", "hello", "--json"], {
      env: { PATH: `${world.bin}:/usr/bin:/bin` },
    });
    expect(run.exitCode, run.stderr).toBe(0);
    // Quiet: nothing to fix, the adapter brings its own.
    expect(run.stderr).not.toContain("scv:");
    const [call] = acpCalls(world);
    expect(call).toBeDefined();
    expect(call?.env).not.toHaveProperty("CODEX_PATH");
  });

  it("when only the adapter is missing, the refusal names the adapter, not Codex, and how to install it", async () => {
    rmSync(join(world.bin, "codex-acp"));
    const run = await scv(world, ["delegate", "--transport", "acp", "codex", "hello"], {
      env: { PATH: `${world.bin}:/usr/bin:/bin` },
    });
    expect(run.exitCode).toBe(3);
    expect(run.stderr.split("\n")[0]).toBe(
      "scv: Codex's ACP adapter is not installed ('codex-acp' not found) — run: scv agents install codex --acp (npm: @agentclientprotocol/codex-acp), or use --transport process",
    );
  });

  it("is what scv agents show codex says", async () => {
    const show = await scv(world, ["agents", "show", "codex"]);
    expect(show.exitCode, show.stderr).toBe(0);
    expect(show.stdout).toMatch(
      /^acp: +codex-acp \(runs the codex found for codex through CODEX_PATH, else its own copy\)$/m,
    );
  });

  it("is the located codex for the server a session host keeps warm", async () => {
    useConfig('session_idle = "1m"\n');
    const first = await turn(["codex", "one"]);
    const handle = first.conversation ?? "";
    const second = await turn(["-c", handle, "two"]);
    expect(second.reply).toBe("REPLY two (turn 2, mode default)");
    // One server, started by the host, for both turns.
    expect(acpCalls(world)).toHaveLength(1);
    expect(acpCalls(world)[0]?.env.CODEX_PATH).toBe(join(world.bin, "codex"));
    const killed = await scv(world, ["kill", handle]);
    expect(killed.exitCode, killed.stderr).toBe(0);
    expect(await survivors(acpCalls(world).map((call) => call.pid))).toEqual([]);
  });
});
