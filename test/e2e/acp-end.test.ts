// ACP turns through the built scv, continued (acp.test.ts has the launch, sessions and policy): a
// permission request on a terminal, past the progress line's redraws; scv ps and kill; how a turn
// ends (exit codes 4, 5, 124, 130, a dead or garbling server, the message bound) and --events. Cold
// turns only, against the scripted fake ACP agent standing in for `gemini --acp`.

import { execa } from "execa";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acpCalls, acpMethods, useColdAcpLab } from "../helpers/acp.js";
import { resultOf as json } from "../helpers/acp-world.js";
import { survivors } from "../helpers/pids.js";
import { hasPython, PTY_RUN } from "../helpers/pty.js";
import { SCV, scv, startScv, type World } from "../helpers/scv.js";
import { worldTiming } from "../helpers/timing.js";
import { type Terminal, tmuxTerminal } from "../helpers/tmux.js";

let world: World;
useColdAcpLab((created) => {
  world = created;
});

describe("a permission request on a terminal", () => {
  async function onTerminal(...steps: string[]) {
    const run = await execa(
      "python3",
      [
        PTY_RUN,
        "allow [o]nce",
        ...steps,
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
      {
        cwd: world.project,
        env: world.env,
        extendEnv: false,
      },
    );
    return JSON.parse(run.stdout) as { output: string; code: number };
  }

  it.skipIf(!hasPython)(
    "asks one line naming the agent, the tool and the command; o allows it once",
    async () => {
      const run = await onTerminal("0.3:o");
      expect(run.code, run.output).toBe(0);
      expect(run.output).toContain(
        "scv: gemini asks to run execute: $ touch probe.txt — allow [o]nce, [a]lways, [r]eject? \r\nscv: allowed once\r\n",
      );
      expect(run.output).toContain("ALLOWED proceed_once");
    },
  );

  it.skipIf(!hasPython)(
    "a key typed before the question showed does not answer it",
    async () => {
      // Typed the moment the question appears, before anyone could read it; then r.
      const run = await onTerminal("0:o", "0.5:r");
      expect(run.code, run.output).toBe(0);
      expect(run.output).toContain("[r]eject? \r\nscv: rejected\r\n");
      expect(run.output).toContain("REJECTED");
    },
    15_000,
  );
});

describe("a permission request on a terminal with the progress line (tmux)", () => {
  let terminal: Terminal;
  beforeEach(() => {
    terminal = tmuxTerminal(world.root);
  });
  afterEach(() => terminal.dispose());

  it("the question stays on screen while it waits, past the progress line's redraws; the answer is a line of its own", async () => {
    terminal.start(
      [process.execPath, SCV, "delegate", "gemini", "--transport", "acp", "use a tool"],
      world.env,
      world.project,
    );
    const question = "scv: gemini asks to run execute: $ touch probe.txt — allow [o]nce, [a]lways, [r]eject?";
    await terminal.waitFor(/allow \[o\]nce/);
    // The live line redraws every tick (a second, scaled in tests); three of them pass while nobody
    // answers.
    await new Promise((resolve) => setTimeout(resolve, 3 * worldTiming("progressTick")));
    const waiting = terminal.screen();
    expect(waiting).toContain(question);
    expect(waiting).not.toMatch(/gemini \d+s/);
    terminal.keys("o");
    const after = await terminal.waitFor(/EXIT=\d+/);
    const lines = after.split("\n").map((line) => line.trimEnd());
    expect(lines).toContain(question);
    expect(lines).toContain("scv: allowed once");
    expect(lines).toContain("ALLOWED proceed_once");
    expect(after).toContain("EXIT=0");
  }, 30_000);
});

describe("scv ps and scv kill", () => {
  it("list a running ACP turn, and kill sends session/cancel and ends it", async () => {
    const child = startScv(world, ["delegate", "gemini", "--transport", "acp", "hang on"]);
    for (let waited = 0; waited < 20_000 && !methods_().includes("session/prompt"); waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const ps = await scv(world, ["ps", "--json"]);
    const rows = JSON.parse(ps.stdout) as { handle: string; agent: string }[];
    expect(rows).toHaveLength(1);
    expect(rows[0]?.agent).toBe("gemini");
    const killed = await scv(world, ["kill", rows[0]?.handle ?? ""]);
    expect(killed.exitCode, killed.stderr).toBe(0);
    const done = await child;
    expect(done.exitCode).toBe(143);
    expect(acpMethods(world)).toContain("session/cancel");
    expect(await survivors(acpCalls(world).map((call) => call.pid))).toEqual([]);
  });
});

describe("how an ACP turn ends", () => {
  it("a 401 is exit 4 with the sign-in hint", async () => {
    const run = await scv(world, ["delegate", "gemini", "--transport", "acp", "answer 401"]);
    expect(run.exitCode).toBe(4);
    expect(run.stderr).toContain("scv: gemini failed to authenticate");
    expect(run.stderr).toContain("run: scv agents login gemini");
  });

  it("a retried refused key settles the turn at its first retry: session/cancel, exit 4, no waiting", async () => {
    const startedAt = Date.now();
    const run = await scv(world, [
      "delegate",
      "gemini",
      "--transport",
      "acp",
      "--timeout",
      "60s",
      "--json",
      "keep key-retry",
    ]);
    expect(run.exitCode, run.stderr).toBe(4);
    expect(Date.now() - startedAt).toBeLessThan(20_000);
    const result = json(run.stdout);
    expect(result.status).toBe("failed");
    expect(result.error).toBe(
      "gemini failed to authenticate: Reconnecting... 1/5; ended at its first retry, as retrying cannot fix a refused credential",
    );
    expect(acpMethods(world)).toContain("session/cancel");
    expect(await survivors(acpCalls(world).map((call) => call.pid))).toEqual([]);
  });

  it("--events shows the early verdict as the turn's terminal error", async () => {
    const run = await scv(world, ["delegate", "gemini", "--transport", "acp", "--events", "keep key-retry"]);
    expect(run.exitCode, run.stderr).toBe(4);
    const events = run.stdout
      .trim()
      .split("\n")
      .map(
        (line) => JSON.parse(line) as { type: string; kind?: string; terminal?: boolean; status?: number },
      );
    expect(events).toContainEqual(expect.objectContaining({ type: "retry", status: 401, kind: "auth" }));
    expect(events).toContainEqual(expect.objectContaining({ type: "error", kind: "auth", terminal: true }));
  });

  it("a 429 is exit 5", async () => {
    const run = await scv(world, ["delegate", "gemini", "--transport", "acp", "answer 429"]);
    expect(run.exitCode, run.stderr).toBe(5);
    expect(run.stderr).toContain("scv: gemini is rate limited");
  });

  it("the time limit cancels the prompt (session/cancel) and exits 124", async () => {
    const run = await scv(world, ["delegate", "gemini", "--transport", "acp", "--timeout", "1s", "hang on"]);
    expect(run.exitCode).toBe(124);
    expect(run.stderr).toContain("scv: gemini timed out after 1s");
    expect(acpMethods(world)).toContain("session/cancel");
    expect(await survivors(acpCalls(world).map((call) => call.pid))).toEqual([]);
  });

  it("--idle-timeout cancels a prompt whose session goes quiet, exit 124", async () => {
    const run = await scv(world, [
      "delegate",
      "gemini",
      "--transport",
      "acp",
      "--idle-timeout",
      "1s",
      "hang on",
    ]);
    expect(run.exitCode).toBe(124);
    expect(run.stderr).toContain("scv: gemini printed nothing for 1s");
    expect(acpMethods(world)).toContain("session/cancel");
  });

  it("Ctrl-C cancels the prompt and exits 130", async () => {
    const child = startScv(world, ["delegate", "gemini", "--transport", "acp", "hang on"]);
    for (let waited = 0; waited < 20_000 && !methods_().includes("session/prompt"); waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    child.kill("SIGINT");
    const done = await child;
    expect(done.exitCode).toBe(130);
    expect(acpMethods(world)).toContain("session/cancel");
    expect(await survivors(acpCalls(world).map((call) => call.pid))).toEqual([]);
  });

  it("an agent that dies mid-turn: its server exited, with its code and stderr line", async () => {
    const run = await scv(world, ["delegate", "gemini", "--transport", "acp", "die now"]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain(
      "scv: gemini failed: its ACP server exited before answering the prompt: exit code 3 (stderr: fatal: model crashed) — ",
    );
  });

  it("a server that answers cancelled unasked and exits (its worker died): the exit is the cause, not a cancel", async () => {
    const run = await scv(world, ["delegate", "gemini", "--transport", "acp", "cancel-die"]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain(
      "scv: gemini failed: its ACP server exited before answering the prompt: exit code 1 (stderr: worker exited unexpectedly) — ",
    );
    expect(run.stderr).not.toContain("cancelled");
  });

  it("a message over the ACP bound (32 MiB): scv says it ended the server, and why", async () => {
    const run = await scv(world, ["delegate", "gemini", "--transport", "acp", "huge:33"]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain(
      "scv: gemini failed: scv ended its ACP server: it sent a message longer than the ACP bound of 32 MiB — ",
    );
    expect(run.stderr).not.toContain("SIGTERM");
    expect(await survivors(acpCalls(world).map((call) => call.pid))).toEqual([]);
  });

  it("one that never answers initialize is bounded by the turn's time limit", async () => {
    const run = await scv(world, ["delegate", "gemini", "--transport", "acp", "--timeout", "1s", "hi"], {
      env: { FAKE_ACP_MODE: "no-init" },
    });
    expect(run.exitCode).toBe(124);
    expect(await survivors(acpCalls(world).map((call) => call.pid))).toEqual([]);
  });

  it("garbage on the agent's stdout around its messages changes nothing", async () => {
    const run = await scv(world, ["delegate", "gemini", "--transport", "acp", "hi"], {
      env: { FAKE_ACP_MODE: "garbage" },
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toBe("MOCK-REPLY\n");
  });

  it("a flood of session/update notifications: every one is read, the reply whole", async () => {
    const run = await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", "hi"], {
      env: { FAKE_ACP_MODE: "flood:20000" },
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const result = json(run.stdout);
    expect(result.reply).toBe("x".repeat(20000));
    expect(result.usage).toMatchObject({ output: 20000 });
  });

  it("--events prints the same normalized events as a process turn", async () => {
    const run = await scv(world, ["delegate", "gemini", "--transport", "acp", "--events", "hi"]);
    expect(run.exitCode, run.stderr).toBe(0);
    const events = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string });
    expect(events.map((event) => event.type)).toContain("text");
    expect(events.at(-1)?.type).toBe("result");
  });
});

function methods_(): string[] {
  try {
    return acpMethods(world);
  } catch {
    return [];
  }
}
