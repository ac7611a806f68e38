// Where a warm ACP session's host listens, through the built scv against the scripted fake ACP agent:
// an $SCV_HOME too deep for a socket path puts the socket in a short private folder (0700, this user's)
// and the session stays warm; a short folder another user could reach is not used (the turn runs cold).

import { chmodSync, existsSync, lstatSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { acpCalls, acpMethods } from "../helpers/acp.js";
import { type AcpWorld, acpWorldPerTest, endSessionHost, resultOf as json } from "../helpers/acp-world.js";
import { scv } from "../helpers/scv.js";

let world: AcpWorld;
acpWorldPerTest((created) => {
  world = created;
});

describe("where a session host listens", () => {
  it("an $SCV_HOME too deep for a socket path: the host listens in a short private folder, and stays warm", async () => {
    const deep = join(world.root, "a-folder-whose-name-is-long-enough-to-push-the-socket-path-past-sun-path");
    world.env.SCV_HOME = deep;
    const inHome = (handle: string) => join(deep, "hosts", `${handle}.sock`);
    const run = await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", "one"]);
    expect(run.exitCode, run.stderr).toBe(0);
    const handle = json(run.stdout).conversation ?? "";
    expect(Buffer.byteLength(inHome(handle))).toBeGreaterThan(107);
    const record = world.hostRecord(handle);
    if (record === undefined) throw new Error(`no host record in ${deep}`);
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
    await endSessionHost(world, handle, record);
    expect(existsSync(socket)).toBe(false);
  });

  it("a short socket folder another user could reach is not used: the turn runs cold, and well", async () => {
    const deep = join(world.root, "a-folder-whose-name-is-long-enough-to-push-the-socket-path-past-sun-path");
    world.env.SCV_HOME = deep;
    const first = await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", "one"]);
    const handle = json(first.stdout).conversation ?? "";
    const record = world.hostRecord(handle);
    if (record === undefined) throw new Error(`no host record in ${deep}`);
    await endSessionHost(world, handle, record);
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
});
