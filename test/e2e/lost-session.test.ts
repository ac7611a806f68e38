// A continued turn whose session the agent's CLI no longer has, through the built scv: one line
// naming the conversation, its session and what went with it, and what to do (exit 2) — never a
// hint to check the agent, nor other agents to try, nor the handle to continue. Over the process
// transport the CLI's own words say so (the row's `resume.lost`; the fake replays the real Gemini
// CLI's and Qwen Code's), over ACP a refused `session/load` (acp.test.ts).

import { describe, expect, it } from "vitest";
import { turnResultShape } from "../../src/json-shapes.js";
import { useLab } from "../helpers/lab.js";
import { conversationRecord, scv, signIn } from "../helpers/scv.js";

const lab = useLab();

describe("a conversation whose session is gone", () => {
  it.each([
    ["gemini", "Gemini CLI"],
    ["qwen", "Qwen Code"],
  ])("%s over process: one line says what is lost and what to do (exit 2)", async (agent, product) => {
    await signIn(lab.world, agent);
    const first = turnResultShape().parse(
      JSON.parse((await scv(lab.world, ["delegate", agent, "--json", "Say hi"])).stdout),
    );
    const handle = first.conversation ?? "";
    const again = await scv(lab.world, ["delegate", "-c", handle, "Again"], {
      env: { FAKE_AGENT_MODE: "fixture:resume-lost" },
    });
    expect(again.exitCode).toBe(2);
    expect(again.stdout).toBe("");
    expect(again.stderr).toBe(
      `scv: cannot continue ${handle}: ${product} no longer has its session ${first.session}, and with it its one earlier turn — start a new conversation: scv delegate ${agent} "…"\n`,
    );
    const json = await scv(lab.world, ["delegate", "-c", handle, "--json", "Again"], {
      env: { FAKE_AGENT_MODE: "fixture:resume-lost" },
    });
    expect(json.exitCode).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({
      status: "failed",
      conversation: handle,
      session: null,
      fallbacks: [],
      error: `cannot continue ${handle}: ${product} no longer has its session ${first.session}, and with it its 2 earlier turns`,
      hint: `start a new conversation: scv delegate ${agent} "…"`,
    });
    // The record still names the session, so rm and gc find what is left of it.
    expect(conversationRecord(lab.world, handle)).toMatchObject({ sessionId: first.session });
  });

  it("any other failure of a continued turn is not taken for a lost session", async () => {
    await signIn(lab.world, "gemini");
    const first = await scv(lab.world, ["delegate", "gemini", "--json", "Say hi"]);
    const handle = JSON.parse(first.stdout).conversation as string;
    const failed = await scv(lab.world, ["delegate", "-c", handle, "Again"], {
      env: { FAKE_AGENT_MODE: "exit:1" },
    });
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr).not.toContain("cannot continue");
  });
});
