// A first ACP turn that leaves no conversation leaves no session host either, whatever ended it: a
// model or effort the server does not offer (on the command line or in scv's config), a kill of the
// turn's scv. And what the server offered before is checked before a server is started again: the
// same refusal comes without one. Through the built scv, against the scripted fake ACP agent.

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { type AcpWorld, acpWorldPerTest, resultOf, until } from "../helpers/acp-world.js";
import { survivors } from "../helpers/pids.js";
import { scv, startScv } from "../helpers/scv.js";

let world: AcpWorld;
acpWorldPerTest((created) => {
  world = created;
});

/** Nothing of the conversation's server or host runs, and no host is recorded. */
async function expectNoHost(): Promise<void> {
  // The host ends once the turn is over, its record first.
  expect(await survivors(world.agentPids(), 10_000)).toEqual([]);
  expect(world.hostRecords()).toEqual([]);
}

const first = (...args: string[]) => ["delegate", "gemini", "--transport", "acp", "--json", ...args];

describe("a first ACP turn that leaves no conversation", () => {
  it("a model the server does not offer: exit 2, no conversation, no host, nothing running", async () => {
    const run = await scv(world, first("-m", "no-such-model", "one"));
    expect(run.exitCode, run.stderr).toBe(2);
    const result = resultOf(run.stdout);
    expect(result.error).toBe("Gemini CLI does not offer the model no-such-model over ACP");
    expect(result.hint).toBe("pick one it offers: fake-small, fake-large");
    expect(result.conversation).toBeNull();
    await expectNoHost();
    expect((await scv(world, ["ps"])).stderr).toBe("no running turns\n");
  });

  it("the config's model, which the server does not offer: exit 2, no host", async () => {
    world.useConfig('[agents.gemini]\nmodel = "config-model"\n');
    const run = await scv(world, first("one"));
    expect(run.exitCode, run.stderr).toBe(2);
    expect(resultOf(run.stdout).error).toContain("config-model");
    await expectNoHost();
  });

  it("an effort the server takes none of: exit 2, no host", async () => {
    const run = await scv(world, first("--effort", "high", "one"));
    expect(run.exitCode, run.stderr).toBe(2);
    expect(resultOf(run.stdout).error).toContain("takes no effort over ACP");
    await expectNoHost();
  });

  it("its scv killed (SIGKILL) mid-prompt: the host ends with its server", async () => {
    const child = startScv(world, ["delegate", "gemini", "--transport", "acp", "hang on"]);
    expect(await until(() => world.methods().includes("session/prompt"), 20_000)).toBe(true);
    const [host] = world.hostRecords();
    expect(host).toBeDefined();
    child.kill("SIGKILL");
    await child;
    expect(await survivors([host?.scv.pid ?? 0, ...world.agentPids()], 10_000)).toEqual([]);
    expect(world.hostRecords()).toEqual([]);
  });

  it("a warm host stays when its first turn made a conversation, though the turn failed (401)", async () => {
    const run = await scv(world, first("401"));
    expect(run.exitCode).toBe(4);
    const handle = resultOf(run.stdout).conversation ?? "";
    expect(handle).not.toBe("");
    const host = world.hostRecord(handle);
    expect(host).toBeDefined();
    const next = await scv(world, ["delegate", "-c", handle, "--json", "two"]);
    expect(next.exitCode, next.stderr).toBe(0);
    expect(world.agentPids()).toHaveLength(1);
    expect((await scv(world, ["kill", handle])).exitCode).toBe(0);
  });
});

describe("what the server offered, checked before it is started again", () => {
  it("the same unknown model is refused again without starting a server, with the same line", async () => {
    const once = await scv(world, first("-m", "no-such-model", "one"));
    expect(once.exitCode).toBe(2);
    expect(world.agentPids()).toHaveLength(1);
    const again = await scv(world, first("-m", "no-such-model", "two"));
    expect(again.exitCode, again.stderr).toBe(2);
    expect(resultOf(again.stdout).error).toBe(resultOf(once.stdout).error);
    expect(resultOf(again.stdout).hint).toBe(resultOf(once.stdout).hint);
    expect(resultOf(again.stdout).notes).toEqual([
      "told from what Gemini CLI's ACP server offered before, without starting it — ask for it again to have the server itself asked",
    ]);
    expect(world.agentPids()).toHaveLength(1);
    // Asked for again, the server itself is asked (a list changed on the provider's side does not
    // refuse the same value twice); another value is refused at once.
    const third = await scv(world, first("-m", "no-such-model", "three"));
    expect(third.exitCode).toBe(2);
    expect(resultOf(third.stdout).notes).toEqual([]);
    expect(world.agentPids()).toHaveLength(2);
    const other = await scv(world, first("-m", "another-model", "three b"));
    expect(other.exitCode).toBe(2);
    expect(resultOf(other.stdout).notes).toHaveLength(1);
    expect(world.agentPids()).toHaveLength(2);
    // Its own settings changed, the agent may offer other models: the server is asked.
    const settings = join(world.scvHome, "agents", "gemini", ".gemini", "settings.json");
    mkdirSync(dirname(settings), { recursive: true });
    writeFileSync(settings, '{"model":{"name":"x"}}\n');
    const changed = await scv(world, first("-m", "no-such-model", "four"));
    expect(changed.exitCode).toBe(2);
    expect(world.agentPids()).toHaveLength(3);
    // An offered model still runs, and starts the server.
    const fine = await scv(world, first("-m", "fake-large", "five"));
    expect(fine.exitCode, fine.stderr).toBe(0);
    expect(world.agentPids()).toHaveLength(4);
    const handle = resultOf(fine.stdout).conversation ?? "";
    const killed = await scv(world, ["kill", handle]);
    expect(killed.exitCode, killed.stderr + JSON.stringify(world.hostRecords())).toBe(0);
  });
});
