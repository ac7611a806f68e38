// Which idle hosts make room under `max_warm_hosts`: the least recently used first, never one in use,
// the conversation about to start its own not counted.

import { describe, expect, it } from "vitest";
import { hostsToEvict } from "../../../src/acp/session-host/budget.js";
import type { HostRecord } from "../../../src/home/host-records.js";

function host(handle: string, usedAt: string, inUse = false): HostRecord {
  return {
    version: 1,
    handle,
    agent: "gemini",
    host: "here",
    scv: { pid: 1, startTime: "1" },
    tag: `${handle}.tag`,
    launch: "hash",
    startedAt: "2026-01-01T00:00:00.000Z",
    usedAt,
    idleMs: 600_000,
    inUse,
  };
}

const a = host("gemini-aaaaaa", "2026-01-01T00:03:00.000Z");
const b = host("gemini-bbbbbb", "2026-01-01T00:01:00.000Z");
const c = host("gemini-cccccc", "2026-01-01T00:02:00.000Z");

describe("hostsToEvict", () => {
  it("ends the least recently used idle hosts until `keep` are left", () => {
    expect(hostsToEvict([a, b, c], 2).map((each) => each.handle)).toEqual([b.handle]);
    expect(hostsToEvict([a, b, c], 1).map((each) => each.handle)).toEqual([b.handle, c.handle]);
    expect(hostsToEvict([a, b, c], 3)).toEqual([]);
    expect(hostsToEvict([a, b, c], 0)).toHaveLength(3);
  });

  it("never a host in use: fewer are ended, and the budget is kept once they are idle", () => {
    const busy = { ...b, inUse: true };
    expect(hostsToEvict([a, busy, c], 1).map((each) => each.handle)).toEqual([c.handle, a.handle]);
    expect(hostsToEvict([{ ...a, inUse: true }, busy], 1)).toEqual([]);
  });

  it("does not count the conversation about to start its host", () => {
    expect(hostsToEvict([a, b, c], 2, b.handle)).toEqual([]);
    expect(hostsToEvict([a, b, c], 1, b.handle).map((each) => each.handle)).toEqual([c.handle]);
  });
});
