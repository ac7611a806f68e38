// The usage log: one line per turn (appended whole by concurrent processes: usage-log.stress.test.ts),
// read back with damaged lines and unbelievable numbers left out, and old months removed.

import { execFileSync } from "node:child_process";
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appendUsage, KEPT_MONTHS, readUsage, type UsageEntry, usageDir } from "../../src/home/usage-log.js";

let root: string;
let env: Record<string, string>;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "scv-usage-log-"));
  env = { SCV_HOME: join(root, "scv") };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function entry(overrides: Partial<UsageEntry> = {}): UsageEntry {
  return {
    v: 1,
    startedAt: "2026-12-03T10:00:00.000Z",
    durationMs: 1500,
    agent: "codex",
    account: "default",
    transport: "process",
    conversation: "codex-k3f9x2",
    status: "completed",
    exitCode: 0,
    usage: { input: 100, cached: 20, output: 5 },
    ...overrides,
  };
}

const DEC = new Date("2026-12-01T00:00:00Z");
const LATER = new Date("2027-01-01T00:00:00Z");

describe("the usage log", () => {
  it("keeps one 0600 line per turn in the file of the month it started, and reads it back", () => {
    appendUsage(entry(), env);
    appendUsage(entry({ startedAt: "2026-11-30T23:59:59.999Z", agent: "claude" }), env);
    expect(readdirSync(usageDir(env)).sort()).toEqual(["2026-11.jsonl", "2026-12.jsonl"]);
    expect(statSync(join(usageDir(env), "2026-12.jsonl")).mode & 0o777).toBe(0o600);
    const { entries, skippedLines } = readUsage(DEC, LATER, env);
    expect(skippedLines).toBe(0);
    expect(entries).toEqual([entry()]);
    // The window is start-inclusive, end-exclusive, to the millisecond.
    expect(readUsage(new Date("2026-11-30T23:59:59.999Z"), LATER, env).entries).toHaveLength(2);
    expect(readUsage(DEC, new Date("2026-12-03T10:00:00.000Z"), env).entries).toHaveLength(0);
  });

  it("skips torn and damaged lines, and drops a number that cannot be a count, never the line", () => {
    appendUsage(entry(), env);
    const file = join(usageDir(env), "2026-12.jsonl");
    appendFileSync(file, '{"v":1,"startedAt":"2026-12-03T11:00:00.000Z","agent":"cod');
    appendFileSync(file, "\nnot json\n");
    appendFileSync(file, `${JSON.stringify({ ...entry(), v: 2 })}\n`);
    appendFileSync(
      file,
      `${JSON.stringify({ ...entry(), usage: { input: -5, output: "7", cached: 3, costUsd: 0.5 }, durationMs: -1 })}\n`,
    );
    const { entries, skippedLines } = readUsage(DEC, LATER, env);
    expect(skippedLines).toBe(3);
    expect(entries).toHaveLength(2);
    expect(entries[1]?.usage).toEqual({ cached: 3, costUsd: 0.5 });
    expect(entries[1]?.durationMs).toBe(0);
  });

  it("after a line torn by a short write (no newline), starts the next turn's on a line of its own", () => {
    appendUsage(entry(), env);
    const file = join(usageDir(env), "2026-12.jsonl");
    // What a write cut short on a full disk leaves: the start of a line, no newline.
    appendFileSync(file, '{"v":1,"startedAt":"2026-12-03T11:00:00.000Z","agent":"cod');
    appendUsage(entry({ agent: "claude" }), env);
    appendUsage(entry({ agent: "gemini" }), env);
    const lines = readFileSync(file, "utf8").split("\n");
    expect(lines[1]).toBe('{"v":1,"startedAt":"2026-12-03T11:00:00.000Z","agent":"cod');
    expect(JSON.parse(lines[2] ?? "")).toMatchObject({ v: 1, agent: "claude" });
    const { entries, skippedLines } = readUsage(DEC, LATER, env);
    expect(skippedLines).toBe(1);
    expect(entries.map((each) => each.agent)).toEqual(["codex", "claude", "gemini"]);
  });

  it("reads the whole line an older scv appended to a torn one, skipping only the fragment", () => {
    mkdirSync(usageDir(env), { recursive: true });
    const file = join(usageDir(env), "2026-12.jsonl");
    const fragment = '{"v":1,"startedAt":"2026-12-03T11:00:00.000Z","agent":"cod';
    writeFileSync(
      file,
      `${JSON.stringify(entry())}\n${fragment}${JSON.stringify(entry({ agent: "claude", model: '{"v":1 in a string' }))}\n`,
    );
    const { entries, skippedLines } = readUsage(DEC, LATER, env);
    expect(skippedLines).toBe(1);
    expect(entries.map((each) => [each.agent, each.model])).toEqual([
      ["codex", undefined],
      ["claude", '{"v":1 in a string'],
    ]);
  });

  it("refuses a usage log that is a FIFO or a link, without waiting or writing through it", () => {
    mkdirSync(usageDir(env), { recursive: true });
    const file = join(usageDir(env), "2026-12.jsonl");
    execFileSync("mkfifo", [file]);
    expect(() => appendUsage(entry(), env)).toThrow(`usage log ${file} is not a regular file`);
    expect(readUsage(DEC, LATER, env)).toEqual({ entries: [], skippedLines: 0 });
    rmSync(file);
    const target = join(root, "elsewhere.jsonl");
    writeFileSync(target, "");
    symlinkSync(target, file);
    expect(() => appendUsage(entry(), env)).toThrow(`usage log ${file} is a symbolic link`);
    expect(readFileSync(target, "utf8")).toBe("");
  });

  it("writes only believable numbers (the parsers' cleaning), and cuts long strings", () => {
    appendUsage(
      entry({
        model: "m".repeat(5000),
        usage: { input: Number.NaN, output: 1e300, cached: 2.6, costUsd: 1 },
      }),
      env,
    );
    const line = readFileSync(join(usageDir(env), "2026-12.jsonl"), "utf8");
    expect(line.length).toBeLessThan(1000);
    expect(readUsage(DEC, LATER, env).entries[0]?.usage).toEqual({ cached: 3, costUsd: 1 });
  });

  it(`keeps ${KEPT_MONTHS} months: older files go when a new month's file starts`, () => {
    mkdirSync(usageDir(env), { recursive: true });
    for (const month of ["2025-10", "2025-11", "2025-12", "2026-11"])
      writeFileSync(join(usageDir(env), `${month}.jsonl`), "");
    appendUsage(entry(), env);
    expect(readdirSync(usageDir(env)).sort()).toEqual(["2025-12.jsonl", "2026-11.jsonl", "2026-12.jsonl"]);
  });

  it("says why it cannot write, as an IO error naming the file", () => {
    writeFileSync(join(root, "scv"), "a file where SCV_HOME's folder should be");
    expect(() => appendUsage(entry(), env)).toThrow(/cannot|not a directory|ENOTDIR/i);
  });
});
