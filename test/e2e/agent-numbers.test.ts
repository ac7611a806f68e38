// Numbers the agent reports (tokens, cost) through the built scv: a cost of 1e308, negative or
// fractional token counts never damage the conversation record, whatever the turns add up to.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useLab } from "../helpers/lab.js";
import { scv, signIn, type World } from "../helpers/scv.js";

let world: World;
useLab((created) => {
  world = created;
});

function recordOf(handle: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(world.scvHome, "conversations", `${handle}.json`), "utf8"));
}

function expectBelievable(usage: unknown): void {
  for (const [field, value] of Object.entries(usage as Record<string, unknown>)) {
    // A count the agent did not report is null (one JSON shape: every field present).
    if (value === null) continue;
    expect(typeof value, `${field}: ${String(value)}`).toBe("number");
    expect(Number.isFinite(value), field).toBe(true);
    expect(value as number, field).toBeGreaterThanOrEqual(0);
    if (field !== "costUsd") expect(Number.isInteger(value), `${field}: ${String(value)}`).toBe(true);
  }
}

describe("numbers from the agent", () => {
  it.each(["claude", "codex", "qwen"])(
    "%s: a cost of 1e308 on every turn leaves a record that shows and continues",
    async (agent) => {
      await signIn(world, agent);
      const env = { FAKE_AGENT_MODE: "usage-numbers:1e308" };
      const first = await scv(world, ["delegate", agent, "--json", "Say hi"], { env });
      expect(first.exitCode, first.stderr).toBe(0);
      const handle = JSON.parse(first.stdout).conversation as string;
      for (let turn = 0; turn < 2; turn += 1) {
        const next = await scv(world, ["delegate", "-c", handle, "--json", "again"], { env });
        expect(next.exitCode, next.stderr).toBe(0);
        const result = JSON.parse(next.stdout);
        expectBelievable(result.usage ?? {});
        expect(result.cost).toBeNull();
      }
      const record = recordOf(handle);
      expect(record.turns).toBe(3);
      expectBelievable(record.usage);
      expectBelievable(record.cumulative ?? {});
      const show = await scv(world, ["conversations", "show", handle]);
      expect(show.exitCode, show.stderr).toBe(0);
      expect(show.stderr).not.toMatch(/damaged/);
    },
  );

  it.each(["-5", "2.5", "-0.5"])("codex: token counts of %s are never stored as given", async (bad) => {
    await signIn(world, "codex");
    const run = await scv(world, ["delegate", "codex", "--json", "Say hi"], {
      env: { FAKE_AGENT_MODE: `usage-numbers:${bad}` },
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expectBelievable(result.usage ?? {});
    expectBelievable(recordOf(result.conversation).usage);
  });

  it("a record an older scv wrote with a null total is read, not called damaged", async () => {
    await signIn(world, "claude");
    const first = await scv(world, ["delegate", "claude", "--json", "Say hi"]);
    const handle = JSON.parse(first.stdout).conversation as string;
    const path = join(world.scvHome, "conversations", `${handle}.json`);
    const record = recordOf(handle);
    writeFileSync(path, JSON.stringify({ ...record, usage: { input: 10, costUsd: null } }));
    const list = await scv(world, ["conversations", "list"]);
    expect(list.stderr).not.toMatch(/damaged|unreadable/);
    expect(list.stdout).toContain(handle);
    const next = await scv(world, ["delegate", "-c", handle, "--json", "again"]);
    expect(next.exitCode, next.stderr).toBe(0);
    expectBelievable(recordOf(handle).usage);
  });
});
