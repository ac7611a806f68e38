// What an ACP server sends and how it fails, through the built scv against the scripted fake ACP agent
// standing in for `gemini --acp` (cold turns): a server that dies mid-turn (or answers cancelled
// unasked and exits) is named with its exit code and stderr line, a message over the ACP bound ends
// it, one that never answers initialize is bounded by the time limit, garbage around its messages
// and a flood of notifications change nothing, and --events is the same schema as a process turn.

import { describe, expect, it } from "vitest";
import { acpCalls, useColdAcpLab } from "../helpers/acp.js";
import { resultOf as json } from "../helpers/acp-world.js";
import { survivors } from "../helpers/pids.js";
import { scv, type World } from "../helpers/scv.js";

let world: World;
useColdAcpLab((created) => {
  world = created;
});

describe("what an ACP server sends, and how it fails", () => {
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
