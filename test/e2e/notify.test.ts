// Notifications through the built scv (`[notify]` in the config): a command receives done, failed,
// needs-approval and cooling events as one JSON object on stdin, with the right fields and no secret
// (canaries in the environment and the prompt); a failing or hanging command changes nothing of the
// turn and leaves no process; the desktop's notifier is used where it is found, silently not where it
// is not; a long turn on a terminal rings the bell.

import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { execa } from "execa";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { installAcpGemini } from "../helpers/acp-world.js";
import { canaryVariables } from "../helpers/canaries.js";
import { useLab } from "../helpers/lab.js";
import { isAlive } from "../helpers/pids.js";
import { hasPython, PTY_RUN } from "../helpers/pty.js";
import { SCV, scv, signIn, type World } from "../helpers/scv.js";

const PROMPT_CANARY = "prompt-canary-7f3a";
const JOB = /^[a-z-]+-[0-9a-z]{6}\.[0-9a-z]{8}$/;

let world: World;
const clients: Client[] = [];
const lab = useLab((created) => {
  world = created;
});
beforeEach(() => {
  Object.assign(world.env, canaryVariables());
  writeFileSync(
    join(world.bin, "notifier"),
    `#!${process.execPath}
const { appendFileSync, writeFileSync } = require("node:fs");
const { spawn } = require("node:child_process");
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  appendFileSync(process.argv[2], JSON.stringify({ stdin: input, env: process.env }) + "\\n");
  if (process.argv[3] === "fail") {
    process.stderr.write("the notifier broke\\n");
    process.exit(3);
  }
  if (process.argv[3] === "hang") {
    const child = spawn("sleep", ["600"], { stdio: "ignore" });
    writeFileSync(process.argv[2] + ".pids", JSON.stringify([process.pid, child.pid]));
    setInterval(() => {}, 1000);
  }
});
`,
  );
  chmodSync(join(world.bin, "notifier"), 0o755);
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => {});
});

const out = () => join(world.root, "notified.jsonl");

function config(text: string): void {
  writeFileSync(join(world.root, "config.toml"), text);
  world.env.SCV_CONFIG = join(world.root, "config.toml");
}

/** `[notify]` running the notifier (`mode`: fail, hang), and `extra` lines. */
function notifyConfig(extra = "", mode?: string): void {
  const command = [join(world.bin, "notifier"), out(), ...(mode === undefined ? [] : [mode])];
  config(`[notify]\ncommand = ${JSON.stringify(command)}\n${extra}`);
}

interface Notified {
  readonly event: Record<string, unknown>;
  readonly raw: string;
  readonly env: Record<string, string>;
}

function notified(): Notified[] {
  if (!existsSync(out())) return [];
  // Whole lines only: a notifier may be appending one as this reads.
  const text = readFileSync(out(), "utf8");
  return text
    .slice(0, text.lastIndexOf("\n") + 1)
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const { stdin, env } = JSON.parse(line) as { stdin: string; env: Record<string, string> };
      return { event: JSON.parse(stdin) as Record<string, unknown>, raw: stdin, env };
    });
}

