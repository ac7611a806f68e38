// A conversation keeps the transport it began with, through the built scv: `gemini` here is the
// fake process agent for `gemini -p …` and the scripted fake ACP agent for `gemini --acp …`. A
// continued turn that asks for the other transport is refused in one line (exit 2) and changes
// nothing: the conversation's warm server, which holds every turn, still answers the next one. Before,
// a process turn ran beside the warm server, whose context then lacked it.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { turnResultShape } from "../../src/json-shapes.js";
import { useLab } from "../helpers/lab.js";
import { killAll, survivors } from "../helpers/pids.js";
import { conversationRecord, geminiStarts, installGeminiBoth, scv, type World } from "../helpers/scv.js";

let world: World;
useLab((created) => {
  world = created;
  installGeminiBoth(created);
});
afterEach(() => {
  killAll([...starts().map((start) => start.pid), ...hosts]);
  hosts.length = 0;
});

const hosts: number[] = [];
const starts = () => geminiStarts(world);

function hostPid(handle: string): number {
  const record = JSON.parse(readFileSync(join(world.scvHome, "hosts", `${handle}.json`), "utf8")) as {
    scv: { pid: number };
  };
  hosts.push(record.scv.pid);
  return record.scv.pid;
}

function json(stdout: string) {
  return turnResultShape().parse(JSON.parse(stdout));
}

describe("a conversation's transport", () => {
  it("an ACP conversation refuses a process turn in one line, and its warm server answers the next turn", async () => {
    const first = await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", "one"]);
    expect(first.exitCode, first.stderr).toBe(0);
    const handle = json(first.stdout).conversation ?? "";
    const host = hostPid(handle);
    const before = conversationRecord(world, handle);

    const switched = await scv(world, ["delegate", "-c", handle, "--transport", "process", "two"]);
    expect(switched.exitCode).toBe(2);
    expect(switched.stdout).toBe("");
    expect(switched.stderr).toBe(
      `scv: conversation ${handle} runs over ACP, and a conversation keeps the transport it began with — continue it without --transport process, or start a new conversation over process\n`,
    );
    // Nothing ran, nothing changed.
    expect(starts().filter((start) => !start.acp)).toEqual([]);
    expect(conversationRecord(world, handle)).toEqual(before);

    // Asking for its own transport is no switch; the warm server has every turn.
    const next = await scv(world, ["delegate", "-c", handle, "--transport", "acp", "--json", "three"]);
    expect(next.exitCode, next.stderr).toBe(0);
    expect(json(next.stdout).reply).toBe("REPLY three (turn 2, mode default)");
    expect(starts()).toHaveLength(1);
    expect((await scv(world, ["kill", handle])).exitCode).toBe(0);
    expect(await survivors([host, ...starts().map((start) => start.pid)])).toEqual([]);
  });

  it("a process conversation (or one recorded before scv had ACP) refuses an ACP turn", async () => {
    const first = await scv(world, ["delegate", "gemini", "--json", "one"]);
    expect(first.exitCode, first.stderr).toBe(0);
    const handle = json(first.stdout).conversation ?? "";
    const switched = await scv(world, ["delegate", "-c", handle, "--transport", "acp", "two"]);
    expect(switched.exitCode).toBe(2);
    expect(switched.stderr).toBe(
      `scv: conversation ${handle} runs over process, and a conversation keeps the transport it began with — continue it without --transport acp, or start a new conversation over ACP\n`,
    );
    expect(starts().filter((start) => start.acp)).toEqual([]);

    const path = join(world.scvHome, "conversations", `${handle}.json`);
    const { transport: _transport, ...older } = conversationRecord(world, handle);
    writeFileSync(path, JSON.stringify(older));
    const old = await scv(world, ["delegate", "-c", handle, "--transport", "acp", "two"]);
    expect(old.exitCode).toBe(2);
    expect(old.stderr).toContain("runs over process");
    const kept = await scv(world, ["delegate", "-c", handle, "--json", "two"]);
    expect(kept.exitCode, kept.stderr).toBe(0);
    expect(conversationRecord(world, handle)).toMatchObject({ transport: "process", turns: 2 });
  });
});
