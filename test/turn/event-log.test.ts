// A turn's events file (turn/event-log.ts) as `scv logs` reads it back (jobs/follow.ts): every event
// of an ordinary turn, in order, as `--events` lines; a busy burst kept at the gate's rate with the
// rest counted in place and every kept tool's end kept too; a file past its bound set aside, so at
// most two are kept and the reader goes from the older to the newer; nothing but a regular file read.

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type DroppedLine, type EventLine, eventLineSchema } from "../../src/events.js";
import { followJob } from "../../src/jobs/follow.js";
import { identify } from "../../src/os/processes.js";
import type { TurnEvent } from "../../src/parsers/event-types.js";
import { openEventLog } from "../../src/turn/event-log.js";
import { turnResult } from "../review/helpers.js";

const JOB = "claude-abc123.a1b2c3d4";
const HANDLE = "claude-abc123";
let root: string;
let env: Record<string, string>;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "scv-event-log-"));
  env = { SCV_HOME: join(root, "home") };
  mkdirSync(join(root, "home", "turns"), { recursive: true, mode: 0o700 });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const turns = () => join(root, "home", "turns");

function fileLines(name = `${JOB}.events`): Record<string, unknown>[] {
  return readFileSync(join(turns(), name), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function readBack(): Promise<{ lines: EventLine[]; dropped: DroppedLine[]; end: string }> {
  const lines: EventLine[] = [];
  const dropped: DroppedLine[] = [];
  const end = await followJob(JOB, env, {
    follow: false,
    onLine: (line) => lines.push(line),
    onDropped: (line) => dropped.push(line),
  });
  return { lines, dropped, end: end.kind };
}

const start = (i: number): TurnEvent => ({
  type: "tool-start",
  id: `t${i}`,
  name: "Bash",
  summary: `$ echo ${i}`,
});
const end = (i: number): TurnEvent => ({ type: "tool-end", id: `t${i}`, name: "Bash", ok: true });

describe("a turn's events file", () => {
  it("holds every event of an ordinary turn, in order, as --events lines (0600), once the stretch is over", async () => {
    let clock = 1_000;
    const log = openEventLog(JOB, HANDLE, env, { now: () => clock });
    const events: TurnEvent[] = [
      { type: "session", sessionId: "s-1" },
      start(1),
      end(1),
      { type: "text", text: "done" },
    ];
    for (const event of events) {
      clock += 10;
      log?.append(event, "claude");
    }
    // One write per stretch: nothing yet, all of it after the microtask.
    expect(readFileSync(join(turns(), `${JOB}.events`), "utf8")).toBe("");
    await Promise.resolve();
    expect(fileLines().map((line) => eventLineSchema().parse(line))).toEqual(
      events.map((event, i) => ({ ...event, agent: "claude", conversation: HANDLE, t: 10 * (i + 1) })),
    );
    log?.close();
    expect(statSync(join(turns(), `${JOB}.events`)).mode & 0o777).toBe(0o600);
    const back = await readBack();
    expect(back.lines.map((line) => line.type)).toEqual(["session", "tool-start", "tool-end", "text"]);
    // No record, no result: the job has ended and left none.
    expect(back.end).toBe("gone");
  });

  it("keeps a busy burst at the gate's rate: the rest counted where they were, each kept tool's end kept", async () => {
    let clock = 0;
    const log = openEventLog(JOB, HANDLE, env, { now: () => clock });
    for (let i = 1; i <= 1000; i += 1) {
      log?.append(start(i), "claude");
      log?.append(end(i), "claude");
    }
    clock += 1_000;
    log?.append({ type: "turn-end", ok: true }, "claude");
    log?.append(start(1001), "claude");
    log?.close();
    const { lines, dropped } = await readBack();
    const starts = lines.filter((line) => line.type === "tool-start");
    const ends = lines.filter((line) => line.type === "tool-end");
    expect(starts).toHaveLength(301);
    expect(ends.map((line) => (line as { id: string }).id)).toEqual(
      starts.slice(0, 300).map((line) => (line as { id: string }).id),
    );
    expect(dropped).toEqual([{ type: "dropped", count: 1400, agent: "claude", conversation: HANDLE, t: 0 }]);
    // In place: after the kept burst, before the next line written.
    const order = fileLines().map((line) => line.type);
    expect(order.indexOf("dropped")).toBe(600);
    expect(order.slice(600)).toEqual(["dropped", "turn-end", "tool-start"]);
  });

  it("sets a file past its bound aside: two kept, read from the older to the newer, a tail of the events in order", async () => {
    let clock = 0;
    const log = openEventLog(JOB, HANDLE, env, { now: () => clock, fileBytes: 1_000 });
    for (let i = 0; i < 60; i += 1) {
      clock += 1_000;
      log?.append({ type: "text", text: `line ${i} ${"x".repeat(40)}` }, "claude");
      await Promise.resolve();
    }
    log?.close();
    expect(readdirSync(turns()).sort()).toEqual([`${JOB}.events`, `${JOB}.events.1`]);
    const texts = (await readBack()).lines.map((line) => (line as { text: string }).text.split(" ")[1]);
    const first = Number(texts[0]);
    expect(first).toBeGreaterThan(0);
    expect(texts).toEqual(Array.from({ length: 60 - first }, (_, i) => String(first + i)));
  });

  it("is followed across each file set aside, every line in order, to the result line", async () => {
    const me = identify(process.pid);
    writeFileSync(
      join(turns(), `${HANDLE}.json`),
      JSON.stringify({
        version: 1,
        handle: HANDLE,
        tag: JOB,
        agent: "claude",
        prompt: "",
        cwd: root,
        depth: 0,
        background: false,
        host: hostname(),
        startedAt: new Date().toISOString(),
        scv: me,
      }),
    );
    const log = openEventLog(JOB, HANDLE, env, { fileBytes: 1_000 });
    const seen: string[] = [];
    const following = followJob(JOB, env, {
      follow: true,
      pollMs: 5,
      onLine: (line) => seen.push((line as { text: string }).text),
    });
    for (let i = 0; i < 40; i += 1) {
      log?.append({ type: "text", text: `line ${i} ${"x".repeat(60)}` }, "claude");
      // Each line read before the next is written: the follower goes through every file.
      while (seen.length < i + 1) await new Promise((resolve) => setTimeout(resolve, 2));
    }
    log?.result(turnResult("done", { agent: "claude", conversation: HANDLE }));
    log?.close();
    const end = await following;
    expect(end.kind).toBe("result");
    expect(seen.map((text) => text.split(" ")[1])).toEqual(Array.from({ length: 40 }, (_, i) => String(i)));
  });

  it("cuts a long text: the reply is whole in the result", async () => {
    const log = openEventLog(JOB, HANDLE, env);
    log?.append({ type: "text", text: "y".repeat(100_000) }, "claude");
    log?.close();
    const text = String(fileLines()[0]?.text);
    expect(text.length).toBe(16 * 1024 + 1);
    expect(text.endsWith("…")).toBe(true);
  });

  it("is never opened or read through a FIFO in its place", async () => {
    execFileSync("mkfifo", [join(turns(), `${JOB}.events`)]);
    expect(openEventLog(JOB, HANDLE, env)).toBeUndefined();
    const started = Date.now();
    expect((await readBack()).end).toBe("gone");
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
