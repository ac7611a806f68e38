// ACP turns through the built scv, against the scripted fake ACP agent (test/fake-agents/
// acp-agent.mjs) standing in for `gemini --acp`: the launch, the stripped environment, session/new
// in the project, a cold continued turn through session/load, the policy's mode, model checks,
// permission requests without a terminal, the exit codes (4 auth, 124 timeout, 130 Ctrl-C), and
// `--events` in the same schema as a process turn. Cold turns only (session_idle = "0"); warm ones
// are acp-warm.test.ts.

import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { turnResultShape } from "../../src/json-shapes.js";
import { acpCalls, acpMethods, acpReceived, installAcpAgent, useConfig } from "../helpers/acp.js";
import { useLab } from "../helpers/lab.js";
import { killAll, survivors } from "../helpers/pids.js";
import { hasPython, PTY_RUN } from "../helpers/pty.js";
import { SCV, scv, startScv, type World } from "../helpers/scv.js";
import { worldTiming } from "../helpers/timing.js";
import { type Terminal, tmuxTerminal } from "../helpers/tmux.js";

let world: World;
useLab((created) => {
  world = created;
});
beforeEach(() => {
  installAcpAgent(world);
  // These turns are cold: no session host keeps a server for the next one (acp-warm.test.ts).
  useConfig(world, '[defaults]\nsession_idle = "0"\n');
});
afterEach(() => {
  killAll(acpCalls(world).map((call) => call.pid));
});

function json(stdout: string) {
  return turnResultShape().parse(JSON.parse(stdout));
}

