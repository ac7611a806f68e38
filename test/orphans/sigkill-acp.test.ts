// A first ACP turn whose scv was SIGKILLed, cold and warm, through the built scv against a gemini that
// is the fake ACP agent for `--acp`: the next scv records the conversation, cancelled, with its session,
// ends the server (and a warm one's host), and the conversation continues through session/load.

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useLab } from "../helpers/lab.js";
import { survivors } from "../helpers/pids.js";
import { geminiStarts, installGeminiBoth, scv, startScv } from "../helpers/scv.js";
import { expectReapedConversation, runningHandle, sessionInRecord } from "../helpers/sigkill.js";

const lab = useLab();

describe("a first ACP turn whose scv was SIGKILLed", () => {
  it.each([
    ["cold", '[defaults]\nsession_idle = "0"\n'],
    ["warm", ""],
  ])("over ACP (%s): its conversation is recorded and continues through session/load", async (_, config) => {
    installGeminiBoth(lab.world);
    writeFileSync(join(lab.world.root, "config.toml"), config);
    lab.world.env.SCV_CONFIG = join(lab.world.root, "config.toml");
    const child = startScv(lab.world, ["delegate", "gemini", "--transport", "acp", "hang on"]);
    const handle = await runningHandle(lab.world);
    const seen = await sessionInRecord(lab.world, handle);
    const hostRecord = join(lab.world.scvHome, "hosts", `${handle}.json`);
    const host = existsSync(hostRecord)
      ? (JSON.parse(readFileSync(hostRecord, "utf8")) as { scv: { pid: number } }).scv.pid
      : undefined;
    lab.track([...geminiStarts(lab.world).map((start) => start.pid), ...(host === undefined ? [] : [host])]);
    child.kill("SIGKILL");
    await child;
    const session = await expectReapedConversation(lab.world, handle, "acp");
    expect(session).toBe(seen);
    // The reaper ended the server (and so a warm one's host): the next turn loads the session.
    expect(await survivors(geminiStarts(lab.world).map((start) => start.pid))).toEqual([]);
    const next = await scv(lab.world, ["delegate", "-c", handle, "--json", "Again"]);
    expect(next.exitCode, next.stderr).toBe(0);
    expect(JSON.parse(next.stdout)).toMatchObject({ conversation: handle, session });
    lab.track([...geminiStarts(lab.world).map((start) => start.pid)]);
    await scv(lab.world, ["kill", handle]);
  });
});
