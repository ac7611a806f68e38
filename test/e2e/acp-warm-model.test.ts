// A turn's own model and effort on a warm ACP session, through the built scv against the scripted fake
// ACP agent: they are that turn's only, and the next turn runs the conversation's again, on the same
// server (no new process).

import { describe, expect, it } from "vitest";
import { acpCalls, acpPrompts } from "../helpers/acp.js";
import { type AcpWorld, acpWorldPerTest, resultOf as json } from "../helpers/acp-world.js";
import { survivors } from "../helpers/pids.js";
import { scv } from "../helpers/scv.js";

let world: AcpWorld;
acpWorldPerTest((created) => {
  world = created;
});

describe("a warm turn's own model and effort", () => {
  it("a turn's own model and effort are that turn's only: the next turn runs the conversation's again", async () => {
    const env = { FAKE_ACP_EFFORT: "1" };
    const first = await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", "one"], { env });
    expect(first.exitCode, first.stderr).toBe(0);
    const handle = json(first.stdout).conversation ?? "";
    const once = ["delegate", "-c", handle, "-m", "fake-large", "--effort", "high", "--json", "two"];
    const second = await scv(world, once, { env });
    expect(second.exitCode, second.stderr).toBe(0);
    const third = await scv(world, ["delegate", "-c", handle, "--json", "three"], { env });
    expect(third.exitCode, third.stderr).toBe(0);
    expect(acpCalls(world)).toHaveLength(1);
    expect(acpPrompts(world).map(({ text, model, effort }) => [text, model, effort])).toEqual([
      ["one", "fake-small", "medium"],
      ["two", "fake-large", "high"],
      ["three", "fake-small", "medium"],
    ]);
    const host = world.hostRecord(handle)?.scv.pid ?? 0;
    expect((await scv(world, ["kill", handle])).exitCode).toBe(0);
    expect(await survivors([...acpCalls(world).map((call) => call.pid), host])).toEqual([]);
  });

  it("a conversation begun with a model keeps it after a turn that used another", async () => {
    const env = { FAKE_ACP_EFFORT: "1" };
    const started = ["delegate", "gemini:fake-large", "--transport", "acp", "--json", "four"];
    const other = await scv(world, started, { env });
    expect(other.exitCode, other.stderr).toBe(0);
    const otherHandle = json(other.stdout).conversation ?? "";
    const small = await scv(world, ["delegate", "-c", otherHandle, "-m", "fake-small", "--json", "five"], {
      env,
    });
    expect(small.exitCode, small.stderr).toBe(0);
    const back = await scv(world, ["delegate", "-c", otherHandle, "--json", "six"], { env });
    expect(back.exitCode, back.stderr).toBe(0);
    expect(acpPrompts(world).map(({ text, model }) => [text, model])).toEqual([
      ["four", "fake-large"],
      ["five", "fake-small"],
      ["six", "fake-large"],
    ]);
    const hosts = [world.hostRecord(otherHandle)].map((host) => host?.scv.pid ?? 0);
    expect((await scv(world, ["kill", otherHandle])).exitCode).toBe(0);
    expect(await survivors([...acpCalls(world).map((call) => call.pid), ...hosts])).toEqual([]);
  });
});
