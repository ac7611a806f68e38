// The terminal scv runs in closes under it (its window shut, an ssh session dropped): scv stops its
// agents and exits 129, whatever the command, whether it learns of it by SIGHUP or only by EIO on
// stdout. Node 20 aborts at exit (134, a native stack) when it cannot restore a terminal's settings,
// which is what happened after the agent had been stopped. `script` gives scv a real terminal; killing
// `script` closes it.

import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useLab } from "../helpers/lab.js";
import { survivors } from "../helpers/pids.js";
import { agentCalls, SCV, scv, signIn } from "../helpers/scv.js";

const lab = useLab();
const hasScript = spawnSync("script", ["--version"]).status === 0;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The shell in the terminal: runs the command given after its arguments with the terminal as its
 * stdio, and passes the terminal's hangup on to it as a shell does to its jobs — unless `detached`:
 * then the command runs in a session of its own, learns of nothing, and finds its stdout gone (EIO).
 * Writes the command's pid, then its exit code or the signal that ended it. */
const WRAPPER = `
const { spawn } = require("node:child_process");
const { renameSync, writeFileSync } = require("node:fs");
const [out, detached, command, ...args] = process.argv.slice(2);
// Whole or not at all: the test reads these files while they are written.
const note = (path, text) => {
  writeFileSync(path + ".tmp", text);
  renameSync(path + ".tmp", path);
};
const child = spawn(command, args, { stdio: "inherit", detached: detached === "detached" });
process.on("SIGHUP", () => {
  if (detached !== "detached") child.kill("SIGHUP");
});
note(out + ".pid", String(child.pid));
child.on("exit", (code, signal) => note(out, String(code ?? signal)));
`;

const quote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

async function until<T>(what: string, probe: () => T | undefined, withinMs = 20_000): Promise<T> {
  for (const deadline = Date.now() + withinMs; Date.now() < deadline; await sleep(25)) {
    const value = probe();
    if (value !== undefined) return value;
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Whether process `pid` has a handler for SIGHUP: scv is past its start-up. */
function catchesHangup(pid: number): boolean {
  try {
    const caught = /^SigCgt:\s*([0-9a-f]+)$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return caught !== undefined && (BigInt(`0x${caught}`) & 1n) === 1n;
  } catch {
    return false;
  }
}

/** Starts `scv <args>` in a terminal, waits until it listens for SIGHUP and `ready` resolves, closes the
 * terminal, and returns how scv ended: its exit code, or the signal that killed it. */
async function closeTerminalUnder(
  args: readonly string[],
  options: { env?: Record<string, string>; detached?: boolean; ready?: () => Promise<unknown> } = {},
): Promise<string> {
  const { world } = lab;
  const wrapper = join(world.root, "terminal-wrapper.cjs");
  writeFileSync(wrapper, WRAPPER);
  const out = join(world.root, "terminal-exit");
  const command = [
    process.execPath,
    wrapper,
    out,
    options.detached ? "detached" : "same-session",
    process.execPath,
    SCV,
    ...args,
  ];
  const terminal: ChildProcess = spawn(
    "script",
    ["-q", "-e", "-c", `exec ${command.map(quote).join(" ")}`, "/dev/null"],
    {
      cwd: world.project,
      env: { ...world.env, ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  let shown = "";
  terminal.stdout?.on("data", (chunk: Buffer) => {
    shown += chunk.toString();
  });
  try {
    const pid = await until("scv to start", () =>
      existsSync(`${out}.pid`) ? Number(readFileSync(`${out}.pid`, "utf8")) : undefined,
    );
    // Or its end, which is then this test's failure, with what the terminal showed.
    await until("scv to listen for SIGHUP", () => (catchesHangup(pid) || existsSync(out) ? true : undefined));
    if (existsSync(out))
      throw new Error(`scv ended before its terminal closed (${readFileSync(out, "utf8")}): ${shown}`);
    await options.ready?.();
  } finally {
    // The terminal's master side closes with `script`: the terminal hangs up.
    terminal.kill("SIGKILL");
  }
  return until("scv to exit", () => (existsSync(out) ? readFileSync(out, "utf8") : undefined));
}

describe.skipIf(!hasScript)("the terminal closing under scv", () => {
  it.each([
    ["a foreground turn", ["gemini"]],
    ["every turn of a fan-out", ["gemini", "gemini"]],
  ])("stops %s and its agents, and exits 129", async (_, agents) => {
    let pids: number[] = [];
    const ended = await closeTerminalUnder(["delegate", ...agents, "Say hi"], {
      env: { FAKE_AGENT_MODE: "hang" },
      // Every turn's agent running (each notes its call as it starts), not only the first.
      ready: async () => {
        await lab.pidsOf();
        const calls = await until("every agent to start", () => {
          const started = agentCalls(lab.world);
          return started.length === agents.length ? started : undefined;
        });
        pids = calls.map((call) => call.pid);
        lab.track(pids);
      },
    });
    expect(ended).toBe("129");
    expect(await survivors(pids)).toEqual([]);
  });

  it("ends scv wait with 129, the background turn it waited for left running", async () => {
    const started = await scv(lab.world, ["delegate", "--background", "gemini", "Say hi"], {
      env: { FAKE_AGENT_MODE: "hang" },
    });
    const handle = /gemini-[0-9a-z]{6}/.exec(started.stdout)?.[0] ?? "";
    const pids = await lab.pidsOf();
    try {
      expect(await closeTerminalUnder(["wait", handle])).toBe("129");
      expect(await survivors(pids)).toEqual(pids);
    } finally {
      await scv(lab.world, ["kill", handle]);
    }
  });

  it("stops a turn whose stdout fails with EIO, without a SIGHUP, and exits 129", async () => {
    await signIn(lab.world, "claude");
    let pids: number[] = [];
    const ended = await closeTerminalUnder(["delegate", "--events", "claude", "Say hi"], {
      env: { FAKE_AGENT_MODE: "drip" },
      detached: true,
      ready: async () => {
        pids = await lab.pidsOf();
      },
    });
    expect(ended).toBe("129");
    expect(await survivors(pids)).toEqual([]);
  });
});