async function notifiedOf(kind: string, withinMs = 20_000): Promise<Notified> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const found = notified().find((each) => each.event.event === kind);
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`no ${kind} event; got ${JSON.stringify(notified())}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Neither the stdin nor the environment of any notification holds a secret or the prompt. */
function expectNoSecret(each: Notified): void {
  const secrets = [...Object.values(canaryVariables()), PROMPT_CANARY];
  for (const secret of secrets) {
    expect(each.raw).not.toContain(secret);
    expect(Object.values(each.env).join("\n")).not.toContain(secret);
  }
}

describe("[notify] command", () => {
  it("a turn in the foreground: done, with its job, conversation, agent, account, exit, duration and summary", async () => {
    notifyConfig();
    await signIn(world, "claude");
    const run = await scv(world, ["delegate", "claude", `Fix it ${PROMPT_CANARY}`]);
    expect(run.exitCode, run.stderr).toBe(0);
    const [done, ...more] = notified();
    expect(more).toEqual([]);
    expect(done?.event).toEqual({
      event: "done",
      job: expect.stringMatching(JOB),
      conversation: expect.stringMatching(/^claude-[0-9a-z]{6}$/),
      agent: "claude",
      account: "default",
      exit: 0,
      duration: expect.any(Number),
      summary: expect.stringMatching(/^claude done in \d+s · 12\.2k in \/ 6 out tokens · \$0\.0246$/),
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(String(done?.event.job).startsWith(`${done?.event.conversation}.`)).toBe(true);
    expectNoSecret(done as Notified);
  });

  it("a background job that fails: failed from the detached scv, after its result is saved", async () => {
    notifyConfig();
    await signIn(world, "claude");
    const started = await scv(world, ["delegate", "--background", "claude", `Fix it ${PROMPT_CANARY}`], {
      env: { FAKE_AGENT_MODE: "exit:1" },
    });
    const job = started.stdout.trim();
    const failed = await notifiedOf("failed");
    expect(failed.event).toMatchObject({ event: "failed", job, agent: "claude", exit: 1 });
    expect(failed.event.summary).toMatch(/^claude failed after \d+s: /);
    expectNoSecret(failed);
    // The result was there for whoever the notification told.
    const waited = await scv(world, ["wait", job]);
    expect(waited.exitCode).toBe(1);
  });

  it("include_prompt puts the prompt in; on picks the events", async () => {
    notifyConfig('include_prompt = true\non = ["failed"]');
    await signIn(world, "claude");
    await scv(world, ["delegate", "claude", "Say hi"]);
    expect(notified()).toEqual([]);
    await scv(world, ["delegate", "claude", "Say hi"], { env: { FAKE_AGENT_MODE: "exit:1" } });
    expect(notified().map((each) => [each.event.event, each.event.prompt])).toEqual([["failed", "Say hi"]]);
  });

  it("an agent's own [agents.<name>.notify] goes over [notify] for its turns", async () => {
    notifyConfig('\n[agents.claude.notify]\non = ["failed"]');
    await signIn(world, "claude");
    await signIn(world, "codex");
    await scv(world, ["delegate", "claude", "Say hi"]);
    await scv(world, ["delegate", "codex", "Say hi"]);
    expect(notified().map((each) => [each.event.event, each.event.agent])).toEqual([["done", "codex"]]);
  });

  it("cooling: every account limited, the job waits for the reset", async () => {
    notifyConfig();
    for (const account of ["a", "b"]) {
      await signIn(world, "gemini", account);
      const home = join(world.scvHome, "agents", `gemini@${account}`);
      mkdirSync(home, { recursive: true });
      writeFileSync(join(home, ".fake-mode-once"), "fixture:rate-limit");
    }
    const started = await scv(world, [
      "delegate",
      "--background",
      "--wait-for-reset",
      "20s",
      "gemini@a,b",
      "Hi",
    ]);
    const job = started.stdout.trim();
    const cooling = await notifiedOf("cooling");
    expect(cooling.event).toMatchObject({
      event: "cooling",
      job,
      agent: "gemini",
      account: expect.stringMatching(/^[ab]$/),
      exit: null,
      duration: null,
      until: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
    });
    expect(cooling.event.summary).toMatch(/^every account of gemini is rate limited until /);
    expect((await notifiedOf("done")).event).toMatchObject({ job, exit: 0, account: expect.any(String) });
  });

  it("a failing command is one note; the turn's exit code and reply stay", async () => {
    notifyConfig("", "fail");
    await signIn(world, "claude");
    const run = await scv(world, ["delegate", "claude", "Say hi"]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe("MOCK-REPLY-1\n");
    expect(run.stderr).toContain(
      `scv: note: notify command ${join(world.bin, "notifier")} failed (exit 3): the notifier broke — the turn is unchanged\n`,
    );
    const failed = await scv(world, ["delegate", "claude", "Say hi"], { env: { FAKE_AGENT_MODE: "exit:4" } });
    expect(failed.exitCode).toBe(1);
  });

  it("a hanging command is stopped at its timeout with what it started; the turn is unchanged", async () => {
    notifyConfig('timeout = "1s"', "hang");
    await signIn(world, "claude");
    const run = await scv(world, ["delegate", "claude", "Say hi"]);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toContain(
      `scv: note: notify command ${join(world.bin, "notifier")} ran past 1s and was stopped — the turn is unchanged\n`,
    );
    const pids = JSON.parse(readFileSync(`${out()}.pids`, "utf8")) as number[];
    lab.track(pids);
    expect(pids.filter(isAlive)).toEqual([]);
  });

  it("a notify command that is not there is a note", async () => {
    config('[notify]\ncommand = ["/nonexistent/notifier"]\n');
    await signIn(world, "claude");
    const run = await scv(world, ["delegate", "claude", "Say hi"]);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toMatch(
      /scv: note: notify command \/nonexistent\/notifier could not start \(.*\) — the turn is unchanged\n/,
    );
  });

  it("refuses a [notify] it cannot use, naming the key", async () => {
    config("[notify]\ncommand = []\n");
    const run = await scv(world, ["delegate", "claude", "Say hi"]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/notify\.command: expected a program and its arguments/);
    config('[notify]\non = ["finished"]\n');
    expect((await scv(world, ["delegate", "claude", "Say hi"])).stderr).toMatch(/notify\.on\.0: /);
  });
});

describe("[notify] desktop and bell", () => {
  it("desktop = true: notify-send with a title and the summary where it is found; nothing where it is not", async () => {
    config("[notify]\ndesktop = true\n");
    await signIn(world, "claude");
    const quiet = await scv(world, ["delegate", "claude", "Say hi"]);
    expect([quiet.exitCode, quiet.stderr]).toEqual([0, expect.not.stringContaining("note")]);
    writeFileSync(
      join(world.bin, "notify-send"),
      `#!/bin/sh\nprintf '%s\\n' "$@" > ${JSON.stringify(join(world.root, "desktop.txt"))}\n`,
    );
    chmodSync(join(world.bin, "notify-send"), 0o755);
    await scv(world, ["delegate", "claude", "Say hi"]);
    const args = readFileSync(join(world.root, "desktop.txt"), "utf8").trimEnd().split("\n");
    expect(args.slice(0, 3)).toEqual(["--app-name=scv", "--", "scv: claude done"]);
    expect(args[3]).toMatch(/^claude done in \d+s · /);
  });

  it.skipIf(!hasPython)(
    "bell_after: a turn on a terminal that took that long rings the bell; a shorter one does not",
    async () => {
      await signIn(world, "claude");
      const onTerminal = async () => {
        const run = await execa(
          "python3",
          [PTY_RUN, "conversation:", "--", process.execPath, SCV, "delegate", "claude", "Say hi"],
          {
            cwd: world.project,
            env: world.env,
            extendEnv: false,
          },
        );
        return JSON.parse(run.stdout) as { output: string; code: number };
      };
      config('[notify]\nbell_after = "1ms"\n');
      const rang = await onTerminal();
      expect(rang.code).toBe(0);
      expect(rang.output).toContain("\x07");
      config('[notify]\nbell_after = "1h"\n');
      expect((await onTerminal()).output).not.toContain("\x07");
    },
  );
});

