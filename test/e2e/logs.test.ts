// `scv logs` through the built scv: a running background job followed with -f shows its tool events
// in order as they happen and ends with its result; --events prints the lines delegate --events
// does; another terminal's foreground turn can be followed too; Ctrl-C ends the following and not
// the job; the job's events file is private, bounded, and goes with the job's result.

import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ResultPromise } from "execa";
import { describe, expect, it } from "vitest";
import { type EventLine, eventLineSchema } from "../../src/events.js";
import { useLab } from "../helpers/lab.js";
import { scv, signIn, startScv, type World } from "../helpers/scv.js";

let world: World;
const lab = useLab((created) => {
  world = created;
});

function turnFiles(): string[] {
  const dir = join(world.scvHome, "turns");
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

/** Lets the fake agent's tool call `i` end (FAKE_AGENT_MODE steps:<n>). */
function step(i: number): void {
  writeFileSync(join(world.calls, `step-${i}`), "");
}

/** What `child` has written to stdout so far, once it holds `pattern` (up to 20 s). */
async function outputHolds(child: ResultPromise, pattern: RegExp, withinMs = 20_000): Promise<string> {
  let text = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    text += chunk.toString();
  });
  const deadline = Date.now() + withinMs;
  while (!pattern.test(text)) {
    if (Date.now() > deadline) throw new Error(`never saw ${pattern} in:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return text;
}

/** A background claude job moved on step by step. */
async function steppedJob(steps: number): Promise<string> {
  await signIn(world, "claude");
  const started = await scv(world, ["delegate", "--background", "claude", "Work"], {
    env: { FAKE_AGENT_MODE: `steps:${steps}` },
  });
  expect(started.exitCode, started.stderr).toBe(0);
  await lab.pidsOf();
  return started.stdout.trim();
}

function parsedLines(stdout: string): EventLine[] {
  return stdout
    .trim()
    .split("\n")
    .map((line) => eventLineSchema().parse(JSON.parse(line)));
}

describe("scv logs", () => {
  it("-f shows a running background job's tool events in order as they happen, then its result", async () => {
    const job = await steppedJob(3);
    const follower = startScv(world, ["logs", "-f", job]);
    // Each line while the job runs, before the next step is let go.
    await outputHolds(follower, /claude \d+s \$ echo step 1\n/);
    step(1);
    await outputHolds(follower, /claude \d+s \$ echo step 2\n/);
    step(2);
    await outputHolds(follower, /claude \d+s \$ echo step 3\n/);
    step(3);
    const done = await follower;
    expect(done.exitCode, String(done.stderr)).toBe(0);
    const lines = String(done.stdout).trimEnd().split("\n");
    expect(lines.map((line) => line.replace(/ \d+(m\d+)?s /, " Ns "))).toEqual([
      "claude Ns $ echo step 1",
      "claude Ns ok $ echo step 1",
      "claude Ns $ echo step 2",
      "claude Ns ok $ echo step 2",
      "claude Ns $ echo step 3",
      "claude Ns ok $ echo step 3",
      "claude done in Ns · 12.2k in / 6 out tokens · $0.0246",
    ]);
    expect(String(done.stderr)).toBe("");

    // Following took nothing: scv wait still has the result, and then the job's files go.
    const waited = await scv(world, ["wait", job]);
    expect(waited.exitCode).toBe(0);
    expect(turnFiles()).toEqual([]);
  });

  it("--events prints the lines delegate --events prints for the same turn", async () => {
    await signIn(world, "claude");
    const foreground = await scv(world, ["delegate", "--events", "claude", "Work"], {
      env: { FAKE_AGENT_MODE: "tools:2" },
    });
    expect(foreground.exitCode, foreground.stderr).toBe(0);
    const started = await scv(world, ["delegate", "--background", "claude", "Work"], {
      env: { FAKE_AGENT_MODE: "tools:2" },
    });
    const job = started.stdout.trim();
    const followed = await scv(world, ["logs", "-f", "--events", job]);
    expect(followed.exitCode, followed.stderr).toBe(0);

    // The same lines but for the time, the conversation and what depends on it.
    const comparable = (line: EventLine) => {
      const { t: _t, conversation: _conversation, ...rest } = line;
      if (rest.type === "session") return { ...rest, sessionId: "<session>" };
      if (rest.type !== "result") return rest;
      const { duration: _duration, conversation: _c, session: _s, ...result } = rest.result;
      return { ...rest, result };
    };
    const mine = parsedLines(followed.stdout);
    expect(mine.map(comparable)).toEqual(parsedLines(foreground.stdout).map(comparable));
    expect(mine.map((line) => line.type)).toEqual([
      "session",
      "mode",
      "tool-start",
      "tool-end",
      "tool-start",
      "tool-end",
      "text",
      "usage",
      "turn-end",
      "result",
    ]);
    expect(mine.every((line) => line.conversation === job.replace(/\.[0-9a-z]{8}$/, ""))).toBe(true);

    // Without -f, of an ended job: the same, and nothing was taken from it.
    const again = await scv(world, ["logs", "--events", job]);
    expect(again.stdout).toBe(followed.stdout);
  });

  it("follows another terminal's foreground turn by its conversation's handle", async () => {
    await signIn(world, "claude");
    const turn = startScv(world, ["delegate", "claude", "Work"], { env: { FAKE_AGENT_MODE: "steps:2" } });
    await lab.pidsOf();
    const [record] = turnFiles().filter((name) => /^claude-[0-9a-z]{6}\.json$/.test(name));
    const handle = (record ?? "").replace(/\.json$/, "");
    const follower = startScv(world, ["logs", "-f", handle]);
    await outputHolds(follower, /\$ echo step 1\n/);
    step(1);
    step(2);
    const [followed, done] = await Promise.all([follower, turn]);
    expect(done.exitCode).toBe(0);
    expect(followed.exitCode, String(followed.stderr)).toBe(0);
    expect(String(followed.stdout)).toMatch(/ok \$ echo step 2\nclaude done in \d+s · 12\.2k in/);
    // A foreground turn's events go with it.
    expect(turnFiles()).toEqual([]);
  });

  it("Ctrl-C ends the following with 130 and leaves the job running", async () => {
    const job = await steppedJob(1);
    const follower = startScv(world, ["logs", "-f", job]);
    await outputHolds(follower, /\$ echo step 1\n/);
    follower.kill("SIGINT");
    const stopped = await follower;
    expect(stopped.exitCode).toBe(130);
    expect(String(stopped.stderr)).toBe("");
    const listed = await scv(world, ["ps", "--json"]);
    expect((JSON.parse(listed.stdout) as { job: string }[]).map((row) => row.job)).toEqual([job]);
    step(1);
    expect((await scv(world, ["wait", job])).exitCode).toBe(0);
  });

  it("of a running job without -f prints what there is and says how to follow", async () => {
    const job = await steppedJob(1);
    const deadline = Date.now() + 20_000;
    let shown = await scv(world, ["logs", job]);
    while (!shown.stdout.includes("$ echo step 1") && Date.now() < deadline)
      shown = await scv(world, ["logs", job]);
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout).toMatch(/^claude \d+s \$ echo step 1\n$/);
    expect(shown.stderr).toBe(`scv: ${job} is still running — follow it: scv logs -f ${job}\n`);
    // The job's events are its own and private.
    const events = join(world.scvHome, "turns", `${job}.events`);
    expect(statSync(events).mode & 0o777).toBe(0o600);
    step(1);
    // Ended before its world is removed: a job saving its result as its folder goes fails the removal.
    expect((await scv(world, ["wait", job])).exitCode).toBe(0);
  });

  it("refuses a name with no job, in one line", async () => {
    const missing = await scv(world, ["logs", "claude-abc123.abcdefgh"]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toBe(
      "scv: no job claude-abc123.abcdefgh — it ended and its result was read, or it never ran (scv ps lists running turns)\n",
    );
    const bad = await scv(world, ["logs", "../x"]);
    expect(bad.exitCode).toBe(2);
  });
});
