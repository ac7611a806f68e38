// A `[notify]` command that does not do its job, through the built scv: one that fails is one note, one
// that hangs is stopped at its timeout with what it started, one that is not there is a note, and the
// turn's exit code and reply stay; a [notify] scv cannot use is refused, naming the key.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useConfig } from "../helpers/acp.js";
import { notifiedFile, notifyConfig, useNotifyLab } from "../helpers/notify.js";
import { isAlive } from "../helpers/pids.js";
import { scv, signIn, type World } from "../helpers/scv.js";

let world: World;
const lab = useNotifyLab((created) => {
  world = created;
});

describe("[notify] command that fails", () => {
  it("a failing command is one note; the turn's exit code and reply stay", async () => {
    notifyConfig(world, "", "fail");
    await signIn(world, "claude");
    const run = await scv(world, ["delegate", "claude", "Say hi"]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe("MOCK-REPLY-1\n");
    expect(run.stderr).toContain(
      `scv: note: notify command ${join(world.bin, "notifier")} failed (exit 3): the notifier broke — the turn is unchanged\n`,
    );
    const failed = await scv(world, ["delegate", "claude", "Say hi"], { env: { FAKE_AGENT_MODE: "exit:4" } });
    expect(failed.exitCode).toBe(1);
  });

  it("a hanging command is stopped at its timeout with what it started; the turn is unchanged", async () => {
    notifyConfig(world, 'timeout = "1s"', "hang");
    await signIn(world, "claude");
    const run = await scv(world, ["delegate", "claude", "Say hi"]);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toContain(
      `scv: note: notify command ${join(world.bin, "notifier")} ran past 1s and was stopped — the turn is unchanged\n`,
    );
    const pids = JSON.parse(readFileSync(`${notifiedFile(world)}.pids`, "utf8")) as number[];
    lab.track(pids);
    expect(pids.filter(isAlive)).toEqual([]);
  });

  it("a notify command that is not there is a note", async () => {
    useConfig(world, '[notify]\ncommand = ["/nonexistent/notifier"]\n');
    await signIn(world, "claude");
    const run = await scv(world, ["delegate", "claude", "Say hi"]);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toMatch(
      /scv: note: notify command \/nonexistent\/notifier could not start \(.*\) — the turn is unchanged\n/,
    );
  });

  it("refuses a [notify] it cannot use, naming the key", async () => {
    useConfig(world, "[notify]\ncommand = []\n");
    const run = await scv(world, ["delegate", "claude", "Say hi"]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/notify\.command: expected a program and its arguments/);
    useConfig(world, '[notify]\non = ["finished"]\n');
    expect((await scv(world, ["delegate", "claude", "Say hi"])).stderr).toMatch(/notify\.on\.0: /);
  });
});
