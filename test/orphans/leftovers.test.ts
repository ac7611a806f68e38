// What an scv SIGKILLed mid-write or mid-start leaves, through the built scv: a temporary file of an
// atomic write (a running record's holds the prompt) is swept by the next scv once its writer is
// dead, and by `scv agents gc`, as is the log of a dead `scv mcp`'s spare runner; a conversation lock no running turn holds is reported as what it is,
// with when it frees, not as "another turn is running".

import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useLab } from "../helpers/lab.js";
import { scv } from "../helpers/scv.js";

const lab = useLab();

/** A pid that was a process a moment ago and is none now. */
function deadPid(): number {
  const gone = spawnSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" });
  return Number(gone.stdout.trim());
}

function names(folder: string): string[] {
  const dir = join(lab.world.scvHome, folder);
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

describe("temporary files of writes an scv never finished", () => {
  it("the next scv, whatever its command, removes those whose writer is dead, never a live writer's; and dead servers' spare logs", async () => {
    const turns = join(lab.world.scvHome, "turns");
    mkdirSync(turns, { recursive: true });
    const live = spawn("sleep", ["30"], { stdio: "ignore" });
    lab.track([live.pid ?? -1]);
    const dead = deadPid();
    const deadRecord = `gemini-aaaaaa.json.${dead}-k3f9.tmp`;
    const deadResult = `gemini-aaaaaa.q1w2e3r4.done.json.${dead}-x1.tmp`;
    const liveRecord = `gemini-bbbbbb.json.${live.pid}-k3f9.tmp`;
    for (const name of [deadRecord, deadResult, liveRecord])
      writeFileSync(join(turns, name), '{"prompt": "the secret plan"}');
    // Not a temporary file of scv's: stays.
    writeFileSync(join(turns, "notes.tmp"), "");
    // The log of a spare runner whose scv mcp died (the spare went with it), and of a live one's.
    const deadSpare = `spare.${dead}.3.log`;
    const liveSpare = `spare.${live.pid}.1.log`;
    for (const name of [deadSpare, liveSpare]) writeFileSync(join(turns, name), "");

    const ps = await scv(lab.world, ["ps"]);
    expect(ps.exitCode).toBe(0);
    expect(names("turns")).toEqual([liveRecord, "notes.tmp", liveSpare].sort());
  });

  it("scv agents gc removes a dead writer's in conversations/ and beside key stores at once, whatever its age", async () => {
    const live = spawn("sleep", ["30"], { stdio: "ignore" });
    lab.track([live.pid ?? -1]);
    const dead = deadPid();
    mkdirSync(join(lab.world.scvHome, "conversations"), { recursive: true });
    mkdirSync(join(lab.world.scvHome, "turns"), { recursive: true });
    const deadConversation = `conversations/codex-aaaaaa.json.${dead}-k3f9.tmp`;
    const liveConversation = `conversations/codex-bbbbbb.json.${live.pid}-k3f9.tmp`;
    // An old one of an scv before the pid was in the name: an hour old is old enough.
    const oldStyle = "conversations/codex-cccccc.json.123456789";
    for (const name of [deadConversation, liveConversation, oldStyle])
      writeFileSync(join(lab.world.scvHome, name), "{}");
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(join(lab.world.scvHome, oldStyle), twoHoursAgo, twoHoursAgo);

    // A key store's write, with the key in it: beside Claude Code's credentials file.
    const keys = join(lab.world.scvHome, "agents", "claude", ".claude");
    mkdirSync(keys, { recursive: true, mode: 0o700 });
    const deadKey = `.credentials.json.${dead}-ab.tmp`;
    const liveKey = `.credentials.json.${live.pid}-ab.tmp`;
    for (const name of [deadKey, liveKey]) writeFileSync(join(keys, name), '{"key": "sk-canary-in-a-temp"}');

    const gc = await scv(lab.world, ["agents", "gc", "--json"]);
    expect(gc.exitCode, gc.stderr).toBe(0);
    expect(names("conversations")).toEqual([`codex-bbbbbb.json.${live.pid}-k3f9.tmp`]);
    expect(readdirSync(keys)).toEqual([liveKey]);
  });
});

describe("a conversation lock no running turn holds", () => {
  it("says what it is and when it frees, while scv ps shows no turn", async () => {
    const first = await scv(lab.world, ["delegate", "--json", "gemini", "Say hi"]);
    expect(first.exitCode, first.stderr).toBe(0);
    const handle = (JSON.parse(first.stdout) as { conversation: string }).conversation;
    // What an scv SIGKILLed between taking the lock and registering its turn leaves.
    mkdirSync(join(lab.world.scvHome, "conversations", `${handle}.json.lock`));

    const ps = await scv(lab.world, ["ps"]);
    expect(ps.stderr).toBe("no running turns\n");
    const next = await scv(lab.world, ["delegate", "-c", handle, "Again"], { env: { SCV_LOCK_WAIT: "0" } });
    expect(next.exitCode).toBe(2);
    expect(next.stderr).toMatch(
      new RegExp(
        `^scv: conversation ${handle} is locked, but no running turn holds it \\(an scv that was killed left it\\) — it frees by itself in (2\\d|30)s; continue it then\\n$`,
      ),
    );
    const background = await scv(lab.world, ["delegate", "--background", "-c", handle, "Again"]);
    expect(background.exitCode).toBe(2);
    expect(background.stderr).toMatch(
      /did not start: conversation \S+ is locked, but no running turn holds it/,
    );
  });
});
