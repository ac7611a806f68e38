// A first turn whose scv was SIGKILLed, over process (gemini, codex) and in the background, through the
// built scv: the next scv records the conversation the turn started, cancelled, with its session, and
// it continues in that session. Over ACP it is sigkill-acp.test.ts.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useLab } from "../helpers/lab.js";
import { survivors } from "../helpers/pids.js";
import { agentPids, scv, signIn, startScv } from "../helpers/scv.js";
import { expectReapedConversation, runningHandle, sessionInRecord } from "../helpers/sigkill.js";

const lab = useLab();

describe("a first turn whose scv was SIGKILLed", () => {
  it.each(["gemini", "codex"])(
    "%s over process: the next scv records its conversation, which continues in the same session",
    async (agent) => {
      await signIn(lab.world, agent);
      const child = startScv(lab.world, ["delegate", agent, "Say hi"], {
        env: { FAKE_AGENT_MODE: "start-hang" },
      });
      const handle = await runningHandle(lab.world);
      lab.track(await agentPids(lab.world));
      const seen = await sessionInRecord(lab.world, handle);
      child.kill("SIGKILL");
      await child;
      const session = await expectReapedConversation(lab.world, handle, "process");
      expect(session).toBe(seen);
      const next = await scv(lab.world, ["delegate", "-c", handle, "--json", "Again"]);
      expect(next.exitCode, next.stderr).toBe(0);
      expect(JSON.parse(next.stdout)).toMatchObject({ conversation: handle, session });
    },
  );

  it("in the background: the job's result names the conversation the next scv recorded", async () => {
    const started = await scv(lab.world, ["delegate", "--background", "gemini", "Say hi"], {
      env: { FAKE_AGENT_MODE: "start-hang" },
    });
    expect(started.exitCode, started.stderr).toBe(0);
    const handle = await runningHandle(lab.world);
    lab.track(await agentPids(lab.world));
    await sessionInRecord(lab.world, handle);
    const runner = (
      JSON.parse(readFileSync(join(lab.world.scvHome, "turns", `${handle}.json`), "utf8")) as {
        scv: { pid: number };
      }
    ).scv.pid;
    process.kill(runner, "SIGKILL");
    expect(await survivors([runner])).toEqual([]);
    await expectReapedConversation(lab.world, handle, "process");
  });
});