describe("needs-approval", () => {
  beforeEach(() => installAcpGemini(world));

  it.skipIf(!hasPython)("a question on the terminal: needs-approval while it waits there", async () => {
    notifyConfig('\n[defaults]\nsession_idle = "0"\n');
    const run = await execa(
      "python3",
      [
        PTY_RUN,
        "allow [o]nce",
        "0.3:o",
        "--",
        process.execPath,
        SCV,
        "delegate",
        "gemini",
        "--transport",
        "acp",
        "-q",
        "use a tool",
      ],
      { cwd: world.project, env: world.env, extendEnv: false },
    );
    expect((JSON.parse(run.stdout) as { code: number }).code).toBe(0);
    expect(notified().map((each) => each.event.event)).toEqual(["needs-approval", "done"]);
    expect(notified()[0]?.event).toMatchObject({
      job: expect.stringMatching(JOB),
      agent: "gemini",
      summary: "gemini asks to run execute: $ touch probe.txt",
    });
  });

  it("an scv mcp job's question: needs-approval from the job's own scv, then done once approved", async () => {
    notifyConfig('\n[defaults]\nsession_idle = "0"\n\n[agents.gemini]\ntransport = "acp"\n');
    const client = new Client({ name: "scv-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [SCV, "mcp"],
        cwd: world.project,
        env: world.env,
        stderr: "pipe",
      }),
    );
    clients.push(client);
    const call = async (name: string, args: Record<string, unknown>) =>
      ((await client.callTool({ name, arguments: args }, { timeout: 90_000 })).structuredContent ??
        {}) as Record<string, unknown>;
    const started = await call("delegate", {
      agent: "gemini",
      prompt: `use a tool ${PROMPT_CANARY}`,
      wait_seconds: 30,
    });
    expect(started.status).toBe("needs-approval");
    const job = started.job as string;
    const asked = await notifiedOf("needs-approval");
    expect(asked.event).toEqual({
      event: "needs-approval",
      job,
      conversation: job.replace(/\.[0-9a-z]{8}$/, ""),
      agent: "gemini",
      account: "default",
      exit: null,
      duration: null,
      summary: "gemini asks to run execute: $ touch probe.txt",
      time: expect.any(String),
    });
    expectNoSecret(asked);
    await call("approve", { job, approval: (started.approval as { id: string }).id, answer: "once" });
    expect((await notifiedOf("done")).event).toMatchObject({ job, agent: "gemini", exit: 0 });
  });
});
