// A CLI that reports a terminal error and then hangs: amp signed out prints a login prompt on stdout
// and waits for a pasted code forever. The turn ends a moment after the error (the end-of-turn grace,
// src/turn/turn-verdict.ts), with the parser's failure, and leaves nothing running; a CLI that shows it is
// still working (a tool call, a retry), or exits, is not cut short.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { turnResultShape } from "../../src/json-shapes.js";
import type { ParsedTurn, ProcessEnd, StreamParser, TurnEvent } from "../../src/parsers/event-types.js";
import { DURATIONS } from "../../src/timing.js";
import { runTurn } from "../../src/turn/run-turn.js";
import type { TurnContext } from "../../src/turn/turn-types.js";
import { useLab } from "../helpers/lab.js";
import { survivors } from "../helpers/pids.js";
import { scv } from "../helpers/scv.js";

const lab = useLab();

const FIXTURES = join(import.meta.dirname, "..", "fixtures");
const LOGIN_PROMPT = readFileSync(join(FIXTURES, "amp", "signed-out.stdout"), "utf8");
const TOKEN = /authToken=([0-9a-f]{64})/.exec(LOGIN_PROMPT)?.[1] ?? "no token in the capture";
const SIGNED_OUT =
  "scv: amp failed to authenticate: not signed in (it started its browser login) — run: scv agents login amp";

/** scv's own message: exactly one line, no stack. */
function oneLine(stderr: string): string {
  const lines = stderr.split("\n").filter((line) => line.startsWith("scv: "));
  expect(lines, stderr).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at /);
  return lines[0] ?? "";
}

describe("amp signed out, at its login prompt", () => {
  it("exits 4 within seconds with the login hint, never the token, nothing left running", async () => {
    const started = Date.now();
    const run = await scv(lab.world, ["delegate", "amp", "hi"], { env: { FAKE_AGENT_MODE: "login-prompt" } });
    const seconds = (Date.now() - started) / 1000;
    const pids = await lab.pidsOf();
    expect(run.exitCode, run.stderr).toBe(4);
    // The grace after the error, plus scv's and the fake's start-up; the default timeout is long.
    expect(seconds).toBeLessThan(DURATIONS.endGrace / 1000 + 8);
    expect(oneLine(run.stderr)).toBe(SIGNED_OUT);
    expect(run.stdout).toBe("");
    for (const output of [run.stdout, run.stderr]) {
      expect(output).not.toContain(TOKEN);
      expect(output).not.toContain("cli-login");
    }
    expect(await survivors(pids)).toEqual([]);
  });

  it("--json: the auth failure as a result object, without the token", async () => {
    const run = await scv(lab.world, ["delegate", "amp", "--json", "hi"], {
      env: { FAKE_AGENT_MODE: "login-prompt" },
    });
    const pids = await lab.pidsOf();
    expect(run.exitCode, run.stderr).toBe(4);
    expect(turnResultShape().parse(JSON.parse(run.stdout))).toMatchObject({
      status: "failed",
      agent: "amp",
      exitCode: 4,
      error: "amp failed to authenticate: not signed in (it started its browser login)",
      hint: "run: scv agents login amp",
      badLines: 0,
    });
    expect(`${run.stdout}${run.stderr}`).not.toContain(TOKEN);
    expect(await survivors(pids)).toEqual([]);
  });

  it("--events: the stream of events does not carry the token either", async () => {
    const run = await scv(lab.world, ["delegate", "amp", "--events", "hi"], {
      env: { FAKE_AGENT_MODE: "login-prompt" },
    });
    await lab.pidsOf();
    expect(run.exitCode, run.stderr).toBe(4);
    expect(`${run.stdout}${run.stderr}`).not.toContain(TOKEN);
  });
});

/** A parser that reports a terminal auth error on the first line and counts the lines it is given;
 * `later` is what it makes of each line after it. */
function terminalOnFirstLine(later: () => TurnEvent[] = () => []) {
  const seen = { lines: 0, end: undefined as ProcessEnd | undefined };
  const parser = (): StreamParser => ({
    push(): TurnEvent[] {
      seen.lines += 1;
      return seen.lines === 1
        ? [
            { type: "error", message: "scripted", kind: "auth", terminal: true },
            { type: "turn-end", ok: false },
          ]
        : later();
    },
    skipped() {},
    finish(end): ParsedTurn {
      seen.end = end;
      return {
        status: "failed",
        reply: "",
        cumulativeUsage: false,
        failure: { kind: "auth", message: "scripted" },
        badLines: 0,
      };
    },
  });
  return { seen, parser };
}

function context(mode: string, parserFor: () => StreamParser): TurnContext {
  return {
    env: { ...lab.world.env, FAKE_AGENT_MODE: mode },
    cwd: lab.world.project,
    config: {},
    graceMs: 500,
    endGraceMs: 1_000,
    signInCheck: async () => undefined,
    parserFor,
  };
}

describe("any agent: a terminal error, then", () => {
  it("silence: the turn is ended after a short grace, and its result is the parser's failure", async () => {
    const { seen, parser } = terminalOnFirstLine();
    const started = Date.now();
    // claude's init line, then forever.
    const pending = runTurn({ agent: "claude", prompt: "hi" }, context("start-hang", parser));
    const pids = await lab.pidsOf();
    const result = await pending;
    // Its grace (1 s), not the turn's own limit (none here): on a loaded machine, give it time.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(result).toMatchObject({ status: "failed", exitCode: 4 });
    expect(seen.end?.termination).toBe("cancelled");
    expect(await survivors(pids)).toEqual([]);
  });

  it("lines that are no event of a turn going on: ended after the grace all the same", async () => {
    const { seen, parser } = terminalOnFirstLine();
    // Claude's init, then a Bash call every 50 ms which this parser reads as nothing.
    const pending = runTurn({ agent: "claude", prompt: "hi", timeoutMs: 20_000 }, context("drip", parser));
    const pids = await lab.pidsOf();
    const result = await pending;
    expect(seen.end?.termination).toBe("cancelled");
    expect(result).toMatchObject({ status: "failed", exitCode: 4 });
    expect(await survivors(pids)).toEqual([]);
  });

  it("a tool call after it: not cut short while the CLI goes on working", async () => {
    let call = 0;
    const { seen, parser } = terminalOnFirstLine(() => {
      call += 1;
      return [{ type: "tool-start", id: `t${call}`, name: "Bash", summary: "$ echo" }];
    });
    // A Bash call every 50 ms, forever: only the time limit ends it.
    const pending = runTurn({ agent: "claude", prompt: "hi", timeoutMs: 4_000 }, context("drip", parser));
    await lab.pidsOf();
    const result = await pending;
    expect(seen.end?.termination).toBe("timeout");
    expect(seen.lines).toBeGreaterThan(40);
    expect(result).toMatchObject({ status: "failed", exitCode: 4 });
  });

  it("an exit of its own: as before, every line read and no termination", async () => {
    const { seen, parser } = terminalOnFirstLine();
    const capture = readFileSync(join(FIXTURES, "claude", "turn1.stdout"), "utf8");
    const result = await runTurn({ agent: "claude", prompt: "hi" }, context("ok", parser));
    expect(seen.end).toMatchObject({ exitCode: 0, signal: null });
    expect(seen.end?.termination).toBeUndefined();
    expect(seen.lines).toBe(capture.trimEnd().split("\n").length);
    expect(result.exitCode).toBe(4);
  });
});