describe("an ACP turn", () => {
  it("starts the row's ACP launch in the agent's home with a stripped environment, in the project", async () => {
    const run = await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", "hello"], {
      env: { GEMINI_API_KEY: "canary-gemini-key-0001" },
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const result = json(run.stdout);
    expect(result.reply).toBe("REPLY hello (turn 1, mode default)");
    expect(result.status).toBe("completed");
    expect(result.usage).toMatchObject({ input: 10, output: 5 });
    const [call] = acpCalls(world);
    expect(call?.argv).toEqual(["--acp", "--skip-trust"]);
    expect(call?.env.GEMINI_API_KEY).toBeUndefined();
    expect(call?.env.HOME).toBe(join(world.scvHome, "agents", "gemini"));
    expect(call?.env.SCV_TURN).toBeDefined();
    expect(call?.cwd).toBe(world.project);
    const [init, created] = acpReceived(world);
    expect(init).toMatchObject({ method: "initialize", params: { protocolVersion: 1 } });
    expect(created).toMatchObject({ method: "session/new", params: { cwd: world.project } });
    // Nothing of the turn is left running.
    expect(await survivors([call?.pid ?? 0])).toEqual([]);
  });

  it("a cold continued turn loads the session in a new process; the replayed history is not the reply", async () => {
    const first = json(
      (await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", "one"])).stdout,
    );
    expect(first.conversation).not.toBeNull();
    // The conversation keeps its transport: -c needs no --transport.
    const second = await scv(world, ["delegate", "-c", first.conversation ?? "", "--json", "two"]);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(json(second.stdout).reply).toBe("REPLY two (turn 2, mode default)");
    expect(acpCalls(world)).toHaveLength(2);
    const load = acpReceived(world).find((message) => message.method === "session/load");
    expect(load?.params).toMatchObject({ sessionId: first.session, cwd: world.project });
  });

  it("a continued turn whose session the agent lost says so in one line, and keeps its conversation", async () => {
    const first = json(
      (await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", "one"])).stdout,
    );
    // The agent lost the session: its session/load is refused, resource not found.
    rmSync(join(world.calls, "sessions"), { recursive: true });
    const handle = first.conversation ?? "";
    const second = await scv(world, ["delegate", "-c", handle, "--json", "two"]);
    expect(second.exitCode).toBe(2);
    const result = json(second.stdout);
    expect(result.conversation).toBe(handle);
    expect(result.error).toBe(
      `cannot continue ${handle}: Gemini CLI no longer has its session ${first.session}, and with it its one earlier turn`,
    );
    expect(result.hint).toBe('start a new conversation: scv delegate gemini "…"');
    const plain = await scv(world, ["delegate", "-c", handle, "three"]);
    expect(plain.exitCode).toBe(2);
    expect(plain.stderr).toBe(
      `scv: cannot continue ${handle}: Gemini CLI no longer has its session ${first.session}, and with it its 2 earlier turns — start a new conversation: scv delegate gemini "…"\n`,
    );
  });

  it("refuses to continue where the agent cannot load a session, in one line", async () => {
    const first = json(
      (await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", "one"])).stdout,
    );
    const second = await scv(world, ["delegate", "-c", first.conversation ?? "", "two"], {
      env: { FAKE_ACP_NO_LOAD: "1" },
    });
    expect(second.exitCode).toBe(2);
    expect(second.stderr).toBe(
      "scv: Gemini CLI's ACP server cannot load an earlier session (it offers no loadSession) — start a new conversation\n",
    );
  });

  it("runs in the background too: scv wait prints its reply", async () => {
    const started = await scv(world, ["delegate", "--background", "gemini", "--transport", "acp", "hi"]);
    expect(started.exitCode, started.stderr).toBe(0);
    const waited = await scv(world, ["wait", started.stdout.trim()]);
    expect(waited.exitCode, waited.stderr).toBe(0);
    expect(waited.stdout).toBe("REPLY hi (turn 1, mode default)\n");
  });

  it('the config\'s transport = "acp" chooses it', async () => {
    writeFileSync(
      join(world.root, "config.toml"),
      '[defaults]\nsession_idle = "0"\n[agents.gemini]\ntransport = "acp"\n',
    );
    const env = { SCV_CONFIG: join(world.root, "config.toml") };
    const run = await scv(world, ["delegate", "gemini", "hi"], { env });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toBe("REPLY hi (turn 1, mode default)\n");
  });
});

describe("policy, model and permissions", () => {
  it("--policy auto sets the full-permission mode and the session runs in it", async () => {
    const run = await scv(world, [
      "delegate",
      "gemini",
      "--transport",
      "acp",
      "--policy",
      "auto",
      "--json",
      "go",
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    const result = json(run.stdout);
    expect(result.reply).toBe("REPLY go (turn 1, mode yolo)");
    expect(result.mode).toBe("yolo");
    expect(acpReceived(world).find((message) => message.method === "session/set_mode")?.params).toMatchObject(
      {
        modeId: "yolo",
      },
    );
  });

  it("a session that reports another mode mid-turn under --policy auto is stopped (session/cancel), exit 1", async () => {
    const run = await scv(world, [
      "delegate",
      "gemini",
      "--transport",
      "acp",
      "--policy",
      "auto",
      "--json",
      "flip and hang",
    ]);
    expect(run.exitCode).toBe(1);
    const result = json(run.stdout);
    expect(result.error).toBe(
      "gemini's session reported mode 'default' under --policy auto, not 'yolo'; scv stopped it",
    );
    expect(result.mode).toBe("default");
    expect(acpMethods(world)).toContain("session/cancel");
  });

  it("under --policy default, a session its own settings start in yolo is refused before the prompt", async () => {
    const run = await scv(world, ["delegate", "gemini", "--transport", "acp", "go"], {
      env: { FAKE_ACP_START_MODE: "yolo" },
    });
    expect(run.exitCode).toBe(1);
    expect(run.stderr.split("\n")[0]).toBe(
      "scv: gemini's session runs in yolo (its own settings choose it), which --policy default forbids — remove that setting from its home, or use --policy auto",
    );
    expect(acpMethods(world)).not.toContain("session/prompt");
  });

  it("a model the session offers is set; one it does not is refused with the offered ones", async () => {
    const run = await scv(world, ["delegate", "gemini:fake-large", "--transport", "acp", "go"]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(
      acpReceived(world).find((message) => message.method === "session/set_model")?.params,
    ).toMatchObject({
      modelId: "fake-large",
    });
    const wrong = await scv(world, ["delegate", "gemini:gemini-9-ultra", "--transport", "acp", "go"]);
    expect(wrong.exitCode).toBe(2);
    // Told from what the server offered in the turn before, without starting it.
    expect(wrong.stderr).toBe(
      "scv: Gemini CLI does not offer the model gemini-9-ultra over ACP — pick one it offers: fake-small, fake-large\n" +
        "scv: note: told from what Gemini CLI's ACP server offered before, without starting it — ask for it again to have the server itself asked\n",
    );
    // Run again, the server is asked, and refuses it the same way.
    const again = await scv(world, ["delegate", "gemini:gemini-9-ultra", "--transport", "acp", "go"]);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toBe(
      "scv: Gemini CLI does not offer the model gemini-9-ultra over ACP — pick one it offers: fake-small, fake-large\n",
    );
  });

  it("an effort the session offers no option for is refused before the prompt", async () => {
    const run = await scv(world, ["delegate", "gemini", "--transport", "acp", "--effort", "high", "go"]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe("scv: Gemini CLI takes no effort over ACP — omit --effort\n");
    expect(acpMethods(world)).not.toContain("session/prompt");
  });

  it("without a terminal, a permission request is rejected and the result says so", async () => {
    const run = await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", "use a tool"]);
    expect(run.exitCode, run.stderr).toBe(0);
    const result = json(run.stdout);
    expect(result.reply).toBe("REJECTED");
    expect(result.notes).toEqual([
      "gemini asked to run execute: $ touch probe.txt; scv rejected it, as no terminal could ask you — use --policy auto to allow its tools",
    ]);
  });

  it("under --policy auto, a permission request is allowed once", async () => {
    const run = await scv(world, [
      "delegate",
      "gemini",
      "--transport",
      "acp",
      "--policy",
      "auto",
      "use a tool",
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toBe("ALLOWED proceed_once\n");
  });
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
