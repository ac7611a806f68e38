// Interrupts and busy conversations through the built scv, with fake agents that start a grandchild
// or ignore SIGTERM: no process of the agent survives. (Time limits: timeouts.test.ts.)

import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useLab } from "../helpers/lab.js";
import { survivors } from "../helpers/pids.js";
import { conversationRecord, scv, signIn, startScv } from "../helpers/scv.js";

const lab = useLab();

/** Starts `scv <args>` with the fake agent in `mode`, waits for the agent's pids, sends `signal` to
 * scv and waits for it to exit. */
async function signalMidTurn(args: readonly string[], mode: string, signal: NodeJS.Signals) {
  const child = startScv(lab.world, args, { env: { FAKE_AGENT_MODE: mode } });
  const pids = await lab.pidsOf();
  child.kill(signal);
  return { result: await child, pids };
}

/** A claude conversation with one completed turn; its handle. */
async function conversation(prompt = "Say hi"): Promise<string> {
  await signIn(lab.world, "claude");
  const first = await scv(lab.world, ["delegate", "claude", prompt]);
  return /conversation: (claude-[0-9a-z]{6})/.exec(first.stderr)?.[1] ?? "";
}

// Gemini: its status cannot be checked before the turn, so no sign-in is needed to run its fake.
describe("interrupts", () => {
  it("SIGINT to scv ends the agent's whole group and exits 130", async () => {
    const { result, pids } = await signalMidTurn(["delegate", "gemini", "Say hi"], "grandchild", "SIGINT");
    expect(result.exitCode).toBe(130);
    expect(String(result.stderr)).toContain("scv: gemini was interrupted");
    expect(await survivors(pids)).toEqual([]);
  });

  it("SIGINT exits 130 also when the agent answers scv's SIGTERM with a success, as Copilot CLI does", async () => {
    const { result } = await signalMidTurn(["delegate", "copilot", "Say hi"], "answer-term", "SIGINT");
    expect(result.exitCode).toBe(130);
    expect(String(result.stderr)).toContain("scv: copilot was interrupted");
  });

  it("an interrupted first turn is kept when the CLI's files show its session began (Copilot: only its last line names it)", async () => {
    const { result } = await signalMidTurn(["delegate", "copilot", "--json", "Say hi"], "hang", "SIGINT");
    expect(result.exitCode).toBe(130);
    const printed = JSON.parse(String(result.stdout)) as { conversation: string | null; session: string };
    expect(printed.conversation).toMatch(/^copilot-[0-9a-z]{6}$/);
    expect(conversationRecord(lab.world, printed.conversation ?? "")).toMatchObject({
      sessionId: printed.session,
      lastStatus: "cancelled",
    });
  });

  it("SIGTERM to scv exits 143, killing an agent that ignores SIGTERM after the grace period", async () => {
    const { result, pids } = await signalMidTurn(["delegate", "gemini", "Say hi"], "ignore-term", "SIGTERM");
    expect(result.exitCode).toBe(143);
    expect(await survivors(pids)).toEqual([]);
  });

  it("SIGHUP (its terminal closed) ends the agent's whole group and exits 129, the conversation kept", async () => {
    const handle = await conversation();
    const { result, pids } = await signalMidTurn(["delegate", "-c", handle, "Again"], "grandchild", "SIGHUP");
    expect(result.exitCode).toBe(129);
    expect(String(result.stderr)).toContain("scv: claude was stopped: scv's terminal closed (SIGHUP)");
    expect(await survivors(pids)).toEqual([]);
    expect(conversationRecord(lab.world, handle)).toMatchObject({ turns: 2, lastStatus: "cancelled" });
  });

  it("a second SIGINT kills the agent at once, without waiting for the grace period", async () => {
    const child = startScv(lab.world, ["delegate", "gemini", "Say hi"], {
      env: { FAKE_AGENT_MODE: "ignore-term" },
    });
    const pids = await lab.pidsOf();
    child.kill("SIGINT");
    // Two signals sent back to back may arrive as one: the second goes once the agent got the first.
    while (!existsSync(join(lab.world.calls, "got-sigterm")))
      await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill("SIGINT");
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(String(result.stderr)).toContain("scv: SIGINT again — killing the agent now");
    expect(await survivors(pids)).toEqual([]);
  });

  it("an interrupted continued turn still updates its conversation", async () => {
    const handle = await conversation();
    const { result } = await signalMidTurn(["delegate", "-c", handle, "Again"], "hang", "SIGINT");
    expect(result.exitCode).toBe(130);
    expect(conversationRecord(lab.world, handle)).toMatchObject({ turns: 2, lastStatus: "cancelled" });
  });
});

describe("conversation lock", () => {
  it("a second turn on a busy conversation waits a bounded time, then exits 2; other conversations run", async () => {
    const a = await conversation("one");
    const b = await conversation("two");
    const busyA = startScv(lab.world, ["delegate", "-c", a, "long"], {
      env: { FAKE_AGENT_MODE: "hang", FAKE_AGENT_PIDS: "a.json" },
    });
    await lab.pidsOf("a.json");
    // A different conversation of the same agent runs while A's turn holds its lock.
    const runningB = startScv(lab.world, ["delegate", "-c", b, "long"], {
      env: { FAKE_AGENT_MODE: "hang", FAKE_AGENT_PIDS: "b.json" },
    });
    await lab.pidsOf("b.json");

    const second = await scv(lab.world, ["delegate", "-c", a, "again"], { env: { SCV_LOCK_WAIT: "500ms" } });
    expect(second.exitCode).toBe(2);
    // It says which job holds the conversation, and what to do.
    expect(second.stderr).toMatch(
      new RegExp(
        `^scv: conversation ${a} is busy with job ${a}\\.[0-9a-z]{8}, in the foreground of scv pid \\d+ — continue it once that ends, or stop it: scv kill ${a}\\.[0-9a-z]{8}\n$`,
      ),
    );

    busyA.kill("SIGINT");
    runningB.kill("SIGINT");
    expect((await busyA).exitCode).toBe(130);
    expect((await runningB).exitCode).toBe(130);
    // The lock went with the turn: the conversation continues.
    const third = await scv(lab.world, ["delegate", "-c", a, "again"]);
    expect(third.exitCode).toBe(0);
  });
});
