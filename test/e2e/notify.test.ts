// Notifications through the built scv (`[notify]` in the config): a command receives done, failed and
// cooling events as one JSON object on stdin, with the right fields and no secret (canaries in the
// environment and the prompt), include_prompt and `on` choose what it gets, an agent's own table goes
// over the global one. A command that fails or hangs is notify-command.test.ts, the desktop's notifier
// and the bell notify-desktop.test.ts, needs-approval notify-approval.test.ts.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  expectNoSecret,
  JOB,
  type Notified,
  notified,
  notifiedOf,
  notifyConfig,
  PROMPT_CANARY,
  useNotifyLab,
} from "../helpers/notify.js";
import { scv, signIn, type World } from "../helpers/scv.js";

let world: World;
useNotifyLab((created) => {
  world = created;
});

describe("[notify] command", () => {
  it("a turn in the foreground: done, with its job, conversation, agent, account, exit, duration and summary", async () => {
    notifyConfig(world);
    await signIn(world, "claude");
    const run = await scv(world, ["delegate", "claude", `Fix it ${PROMPT_CANARY}`]);
    expect(run.exitCode, run.stderr).toBe(0);
    const [done, ...more] = notified(world);
    expect(more).toEqual([]);
    expect(done?.event).toEqual({
      event: "done",
      job: expect.stringMatching(JOB),
      conversation: expect.stringMatching(/^claude-[0-9a-z]{6}$/),
      agent: "claude",
      account: "default",
      exit: 0,
      duration: expect.any(Number),
      summary: expect.stringMatching(/^claude done in \d+s · 12\.2k in \/ 6 out tokens · \$0\.0246$/),
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(String(done?.event.job).startsWith(`${done?.event.conversation}.`)).toBe(true);
    expectNoSecret(done as Notified);
  });

  it("a background job that fails: failed from the detached scv, after its result is saved", async () => {
    notifyConfig(world);
    await signIn(world, "claude");
    const started = await scv(world, ["delegate", "--background", "claude", `Fix it ${PROMPT_CANARY}`], {
      env: { FAKE_AGENT_MODE: "exit:1" },
    });
    const job = started.stdout.trim();
    const failed = await notifiedOf(world, "failed");
    expect(failed.event).toMatchObject({ event: "failed", job, agent: "claude", exit: 1 });
    expect(failed.event.summary).toMatch(/^claude failed after \d+s: /);
    expectNoSecret(failed);
    // The result was there for whoever the notification told.
    const waited = await scv(world, ["wait", job]);
    expect(waited.exitCode).toBe(1);
  });

  it("include_prompt puts the prompt in; on picks the events", async () => {
    notifyConfig(world, 'include_prompt = true\non = ["failed"]');
    await signIn(world, "claude");
    await scv(world, ["delegate", "claude", "Say hi"]);
    expect(notified(world)).toEqual([]);
    await scv(world, ["delegate", "claude", "Say hi"], { env: { FAKE_AGENT_MODE: "exit:1" } });
    expect(notified(world).map((each) => [each.event.event, each.event.prompt])).toEqual([
      ["failed", "Say hi"],
    ]);
  });

  it("an agent's own [agents.<name>.notify] goes over [notify] for its turns", async () => {
    notifyConfig(world, '\n[agents.claude.notify]\non = ["failed"]');
    await signIn(world, "claude");
    await signIn(world, "codex");
    await scv(world, ["delegate", "claude", "Say hi"]);
    await scv(world, ["delegate", "codex", "Say hi"]);
    expect(notified(world).map((each) => [each.event.event, each.event.agent])).toEqual([["done", "codex"]]);
  });

  it("cooling: every account limited, the job waits for the reset", async () => {
    notifyConfig(world);
    for (const account of ["a", "b"]) {
      await signIn(world, "gemini", account);
      const home = join(world.scvHome, "agents", `gemini@${account}`);
      mkdirSync(home, { recursive: true });
      writeFileSync(join(home, ".fake-mode-once"), "fixture:rate-limit");
    }
    const started = await scv(world, [
      "delegate",
      "--background",
      "--wait-for-reset",
      "20s",
      "gemini@a,b",
      "Hi",
    ]);
    const job = started.stdout.trim();
    const cooling = await notifiedOf(world, "cooling");
    expect(cooling.event).toMatchObject({
      event: "cooling",
      job,
      agent: "gemini",
      account: expect.stringMatching(/^[ab]$/),
      exit: null,
      duration: null,
      until: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
    });
    expect(cooling.event.summary).toMatch(/^every account of gemini is rate limited until /);
    expect((await notifiedOf(world, "done")).event).toMatchObject({
      job,
      exit: 0,
      account: expect.any(String),
    });
  });
});
