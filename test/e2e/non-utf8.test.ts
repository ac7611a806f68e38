// Bytes an agent wrote that are not UTF-8 (`café` in Latin-1: 63 61 66 e9), through the built scv,
// per output form: into a pipe the reply carries them byte for byte, from a JSON stream (claude) and
// from plain text (grok) alike; in --json and --events they are U+FFFD, counted in `replacedChars`
// and said in a note; on a terminal they show as U+FFFD with a note on stderr.

import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { eventLineSchema } from "../../src/events.js";
import { turnResultShape } from "../../src/json-shapes.js";
import { useLab } from "../helpers/lab.js";
import { hasPython, PTY_RUN } from "../helpers/pty.js";
import { SCV, scv, signIn } from "../helpers/scv.js";

const lab = useLab();
const LATIN1 = { FAKE_AGENT_MODE: "reply-latin1:café ok" };
const NOTE_START = "the reply has 1 byte that is not UTF-8: ";

/** scv's stdout as bytes. */
async function rawStdout(args: readonly string[]): Promise<{ stdout: Buffer; stderr: string; code: number }> {
  const run = await execa(process.execPath, [SCV, ...args], {
    cwd: lab.world.project,
    env: { ...lab.world.env, ...LATIN1 },
    extendEnv: false,
    reject: false,
    stdin: "ignore",
    encoding: "buffer",
    stripFinalNewline: false,
  });
  return {
    stdout: Buffer.from(run.stdout),
    stderr: Buffer.from(run.stderr).toString("utf8"),
    code: run.exitCode ?? -1,
  };
}

describe("a reply with bytes that are not UTF-8", () => {
  it("goes into a pipe byte for byte, from a JSON stream and from plain text", async () => {
    await signIn(lab.world, "claude");
    const claude = await rawStdout(["delegate", "claude", "Say hi"]);
    expect(claude.code, claude.stderr).toBe(0);
    expect(claude.stdout).toEqual(Buffer.from("café ok\n", "latin1"));
    expect(claude.stderr).not.toContain("note:");

    await signIn(lab.world, "grok");
    const grok = await rawStdout(["delegate", "grok", "--transport", "process", "Say hi"]);
    expect(grok.code, grok.stderr).toBe(0);
    expect(grok.stdout).toEqual(Buffer.from("café ok\n", "latin1"));
  });

  it("--json: U+FFFD in the reply, counted in replacedChars and said in a note; no bad line", async () => {
    await signIn(lab.world, "claude");
    const run = await scv(lab.world, ["delegate", "claude", "--json", "Say hi"], { env: LATIN1 });
    expect(run.exitCode, run.stderr).toBe(0);
    const result = turnResultShape().parse(JSON.parse(run.stdout));
    expect(result.reply).toBe("caf\ufffd ok");
    expect(result.replacedChars).toBe(1);
    expect(result.badLines).toBe(0);
    expect(result.notes).toEqual([
      `${NOTE_START}each is U+FFFD in this JSON; printed without --json into a pipe or a file, the reply carries them as the agent wrote them`,
    ]);
    // Valid UTF-8 JSON, with nothing a strict reader refuses.
    expect(run.stdout).not.toMatch(/\\ud[89a-f]/i);
  });

  it("--events: the text events and the result line carry U+FFFD, the result counts it", async () => {
    await signIn(lab.world, "claude");
    const run = await scv(lab.world, ["delegate", "claude", "--events", "Say hi"], { env: LATIN1 });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).not.toMatch(/\\ud[89a-f]/i);
    const lines = run.stdout
      .trim()
      .split("\n")
      .map((line) => eventLineSchema().parse(JSON.parse(line)));
    const last = lines.at(-1);
    expect(last?.type === "result" ? [last.result.reply, last.result.replacedChars] : undefined).toEqual([
      "caf\ufffd ok",
      1,
    ]);
  });

  it("a background turn's reply, read with scv wait into a pipe, is the same bytes; several at once in --json are U+FFFD", async () => {
    await signIn(lab.world, "claude");
    await signIn(lab.world, "codex");
    const started = await scv(lab.world, ["delegate", "--background", "claude", "Say hi"], { env: LATIN1 });
    expect(started.exitCode, started.stderr).toBe(0);
    const waited = await rawStdout(["wait", started.stdout.trim()]);
    expect(waited.code, waited.stderr).toBe(0);
    expect(waited.stdout).toEqual(Buffer.from("café ok\n", "latin1"));

    const both = await scv(lab.world, ["delegate", "--json", "claude", "codex", "Say hi"], { env: LATIN1 });
    expect(both.exitCode, both.stderr).toBe(0);
    const results = (JSON.parse(both.stdout) as unknown[]).map((each) => turnResultShape().parse(each));
    expect(results.map((each) => [each.reply, each.replacedChars])).toEqual([
      ["caf\ufffd ok", 1],
      ["caf\ufffd ok", 1],
    ]);
  });

  /** `scv delegate claude … Say hi` with stdin, stdout and stderr a terminal: what it showed. */
  async function onTerminal(...options: string[]): Promise<{ output: string; code: number }> {
    const run = await execa(
      "python3",
      [PTY_RUN, "never-typed", "--", process.execPath, SCV, "delegate", "claude", ...options, "Say hi"],
      { cwd: lab.world.project, env: { ...lab.world.env, ...LATIN1 }, extendEnv: false },
    );
    return JSON.parse(run.stdout) as { output: string; code: number };
  }

  it.skipIf(!hasPython)("on a terminal: shown as U+FFFD, and a note on stderr says so", async () => {
    await signIn(lab.world, "claude");
    const quiet = await onTerminal("-q");
    expect(quiet.code, quiet.output).toBe(0);
    expect(quiet.output).toContain("caf\ufffd ok\r\n");
    const told = await onTerminal();
    expect(told.output).toContain(`scv: note: ${NOTE_START}shown as U+FFFD here;`);
  });
});
