// A conversation that is running refuses another turn, through the built scv: a second background turn
// at once (exit 2, naming the job to wait for), and one while a foreground turn holds it (not sent to
// scv wait). Simultaneous continues are background-race.test.ts.

import { describe, expect, it } from "vitest";
import { handleOf, useBackgroundLab } from "../helpers/background.js";
import { agentPids, scv, signIn, startScv, type World } from "../helpers/scv.js";

let world: World;
const leftovers = useBackgroundLab((created) => {
  world = created;
});

describe("a background turn of a conversation that is running", () => {
  it("a second turn of a conversation that is running refuses at once: exit 2, naming the job to wait for", async () => {
    await signIn(world, "claude");
    const first = await scv(world, ["delegate", "--json", "claude", "Say hi"]);
    const handle = (JSON.parse(first.stdout) as { conversation: string }).conversation;
    const running = await scv(world, ["delegate", "--background", "-c", handle, "Long"], {
      env: { FAKE_AGENT_MODE: "hang" },
    });
    const job = running.stdout.trim();
    expect(handleOf(job)).toBe(handle);
    leftovers.push(...(await agentPids(world)));
    const second = await scv(world, ["delegate", "--background", "-c", handle, "Again"]);
    expect(second.exitCode).toBe(2);
    expect(second.stderr).toBe(
      `scv: claude (${handle}) did not start: conversation ${handle} is busy with job ${job} — wait for it: scv wait ${job}\n`,
    );
    expect((await scv(world, ["kill", job])).exitCode).toBe(0);
    expect((await scv(world, ["wait", job])).exitCode).toBe(143);
  });

  it("busy with a foreground turn, the refusal does not send the user to scv wait", async () => {
    await signIn(world, "claude");
    const first = await scv(world, ["delegate", "--json", "claude", "Say hi"]);
    const handle = (JSON.parse(first.stdout) as { conversation: string }).conversation;
    const foreground = startScv(world, ["delegate", "-c", handle, "Long"], {
      env: { FAKE_AGENT_MODE: "hang" },
    });
    leftovers.push(...(await agentPids(world)));
    const second = await scv(world, ["delegate", "--background", "-c", handle, "Again"]);
    expect(second.exitCode).toBe(2);
    expect(second.stderr).toMatch(
      new RegExp(
        `^scv: claude \\(${handle}\\) did not start: conversation ${handle} is busy with job ${handle}\\.[0-9a-z]{8}, in the foreground of scv pid \\d+ — continue it once that ends, or stop it: scv kill ${handle}\\.[0-9a-z]{8}\n$`,
      ),
    );
    expect((await scv(world, ["kill", handle])).exitCode).toBe(0);
    expect((await foreground).exitCode).toBe(143);
  });
});
