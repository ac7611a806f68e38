// How an ACP turn ends, through the built scv against the scripted fake ACP agent standing in for
// `gemini --acp` (cold turns): scv ps lists it and scv kill cancels it; a refused sign-in is exit 4
// (at its first retry, also in --events), a 429 exit 5, the time limit and --idle-timeout exit 124
// (session/cancel), Ctrl-C exit 130, and nothing is left running. The launch, sessions and policy are
// acp.test.ts, a permission request on a terminal acp-terminal.test.ts, a server that dies, garbles or
// floods acp-server.test.ts.

import { describe, expect, it } from "vitest";
import { acpCalls, acpMethods, useColdAcpLab } from "../helpers/acp.js";
import { resultOf as json, until } from "../helpers/acp-world.js";
import { survivors } from "../helpers/pids.js";
import { scv, startScv, type World } from "../helpers/scv.js";

let world: World;
useColdAcpLab((created) => {
  world = created;
});

describe("scv ps and scv kill", () => {
  it("list a running ACP turn, and kill sends session/cancel and ends it", async () => {
    const child = startScv(world, ["delegate", "gemini", "--transport", "acp", "hang on"]);
    expect(await until(() => acpMethods(world).includes("session/prompt"), 20_000)).toBe(true);
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
    expect(await until(() => acpMethods(world).includes("session/prompt"), 20_000)).toBe(true);
    child.kill("SIGINT");
    const done = await child;
    expect(done.exitCode).toBe(130);
    expect(acpMethods(world)).toContain("session/cancel");
    expect(await survivors(acpCalls(world).map((call) => call.pid))).toEqual([]);
  });
});
