// needs-approval notifications through the built scv, Gemini as the fake ACP agent asking to run a
// tool: a question on the terminal notifies while it waits there; an scv mcp job's question notifies
// from the job's own scv, with no secret, then done once approved.

import { beforeEach, describe, expect, it } from "vitest";
import { installAcpGemini } from "../helpers/acp-world.js";
import { connectMcp } from "../helpers/mcp-client.js";
import {
  expectNoSecret,
  JOB,
  notified,
  notifiedOf,
  notifyConfig,
  PROMPT_CANARY,
  useNotifyLab,
} from "../helpers/notify.js";
import { hasPython, scvOnTerminal } from "../helpers/pty.js";
import type { World } from "../helpers/scv.js";

let world: World;
useNotifyLab((created) => {
  world = created;
});

describe("needs-approval", () => {
  beforeEach(() => installAcpGemini(world));

  it.skipIf(!hasPython)("a question on the terminal: needs-approval while it waits there", async () => {
    notifyConfig(world, '\n[defaults]\nsession_idle = "0"\n');
    const run = await scvOnTerminal(world, ["delegate", "gemini", "--transport", "acp", "-q", "use a tool"], {
      waitFor: "allow [o]nce",
      steps: ["0.3:o"],
    });
    expect(run.code, run.output).toBe(0);
    expect(notified(world).map((each) => each.event.event)).toEqual(["needs-approval", "done"]);
    expect(notified(world)[0]?.event).toMatchObject({
      job: expect.stringMatching(JOB),
      agent: "gemini",
      summary: "gemini asks to run execute: $ touch probe.txt",
    });
  });

  it("an scv mcp job's question: needs-approval from the job's own scv, then done once approved", async () => {
    notifyConfig(world, '\n[defaults]\nsession_idle = "0"\n\n[agents.gemini]\ntransport = "acp"\n');
    const client = await connectMcp(world);
    const call = async (name: string, args: Record<string, unknown>) =>
      ((await client.callTool({ name, arguments: args }, { timeout: 90_000 })).structuredContent ??
        {}) as Record<string, unknown>;
    const started = await call("delegate", {
      agent: "gemini",
      prompt: `use a tool ${PROMPT_CANARY}`,
      wait_seconds: 30,
    });
    expect(started.status).toBe("needs-approval");
    const job = started.job as string;
    const asked = await notifiedOf(world, "needs-approval");
    expect(asked.event).toEqual({
      event: "needs-approval",
      job,
      conversation: job.replace(/\.[0-9a-z]{8}$/, ""),
      agent: "gemini",
      account: "default",
      exit: null,
      duration: null,
      summary: "gemini asks to run execute: $ touch probe.txt",
      time: expect.any(String),
    });
    expectNoSecret(asked);
    await call("approve", { job, approval: (started.approval as { id: string }).id, answer: "once" });
    expect((await notifiedOf(world, "done")).event).toMatchObject({ job, agent: "gemini", exit: 0 });
  });
});
