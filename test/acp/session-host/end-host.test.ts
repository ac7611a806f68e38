// Ending session hosts from outside, against an injected process table: the reaper ends the server of
// a host whose scv died (only while its start time matches) and what carries the host's tag, and
// removes the host's files; a live host is left alone; endSessionHost asks a live host first (SIGTERM).

import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  endSessionHost,
  liveSessionHosts,
  reapSessionHosts,
} from "../../../src/acp/session-host/end-host.js";
import type { HostRecord } from "../../../src/home/host-records.js";
import type { ProcessTable } from "../../../src/os/processes.js";

interface FakeProcess {
  startTime: string;
  tag?: string;
}

function fakeTable(processes: Record<number, FakeProcess>) {
  const killed: string[] = [];
  const table: ProcessTable = {
    startTime: (pid) => processes[pid]?.startTime,
    pidsWithEnv: (name, value) =>
      name === "SCV_TURN"
        ? Object.entries(processes)
            .filter(([, found]) => found.tag === value)
            .map(([pid]) => Number(pid))
        : [],
    kill(pid, signal, group) {
      killed.push(`${group ? "-" : ""}${pid} ${signal}`);
      if (signal === "SIGKILL" || signal === "SIGTERM") delete processes[pid];
    },
    zombie: () => false,
  };
  return { table, killed };
}

let home: string;
let env: Record<string, string>;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "scv-hosts-"));
  env = { SCV_HOME: home };
  mkdirSync(join(home, "hosts"), { recursive: true });
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function host(handle: string): HostRecord {
  const record: HostRecord = {
    version: 1,
    handle,
    agent: "gemini",
    host: hostname(),
    scv: { pid: 100, startTime: "1000" },
    server: { pid: 200, startTime: "2000" },
    tag: `${handle}.abcdefgh`,
    launch: "hash",
    session: "s1",
    startedAt: "2026-12-04T12:00:00.000Z",
    usedAt: "2026-12-04T12:00:00.000Z",
    idleMs: 600_000,
    inUse: false,
  };
  for (const ext of ["json", "sock", "log"])
    writeFileSync(join(home, "hosts", `${handle}.${ext}`), ext === "json" ? JSON.stringify(record) : "");
  return record;
}

describe("ending session hosts", () => {
  it("the reaper ends the server and tagged tools of a host whose scv died, and removes its files", () => {
    host("gemini-aaaaaa");
    const { table, killed } = fakeTable({
      200: { startTime: "2000" },
      201: { startTime: "2001", tag: "gemini-aaaaaa.abcdefgh" },
    });
    expect(reapSessionHosts(env, table)).toEqual(["gemini-aaaaaa"]);
    expect(killed).toEqual(["-200 SIGKILL", "-201 SIGKILL"]);
    for (const ext of ["json", "sock", "log"])
      expect(existsSync(join(home, "hosts", `gemini-aaaaaa.${ext}`))).toBe(false);
  });

  it("a server pid now another process's (another start time) is not killed", () => {
    host("gemini-aaaaaa");
    const { table, killed } = fakeTable({ 200: { startTime: "9999" } });
    reapSessionHosts(env, table);
    expect(killed).toEqual([]);
  });

  it("a live host is left alone and listed", () => {
    host("gemini-aaaaaa");
    const { table, killed } = fakeTable({ 100: { startTime: "1000" }, 200: { startTime: "2000" } });
    expect(reapSessionHosts(env, table)).toEqual([]);
    expect(killed).toEqual([]);
    expect(liveSessionHosts(env, table).map((record) => record.handle)).toEqual(["gemini-aaaaaa"]);
  });

  it("endSessionHost asks a live host to end (SIGTERM) before anything is killed", async () => {
    const record = host("gemini-aaaaaa");
    const { table, killed } = fakeTable({ 100: { startTime: "1000" }, 200: { startTime: "2000" } });
    await endSessionHost(record, env, table);
    expect(killed[0]).toBe("100 SIGTERM");
    expect(existsSync(join(home, "hosts", "gemini-aaaaaa.sock"))).toBe(false);
  });
});
