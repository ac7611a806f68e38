// `scv usage` through the built scv, against fake claude and codex replaying real captures: the totals
// are the sums of the token counts in the captures the turns replayed (computed here from the
// fixture files), foreground, failed, fan-out and background turns alike; parallel turns all count.

import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { usageReportSchema } from "../../src/home/usage-totals.js";
import { useLab } from "../helpers/lab.js";
import { hasPython, PTY_RUN } from "../helpers/pty.js";
import { SCV, scv, signIn, type World } from "../helpers/scv.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures");

interface Tokens {
  input: number;
  cached: number;
  cacheWrite: number;
  output: number;
  reasoning: number;
  costUsd: number;
}

const NONE: Tokens = { input: 0, cached: 0, cacheWrite: 0, output: 0, reasoning: 0, costUsd: 0 };

function events(cli: string, name: string): Record<string, unknown>[] {
  return readFileSync(join(FIXTURES, cli, `${name}.stdout`), "utf8")
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

type Counts = Record<string, number | undefined>;

/** Claude Code's result line: its usage (input not read from cache) and total cost. */
function claudeCapture(name: string): Tokens {
  const result = events("claude", name).find((event) => event.type === "result");
  const usage = (result?.usage ?? {}) as Counts;
  return {
    ...NONE,
    input: usage.input_tokens ?? 0,
    cached: usage.cache_read_input_tokens ?? 0,
    cacheWrite: usage.cache_creation_input_tokens ?? 0,
    output: usage.output_tokens ?? 0,
    costUsd: Number(result?.total_cost_usd ?? 0),
  };
}

/** Codex's turn.completed: its input counts cache reads, which scv counts apart. */
function codexCapture(name: string): Tokens {
  const usage = (events("codex", name).find((event) => event.type === "turn.completed")?.usage ??
    {}) as Counts;
  return {
    ...NONE,
    input: (usage.input_tokens ?? 0) - (usage.cached_input_tokens ?? 0),
    cached: usage.cached_input_tokens ?? 0,
    cacheWrite: usage.cache_write_input_tokens ?? 0,
    output: usage.output_tokens ?? 0,
    reasoning: usage.reasoning_output_tokens ?? 0,
  };
}

function sum(...all: Tokens[]): Tokens {
  const total = { ...NONE };
  for (const tokens of all)
    for (const key of Object.keys(total) as (keyof Tokens)[]) total[key] += tokens[key];
  return total;
}

async function usage(world: World, ...args: string[]) {
  const run = await scv(world, ["usage", "--json", ...args]);
  expect(run.exitCode, run.stderr).toBe(0);
  return usageReportSchema().parse(JSON.parse(run.stdout));
}

let world: World;
useLab((created) => {
  world = created;
});

describe("scv usage", () => {
  it("sums what the captures reported, by agent, for every kind of turn", async () => {
    await signIn(world, "claude");
    await signIn(world, "codex");
    expect((await scv(world, ["delegate", "claude", "Say hi"])).exitCode).toBe(0);
    expect((await scv(world, ["delegate", "codex", "Say hi"])).exitCode).toBe(0);
    const failed = await scv(world, ["delegate", "claude", "Say hi"], {
      env: { FAKE_AGENT_MODE: "fixture:rate-limit" },
    });
    expect(failed.exitCode).toBe(5);
    // Fan-out: one of each.
    expect((await scv(world, ["delegate", "claude", "codex", "Say hi"])).exitCode).toBe(0);
    const background = await scv(world, ["delegate", "--background", "codex", "Say hi"]);
    expect(background.exitCode, background.stderr).toBe(0);
    const job = background.stdout.trim();
    expect((await scv(world, ["wait", job])).exitCode).toBe(0);

    const claude = sum(claudeCapture("turn1"), claudeCapture("rate-limit"), claudeCapture("turn1"));
    const codex = sum(codexCapture("turn1"), codexCapture("turn1"), codexCapture("turn1"));
    const report = await usage(world);
    expect(report.by).toBe("agent");
    expect(report.groups.map((group) => group.key)).toEqual(["claude", "codex"]);
    // Dollars are summed as scv tidies them (to 1e-9): compared as such.
    expect(report.groups[0]).toMatchObject({ turns: 3, failures: 1, ...claude, costUsd: expect.any(Number) });
    expect(report.groups[0]?.costUsd).toBeCloseTo(claude.costUsd, 9);
    expect(report.groups[1]).toMatchObject({ turns: 3, failures: 0, ...codex, costUsd: null });
    expect(report.total).toMatchObject({
      turns: 6,
      failures: 1,
      input: claude.input + codex.input,
      output: claude.output + codex.output,
    });
    expect(report.total.costUsd).toBeCloseTo(claude.costUsd, 9);
    expect(report.total.input).toBeGreaterThan(0);
    expect(report.total.durationMs).toBeGreaterThan(0);

    // Six conversations (the failed turn made one too: its session exists), one per turn.
    expect((await usage(world, "--by", "conversation")).groups).toHaveLength(6);
    expect((await usage(world, "--by", "account")).groups.map((group) => group.key)).toEqual([
      "claude@default",
      "codex@default",
    ]);
    const days = await usage(world, "--by", "day");
    expect(days.groups.reduce((turns, group) => turns + group.turns, 0)).toBe(6);

    // The table: a row per agent and the total.
    const table = await scv(world, ["usage"]);
    expect(table.exitCode).toBe(0);
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^AGENT\s+TURNS\s+FAILED\s+INPUT\s+CACHED\s+OUTPUT\s+COST\s+TIME$/);
    expect(lines.slice(1).map((line) => line.split(/\s+/).slice(0, 3))).toEqual([
      ["claude", "3", "1"],
      ["codex", "3", "0"],
      ["total", "6", "1"],
    ]);
    expect(lines[2]).toContain(" - ");
  }, 120_000);

  it("counts every one of many turns run at once", async () => {
    await signIn(world, "claude");
    const count = 24;
    const run = await scv(world, ["delegate", "--parallel", "12", ...Array(count).fill("claude"), "Say hi"]);
    expect(run.exitCode, run.stderr).toBe(0);
    const report = await usage(world);
    expect(report.total.turns).toBe(count);
    expect(report.total.input).toBe(count * claudeCapture("turn1").input);
  }, 120_000);

  it("says there is nothing on stderr, prints an empty document with --json, and refuses bad options", async () => {
    const empty = await scv(world, ["usage", "--since", "2026-01-01"]);
    expect(empty).toMatchObject({ exitCode: 0, stdout: "" });
    expect(empty.stderr).toBe("no turns recorded since 2026-01-01T00:00:00.000Z\n");
    expect((await usage(world, "--by", "day")).groups).toEqual([]);

    const since = await scv(world, ["usage", "--since", "last week"]);
    expect(since.exitCode).toBe(2);
    expect(since.stderr).toBe(
      "scv: --since 'last week' is neither a duration nor a date — write e.g. 7d, 12h, 2026-12-01 or 2026-12-01T09:00:00Z\n",
    );
    const by = await scv(world, ["usage", "--by", "week"]);
    expect(by.exitCode).toBe(2);
    expect(by.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(by.stderr).toContain("agent, account, model, day, conversation");
  });
});

describe("scv usage --chart", () => {
  const day = (back: number) => new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10);

  /** Turns of 3 days ago (1,000 tokens), yesterday (4,000 and 4,000) and today (2,000, no cost). */
  function logTurns(): void {
    const entry = (back: number, tokens: number, cost?: number) => ({
      v: 1,
      // Noon of that day, or now when today's noon is still to come (a turn is never in the future).
      startedAt: new Date(Math.min(Date.parse(`${day(back)}T12:00:00.000Z`), Date.now())).toISOString(),
      durationMs: 1000,
      agent: "claude",
      account: "default",
      conversation: null,
      status: "completed",
      exitCode: 0,
      usage: { input: tokens / 2, output: tokens / 2, ...(cost === undefined ? {} : { costUsd: cost }) },
    });
    const lines = [entry(3, 1000, 0.5), entry(1, 4000, 1), entry(1, 4000, 1), entry(0, 2000)];
    const dir = join(world.scvHome, "usage");
    mkdirSync(dir, { recursive: true });
    for (const line of lines) {
      const file = join(dir, `${line.startedAt.slice(0, 7)}.jsonl`);
      appendFileSync(file, `${JSON.stringify(line)}\n`);
    }
  }

  async function onTerminal(args: readonly string[]): Promise<string> {
    const run = await execa("python3", [PTY_RUN, "", "--", process.execPath, SCV, "usage", ...args], {
      cwd: world.project,
      env: { ...world.env, COLUMNS: "60" },
      extendEnv: false,
    });
    const { output, code } = JSON.parse(run.stdout) as { output: string; code: number };
    expect(code, output).toBe(0);
    return output.replaceAll("\r\n", "\n");
  }

  it.skipIf(!hasPython)("draws tokens per day as bars on a terminal, every day of the window", async () => {
    logTurns();
    const lines = (await onTerminal(["--chart", "--since", "4d"])).trimEnd().split("\n");
    expect(lines[0]).toBe(`tokens per day since ${day(4)}`);
    const rows = lines.slice(1).map((line) => /^(\S+) {2}([█▏▎▍▌▋▊▉ ]*) {2,}(\S+)$/.exec(line));
    expect(rows.map((row) => [row?.[1], row?.[3]])).toEqual([
      [day(4), "0"],
      [day(3), "1.0k"],
      [day(2), "0"],
      [day(1), "8.0k"],
      [day(0), "2.0k"],
    ]);
    const length = (i: number) => (rows[i]?.[2] ?? "").trimEnd().length;
    // Scaled to the largest: 8,000 the whole bar, 2,000 a quarter, 1,000 an eighth; none for none.
    expect([length(0), length(2)]).toEqual([0, 0]);
    expect(length(3)).toBeGreaterThan(10);
    expect(Math.abs(length(4) - length(3) / 4)).toBeLessThanOrEqual(1);
    expect(Math.abs(length(1) - length(3) / 8)).toBeLessThanOrEqual(1);
  });

  it.skipIf(!hasPython)("--chart cost: dollars, and - for a day that reported none", async () => {
    logTurns();
    const output = await onTerminal(["--chart", "cost", "--since", "4d"]);
    expect(output).toContain(`cost per day since ${day(4)}\n`);
    expect(output).toMatch(new RegExp(`${day(1)}  █+ +\\$2\\.00\\n`));
    expect(output).toMatch(new RegExp(`${day(0)}  +-\\n`));
  });

  it("prints plain numbers off a terminal, and the report with --json", async () => {
    logTurns();
    const plain = await scv(world, ["usage", "--chart", "--since", "4d"]);
    expect(plain.stdout).toBe(
      [
        "DAY         TOKENS",
        `${day(4)}  0`,
        `${day(3)}  1000`,
        `${day(2)}  0`,
        `${day(1)}  8000`,
        `${day(0)}  2000`,
        "",
      ].join("\n"),
    );
    const json = usageReportSchema().parse(
      JSON.parse((await scv(world, ["usage", "--chart", "--json", "--since", "4d"])).stdout),
    );
    expect(json.by).toBe("day");
    expect(json.groups.map((group) => [group.key, group.input + group.output])).toEqual([
      [day(3), 1000],
      [day(1), 8000],
      [day(0), 2000],
    ]);
  });
});
