// Fifty scv processes at once on fake agents, loopback only: most complete, some fail, some time
// out with a grandchild, some continue conversations (two of them the same one). Afterwards every
// conversation record is whole and parses, no lock or temp file is left, no process of any turn is
// alive, and every process printed its own reply.

import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { conversationSchema, writeConversation } from "../../src/home/conversations.js";
import { usageReportSchema } from "../../src/home/usage-totals.js";
import { turnResultShape } from "../../src/json-shapes.js";
import { systemProcessTable } from "../../src/os/processes.js";
import { useLab } from "../helpers/lab.js";
import { killAll, survivors } from "../helpers/pids.js";
import { agentCalls, scv, signIn, startScv, type World } from "../helpers/scv.js";

let world: World;
const leftovers: number[] = [];
useLab((created) => {
  world = created;
});
afterEach(() => {
  killAll(leftovers.splice(0));
});

interface Job {
  readonly args: string[];
  readonly env: Record<string, string>;
  readonly exitCode: number;
  /** The reply this process must print, when it succeeds. */
  readonly reply?: string;
}

describe("load", () => {
  it("50 concurrent turns: whole records, no lock or temp file, no process left, each its own reply", async () => {
    await signIn(world, "claude");
    // Four conversations to continue, as a first turn would have left them (the fake claude resumes
    // a session it finds in its home).
    const conversations: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const handle = `claude-load0${i}`;
      const sessionId = randomUUID();
      const sessions = join(world.scvHome, "agents", "claude", ".fake-sessions");
      mkdirSync(sessions, { recursive: true });
      writeFileSync(join(sessions, sessionId), "");
      const at = new Date().toISOString();
      writeConversation(
        {
          handle,
          agent: "claude",
          sessionId,
          cwd: world.project,
          policy: "default",
          createdAt: at,
          updatedAt: at,
          turns: 1,
          usage: {},
          lastStatus: "completed",
        },
        world.env,
      );
      conversations.push(handle);
    }

    const jobs: Job[] = [];
    for (let i = 0; i < 50; i += 1) {
      const prompt = `prompt number ${i}`;
      // Its own pids file, so every grandchild is known.
      const env = { FAKE_AGENT_PIDS: `pids-${i}.json` };
      if (i < 30) {
        jobs.push({
          args: ["claude", prompt],
          env: { ...env, FAKE_AGENT_MODE: "reply" },
          exitCode: 0,
          reply: `REPLY ${prompt}`,
        });
      } else if (i < 35) {
        // Two of these continue the same conversation: one waits for the other's lock.
        const handle = conversations[Math.min(i - 30, 3)] ?? "";
        jobs.push({
          args: ["-c", handle, prompt],
          // However slow a loaded machine makes the first, the second waits for its lock.
          env: { ...env, FAKE_AGENT_MODE: "reply", SCV_LOCK_WAIT: "90s" },
          exitCode: 0,
          reply: `REPLY ${prompt}`,
        });
      } else if (i < 43) {
        jobs.push({ args: ["gemini", prompt], env: { ...env, FAKE_AGENT_MODE: "exit:1" }, exitCode: 1 });
      } else {
        jobs.push({
          args: ["gemini", "--timeout", "2s", prompt],
          env: { ...env, FAKE_AGENT_MODE: "grandchild" },
          exitCode: 124,
        });
      }
    }

    const runs = await Promise.all(
      jobs.map((job) => startScv(world, ["delegate", "--json", ...job.args], { env: job.env })),
    );
    for (const [index, run] of runs.entries()) {
      const job = jobs[index] as Job;
      const label = `job ${index}: ${job.args.join(" ")}\n${String(run.stderr)}`;
      expect(run.exitCode, label).toBe(job.exitCode);
      const result = turnResultShape().parse(JSON.parse(String(run.stdout)));
      expect(result.exitCode, label).toBe(job.exitCode);
      if (job.reply !== undefined) expect(result.reply, label).toBe(job.reply);
    }

    // Every record parses and is whole; the conversation continued twice has three turns.
    const dir = join(world.scvHome, "conversations");
    const names = readdirSync(dir).sort();
    expect(
      names.every((name) => /^[a-z-]+-[0-9a-z]{6}\.json$/.test(name)),
      names.join(" "),
    ).toBe(true);
    const records = names.map((name) =>
      conversationSchema().parse(JSON.parse(readFileSync(join(dir, name), "utf8"))),
    );
    expect(records).toHaveLength(4 + 30);
    expect(records.every((record) => record.lastStatus === "completed")).toBe(true);
    expect(records.find((record) => record.handle === conversations[3])?.turns).toBe(3);
    // The last prompt of each: the twice-continued conversation keeps whichever went second.
    const prompts = new Set(records.map((record) => record.lastPrompt));
    for (let i = 0; i < 33; i += 1) expect(prompts.has(`prompt number ${i}`), `prompt ${i}`).toBe(true);
    expect(prompts.has("prompt number 33") !== prompts.has("prompt number 34")).toBe(true);

    // Every turn is in the usage log, appended by 50 processes at once: none lost, none torn.
    const usage = await scv(world, ["usage", "--json"]);
    const report = usageReportSchema().parse(JSON.parse(usage.stdout));
    expect(report.skippedLines).toBe(0);
    expect(report.groups.map(({ key, turns, failures }) => [key, turns, failures])).toEqual([
      ["claude", 35, 0],
      ["gemini", 15, 15],
    ]);

    // No running-turn record, result, lock or temp file anywhere in scv's home.
    const turns = join(world.scvHome, "turns");
    expect(existsSync(turns) ? readdirSync(turns) : []).toEqual([]);
    const leftoverFiles = readdirSync(world.scvHome, { recursive: true, encoding: "utf8" }).filter((path) =>
      /\.lock$|\.lock\/|\.json\.[0-9a-f]+$|\.tmp$/.test(path),
    );
    expect(leftoverFiles).toEqual([]);

    // No process of any turn: the agents, their grandchildren, anything carrying a turn's tag.
    const pids = agentCalls(world).map((call) => call.pid);
    for (const name of readdirSync(world.calls).filter((entry) => entry.startsWith("pids-"))) {
      pids.push(...(JSON.parse(readFileSync(join(world.calls, name), "utf8")) as number[]));
    }
    leftovers.push(...pids);
    expect(pids.length).toBeGreaterThanOrEqual(50 + 4 + 7);
    expect(await survivors(pids)).toEqual([]);
    const tags = agentCalls(world).map((call) => call.env.SCV_TURN ?? "");
    expect(new Set(tags).size).toBe(tags.length);
    expect(tags.flatMap((tag) => systemProcessTable.pidsWithEnv("SCV_TURN", tag))).toEqual([]);
  }, 120_000);
});
