// Warm ACP sessions through the built scv, against the scripted fake ACP agent standing in for
// `gemini --acp`: after a turn the conversation's server stays up in its session host, a continued
// turn prompts it there (no new process, no session/load), scv ps lists the host, scv kill ends it,
// an idle host exits, a dead or stuck host's conversation falls back to a cold start, a cancelled prompt
// leaves the host up, a background turn and scv mcp's delegate tool use it too, `conversations rm`
// ends it, and nothing is left running after any of it.

import { chmodSync, existsSync, lstatSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { turnResultShape } from "../../src/json-shapes.js";
import { DURATIONS } from "../../src/timing.js";
import { acpCalls, acpMethods, acpPrompts, installAcpAgent, useConfig } from "../helpers/acp.js";
import { useLab } from "../helpers/lab.js";
import { callTool, closeClients, connectMcp } from "../helpers/mcp-client.js";
import { isAlive, killAll, survivors } from "../helpers/pids.js";
import { scv, startScv, type World } from "../helpers/scv.js";

let world: World;
useLab((created) => {
  world = created;
});
beforeEach(() => {
  installAcpAgent(world);
});
afterEach(() => {
  killAll([...acpCalls(world).map((call) => call.pid), ...hostPids]);
  hostPids.length = 0;
});

/** Every host pid a test saw, killed after it whatever happened. */
const hostPids: number[] = [];

function json(stdout: string) {
  return turnResultShape().parse(JSON.parse(stdout));
}

interface HostFile {
  readonly scv: { pid: number };
  readonly server: { pid: number };
  readonly session?: string;
}

function hostRecord(handle: string): HostFile | undefined {
  const path = join(world.scvHome, "hosts", `${handle}.json`);
  if (!existsSync(path)) return undefined;
  const record = JSON.parse(readFileSync(path, "utf8")) as HostFile;
  hostPids.push(record.scv.pid);
  return record;
}

async function firstTurn(prompt = "one"): Promise<{ handle: string; session: string; host: HostFile }> {
  const run = await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", prompt]);
  expect(run.exitCode, run.stderr).toBe(0);
  const result = json(run.stdout);
  const handle = result.conversation ?? "";
  const host = hostRecord(handle);
  expect(host?.session).toBe(result.session);
  return { handle, session: result.session ?? "", host: host as HostFile };
}

/** Ends the conversation's host as a user would, and checks nothing of it is left. */
async function endSessionHost(handle: string, host: HostFile): Promise<void> {
  const killed = await scv(world, ["kill", handle]);
  expect(killed.exitCode, killed.stderr).toBe(0);
  expect(await survivors([...acpCalls(world).map((call) => call.pid), host.scv.pid])).toEqual([]);
}

async function until(check: () => boolean, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

describe("a warm ACP session", () => {
  it("a continued turn prompts the running server: no new process, no session/load, the history there", async () => {
    const { handle, host } = await firstTurn();
    // The server outlived its turn, in the host, with the host's own tag (no turn's sweep ends it).
    expect(isAlive(host.server.pid)).toBe(true);
    expect(acpCalls(world)).toHaveLength(1);
    const second = await scv(world, ["delegate", "-c", handle, "--json", "two"]);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(json(second.stdout).reply).toBe("REPLY two (turn 2, mode default)");
    expect(acpCalls(world)).toHaveLength(1);
    expect(acpMethods(world)).toEqual(["initialize", "session/new", "session/prompt", "session/prompt"]);
    const events = await scv(world, ["delegate", "-c", handle, "--events", "three"]);
    expect(events.exitCode, events.stderr).toBe(0);
    expect(events.stdout).toContain('"type":"text"');
    expect(acpCalls(world)).toHaveLength(1);
    await endSessionHost(handle, host);
  });

  it("a turn's own model and effort are that turn's only: the next turn runs the conversation's again", async () => {
    const env = { FAKE_ACP_EFFORT: "1" };
    const first = await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", "one"], { env });
    expect(first.exitCode, first.stderr).toBe(0);
    const handle = json(first.stdout).conversation ?? "";
    const once = ["delegate", "-c", handle, "-m", "fake-large", "--effort", "high", "--json", "two"];
    const second = await scv(world, once, { env });
    expect(second.exitCode, second.stderr).toBe(0);
    const third = await scv(world, ["delegate", "-c", handle, "--json", "three"], { env });
    expect(third.exitCode, third.stderr).toBe(0);
    expect(acpCalls(world)).toHaveLength(1);
    expect(acpPrompts(world).map(({ text, model, effort }) => [text, model, effort])).toEqual([
      ["one", "fake-small", "medium"],
      ["two", "fake-large", "high"],
      ["three", "fake-small", "medium"],
    ]);
    const host = hostRecord(handle)?.scv.pid ?? 0;
    expect((await scv(world, ["kill", handle])).exitCode).toBe(0);
    expect(await survivors([...acpCalls(world).map((call) => call.pid), host])).toEqual([]);
  });

  it("a conversation begun with a model keeps it after a turn that used another", async () => {
    const env = { FAKE_ACP_EFFORT: "1" };
    const started = ["delegate", "gemini:fake-large", "--transport", "acp", "--json", "four"];
    const other = await scv(world, started, { env });
    expect(other.exitCode, other.stderr).toBe(0);
    const otherHandle = json(other.stdout).conversation ?? "";
    const small = await scv(world, ["delegate", "-c", otherHandle, "-m", "fake-small", "--json", "five"], {
      env,
    });
    expect(small.exitCode, small.stderr).toBe(0);
    const back = await scv(world, ["delegate", "-c", otherHandle, "--json", "six"], { env });
    expect(back.exitCode, back.stderr).toBe(0);
    expect(acpPrompts(world).map(({ text, model }) => [text, model])).toEqual([
      ["four", "fake-large"],
      ["five", "fake-small"],
      ["six", "fake-large"],
    ]);
    const hosts = [hostRecord(otherHandle)].map((host) => host?.scv.pid ?? 0);
    expect((await scv(world, ["kill", otherHandle])).exitCode).toBe(0);
    expect(await survivors([...acpCalls(world).map((call) => call.pid), ...hosts])).toEqual([]);
  });

  it("a warm conversation continues on a server that cannot load a session (no loadSession)", async () => {
    const env = { FAKE_ACP_NO_LOAD: "1" };
    const first = await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", "one"], { env });
    expect(first.exitCode, first.stderr).toBe(0);
    const handle = json(first.stdout).conversation ?? "";
    const second = await scv(world, ["delegate", "-c", handle, "--json", "two"], { env });
    expect(second.exitCode, second.stderr).toBe(0);
    expect(json(second.stdout).reply).toBe("REPLY two (turn 2, mode default)");
    await endSessionHost(handle, hostRecord(handle) as HostFile);
  });

  it("scv ps lists the host; scv kill <handle> ends it and its server", async () => {
    const { handle, host } = await firstTurn();
    const ps = await scv(world, ["ps"]);
    expect(ps.stdout).toMatch(new RegExp(`${handle}\\s+gemini\\s+.*idle`));
    const rows = JSON.parse((await scv(world, ["ps", "--json"])).stdout) as {
      kind?: string;
      handle: string;
    }[];
    expect(rows).toMatchObject([{ kind: "host", handle, agent: "gemini" }]);
    const killed = await scv(world, ["kill", handle]);
    expect(killed.exitCode, killed.stderr).toBe(0);
    expect(killed.stderr).toBe(`ended the session host of ${handle}\n`);
    expect(await survivors([host.server.pid, host.scv.pid])).toEqual([]);
    expect(existsSync(join(world.scvHome, "hosts", `${handle}.sock`))).toBe(false);
    expect((await scv(world, ["ps"])).stderr).toBe("no running turns\n");
  });

  it("scv conversations rm ends the conversation's host", async () => {
    const { handle, host } = await firstTurn();
    const removed = await scv(world, ["conversations", "rm", handle]);
    expect(removed.exitCode, removed.stderr).toBe(0);
    expect(await survivors([host.server.pid, host.scv.pid])).toEqual([]);
    expect(hostRecord(handle)).toBeUndefined();
  });

  it("an idle host closes its server and exits after session_idle", async () => {
    useConfig(world, '[agents.gemini]\nsession_idle = "1s"\n');
    const { handle, host } = await firstTurn();
    // Gone after its second of idleness, not the default ten minutes (a loaded machine takes its time).
    expect(await survivors([host.server.pid, host.scv.pid], 30_000)).toEqual([]);
    expect(hostRecord(handle)).toBeUndefined();
    expect(existsSync(join(world.scvHome, "hosts", `${handle}.sock`))).toBe(false);
  });

  it("a host that died: the next turn starts the server again and loads the session (cold)", async () => {
    const { handle, session, host } = await firstTurn();
    process.kill(host.scv.pid, "SIGKILL");
    // Its server, its stdin gone, ends too; the reaper would kill it otherwise.
    const second = await scv(world, ["delegate", "-c", handle, "--json", "two"]);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(json(second.stdout).reply).toBe("REPLY two (turn 2, mode default)");
    expect(acpCalls(world)).toHaveLength(2);
    expect(acpMethods(world)).toContain("session/load");
    expect(await survivors([host.server.pid, host.scv.pid])).toEqual([]);
    // The new host holds the loaded session.
    expect(hostRecord(handle)?.session).toBe(session);
  });

  it("a host that does not answer within 2 s is killed, and the turn falls back to a cold start", async () => {
    const { handle, host } = await firstTurn();
    process.kill(host.scv.pid, "SIGSTOP");
    const started = Date.now();
    const second = await scv(world, ["delegate", "-c", handle, "--json", "two"]);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(json(second.stdout).reply).toBe("REPLY two (turn 2, mode default)");
    // It waited the hello limit out, then no longer than a cold start (on a loaded machine).
    expect(Date.now() - started).toBeGreaterThanOrEqual(DURATIONS.helloLimit);
    expect(Date.now() - started).toBeLessThan(DURATIONS.helloLimit + 20_000);
    expect(acpCalls(world)).toHaveLength(2);
    expect(acpMethods(world)).toContain("session/load");
    expect(await survivors([host.server.pid, host.scv.pid])).toEqual([]);
    await endSessionHost(handle, hostRecord(handle) as HostFile);
  });

  it("a turn that would start the server differently (another --policy) ends the host and starts afresh", async () => {
    const { handle, host } = await firstTurn();
    const second = await scv(world, ["delegate", "-c", handle, "--policy", "auto", "--json", "two"]);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(json(second.stdout).reply).toBe("REPLY two (turn 2, mode yolo)");
    expect(acpCalls(world)).toHaveLength(2);
    expect(acpMethods(world)).toContain("session/load");
    expect(await survivors([host.server.pid, host.scv.pid])).toEqual([]);
    await endSessionHost(handle, hostRecord(handle) as HostFile);
  });

  it("a timed-out prompt on a warm host is cancelled (exit 124); the host stays and serves the next turn", async () => {
    const { handle, host } = await firstTurn();
    const hung = await scv(world, ["delegate", "-c", handle, "--timeout", "1s", "hang on"]);
    expect(hung.exitCode).toBe(124);
    expect(acpMethods(world)).toContain("session/cancel");
    expect(isAlive(host.server.pid)).toBe(true);
    const next = await scv(world, ["delegate", "-c", handle, "--json", "after"]);
    expect(next.exitCode, next.stderr).toBe(0);
    expect(json(next.stdout).reply).toContain("REPLY after");
    expect(acpCalls(world)).toHaveLength(1);
    await endSessionHost(handle, host);
  });

  it("Ctrl-C on a warm turn cancels its prompt (exit 130), and the host stays", async () => {
    const { handle, host } = await firstTurn();
    const before = acpMethods(world).length;
    const child = startScv(world, ["delegate", "-c", handle, "hang on"]);
    expect(await until(() => acpMethods(world).slice(before).includes("session/prompt"), 20_000)).toBe(true);
    child.kill("SIGINT");
    const done = await child;
    expect(done.exitCode).toBe(130);
    expect(acpMethods(world).slice(before)).toContain("session/cancel");
    expect(isAlive(host.server.pid)).toBe(true);
    await endSessionHost(handle, host);
  });

  it("a server that dies mid-prompt fails the turn (exit 1) and takes its host with it", async () => {
    const { handle, host } = await firstTurn();
    const died = await scv(world, ["delegate", "-c", handle, "--json", "die now"]);
    expect(died.exitCode).toBe(1);
    expect(json(died.stdout).error).toContain("fatal: model crashed");
    expect(await survivors([host.server.pid, host.scv.pid])).toEqual([]);
    expect(hostRecord(handle)).toBeUndefined();
  });

  it("a background continued turn (as scv mcp runs them) uses the host too", async () => {
    const { handle } = await firstTurn();
    const started = await scv(world, ["delegate", "--background", "-c", handle, "two"]);
    expect(started.exitCode, started.stderr).toBe(0);
    const waited = await scv(world, ["wait", started.stdout.trim()]);
    expect(waited.stdout).toBe("REPLY two (turn 2, mode default)\n");
    expect(acpCalls(world)).toHaveLength(1);
    const { host } = { host: hostRecord(handle) as HostFile };
    await endSessionHost(handle, host);
  });

  it("scv mcp's delegate tool continuing the conversation uses the host too", async () => {
    const { handle, host } = await firstTurn();
    const client = await connectMcp(world);
    try {
      const result = await callTool(client, "delegate", { conversation: handle, prompt: "two" });
      expect(result.isError, result.text).toBe(false);
      expect(result.structured).toMatchObject({ reply: "REPLY two (turn 2, mode default)" });
    } finally {
      await closeClients();
    }
    expect(acpCalls(world)).toHaveLength(1);
    await endSessionHost(handle, host);
  });

  it("an $SCV_HOME too deep for a socket path: the host listens in a short private folder, and stays warm", async () => {
    const deep = join(world.root, "a-folder-whose-name-is-long-enough-to-push-the-socket-path-past-sun-path");
    world.env.SCV_HOME = deep;
    const inHome = (handle: string) => join(deep, "hosts", `${handle}.sock`);
    const run = await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", "one"]);
    expect(run.exitCode, run.stderr).toBe(0);
    const handle = json(run.stdout).conversation ?? "";
    expect(Buffer.byteLength(inHome(handle))).toBeGreaterThan(107);
    const record = JSON.parse(readFileSync(join(deep, "hosts", `${handle}.json`), "utf8")) as HostFile;
    hostPids.push(record.scv.pid);
    // TMPDIR's folder (no XDG_RUNTIME_DIR here): this user's, 0700, named by the home's hash.
    const folders = readdirSync(world.tmp).filter((name) => name.startsWith(`scv-${process.getuid?.()}-`));
    expect(folders).toHaveLength(1);
    const folder = join(world.tmp, folders[0] as string);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    const socket = join(folder, `${handle}.sock`);
    expect(lstatSync(socket).isSocket()).toBe(true);
    expect(existsSync(inHome(handle))).toBe(false);

    const second = await scv(world, ["delegate", "-c", handle, "--json", "two"]);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(json(second.stdout).reply).toBe("REPLY two (turn 2, mode default)");
    // Warm: the same server, no session/load.
    expect(acpCalls(world)).toHaveLength(1);
    expect(acpMethods(world)).toEqual(["initialize", "session/new", "session/prompt", "session/prompt"]);
    await endSessionHost(handle, record);
    expect(existsSync(socket)).toBe(false);
  });

  it("a short socket folder another user could reach is not used: the turn runs cold, and well", async () => {
    const deep = join(world.root, "a-folder-whose-name-is-long-enough-to-push-the-socket-path-past-sun-path");
    world.env.SCV_HOME = deep;
    const first = await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", "one"]);
    const handle = json(first.stdout).conversation ?? "";
    const record = JSON.parse(readFileSync(join(deep, "hosts", `${handle}.json`), "utf8")) as HostFile;
    hostPids.push(record.scv.pid);
    await endSessionHost(handle, record);
    const [name] = readdirSync(world.tmp).filter((each) => each.startsWith("scv-"));
    const folder = join(world.tmp, name as string);
    chmodSync(folder, 0o755);
    const second = await scv(world, ["delegate", "-c", handle, "--json", "two"]);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(json(second.stdout).reply).toBe("REPLY two (turn 2, mode default)");
    // Cold: a new server loaded the session, and none stays.
    expect(acpCalls(world)).toHaveLength(2);
    expect(acpMethods(world)).toContain("session/load");
    expect(existsSync(join(deep, "hosts", `${handle}.json`))).toBe(false);
    expect(readdirSync(folder)).toEqual([]);
  });

  it('session_idle = "0" keeps nothing warm', async () => {
    useConfig(world, '[defaults]\nsession_idle = "0"\n');
    const run = await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", "one"]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(hostRecord(json(run.stdout).conversation ?? "")).toBeUndefined();
    expect(await survivors(acpCalls(world).map((call) => call.pid))).toEqual([]);
  });
});
