// stdout's reader going away (`scv delegate … --events | head -1`): scv stops the turn as a pipe
// writer stops on SIGPIPE — exit 141, the agent's whole group ended, the conversation kept — and a
// command that had finished its work exits as it would have. Never a stack trace.

import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { useLab } from "../helpers/lab.js";
import { survivors } from "../helpers/pids.js";
import { conversationRecord, SCV, signIn, type World } from "../helpers/scv.js";

const lab = useLab();

interface ClosedRun {
  readonly exitCode: number | null;
  readonly firstLine: string;
  readonly stderr: string;
}

/** Runs scv, reads its stdout up to the first newline (or not at all), then closes the pipe. */
function runAndCloseStdout(
  world: World,
  args: readonly string[],
  env: Record<string, string>,
  readFirst: boolean,
) {
  const child = spawn(process.execPath, [SCV, ...args], {
    cwd: world.project,
    env: { ...world.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  let firstLine = "";
  if (readFirst) {
    child.stdout.on("data", (chunk: Buffer) => {
      firstLine += chunk.toString("utf8");
      if (firstLine.includes("\n")) {
        firstLine = firstLine.slice(0, firstLine.indexOf("\n"));
        child.stdout.destroy();
      }
    });
  } else child.stdout.destroy();
  return new Promise<ClosedRun>((resolve) => {
    child.on("close", (exitCode) => resolve({ exitCode, firstLine, stderr }));
  });
}

describe("a closed stdout", () => {
  it("stops a running turn like SIGPIPE: exit 141, no survivor, the conversation kept as cancelled", async () => {
    await signIn(lab.world, "claude");
    const run = runAndCloseStdout(
      lab.world,
      ["delegate", "claude", "--events", "Say hi"],
      { FAKE_AGENT_MODE: "drip" },
      true,
    );
    const pids = await lab.pidsOf();
    const result = await run;
    expect(JSON.parse(result.firstLine)).toMatchObject({ type: "session", agent: "claude" });
    expect(result.exitCode, result.stderr).toBe(141);
    expect(result.stderr).toContain("scv: claude was stopped: scv's output was closed\n");
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(await survivors(pids)).toEqual([]);
    const handle = /"conversation":"(claude-[0-9a-z]{6})"/.exec(result.firstLine)?.[1] ?? "";
    expect(conversationRecord(lab.world, handle)).toMatchObject({ lastStatus: "cancelled" });
  });

  it("does the same for several turns at once", async () => {
    await signIn(lab.world, "claude");
    const run = runAndCloseStdout(
      lab.world,
      ["delegate", "claude", "claude", "--events", "Say hi"],
      { FAKE_AGENT_MODE: "drip" },
      true,
    );
    const result = await run;
    expect(result.exitCode, result.stderr).toBe(141);
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it("after the work is done, only the printing stops: the command's own exit code, no stack trace", async () => {
    const result = await runAndCloseStdout(lab.world, ["agents", "list"], {}, false);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
  });

  it("a reply written after its reader went (`2>&1 | head -1`): exit 141, the conversation kept", async () => {
    await signIn(lab.world, "claude");
    const run = await execa(
      "bash",
      [
        "-c",
        '"$0" "$1" delegate claude "Say hi" 2>&1 | head -1; echo "exit $PIPESTATUS"',
        process.execPath,
        SCV,
      ],
      {
        cwd: lab.world.project,
        env: { ...lab.world.env, FAKE_AGENT_MODE: "tools:30" },
        extendEnv: false,
        reject: false,
      },
    );
    const [first, exit] = run.stdout.split("\n");
    expect(first).toMatch(/^claude \d+s \$ echo step 1$/);
    expect(exit).toBe("exit 141");
    const records = readdirSync(join(lab.world.scvHome, "conversations")).filter((name) =>
      name.endsWith(".json"),
    );
    expect(records).toHaveLength(1);
    expect(readdirSync(join(lab.world.scvHome, "turns"))).toEqual([]);
  });
});

describe("a closed stderr", () => {
  it("only loses scv's messages: the turn goes on, its reply reaches stdout, its conversation is recorded", async () => {
    await signIn(lab.world, "claude");
    const child = spawn(process.execPath, [SCV, "delegate", "claude", "Say hi"], {
      cwd: lab.world.project,
      env: { ...lab.world.env, FAKE_AGENT_MODE: "tools:30" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stderr.destroy();
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    const exitCode = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(exitCode).toBe(0);
    expect(stdout).toBe("MOCK-REPLY-1\n");
    const records = readdirSync(join(lab.world.scvHome, "conversations")).filter((name) =>
      name.endsWith(".json"),
    );
    expect(records).toHaveLength(1);
    expect(conversationRecord(lab.world, records[0]?.replace(/\.json$/, "") ?? "")).toMatchObject({
      lastStatus: "completed",
    });
  });
});

describe.runIf(process.platform === "linux")("a stdout that cannot be written (/dev/full)", () => {
  it("says the reply was lost and why: exit 1, not the silent 141 of a reader that went away", async () => {
    await signIn(lab.world, "claude");
    const run = await execa(
      "sh",
      ["-c", `exec "${process.execPath}" "${SCV}" delegate claude "Say hi" > /dev/full`],
      { cwd: lab.world.project, env: lab.world.env, extendEnv: false, reject: false },
    );
    expect(run.exitCode).toBe(1);
    expect(run.stderr.split("\n").at(-1)).toBe(
      "scv: cannot write the reply to stdout (ENOSPC) — free some disk space",
    );
  });
});
