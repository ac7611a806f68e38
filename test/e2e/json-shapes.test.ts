// Every `--json` document, as the built scv prints it, against its schema in docs/json/ (JSON Schema
// 2020-12, generated from src/json-documents.ts): each command is run where it has the most to say
// — a running turn and a session host for `ps`, accounts passed over for `delegate`, a cooling
// account with a quota report for `agents status` — so a field that is absent, or null where the
// schema says it is always a value, or one the schema does not have, fails here. One rule for all:
// every field is always there, null where there is no value.

import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { JSON_DOCUMENTS, type JsonDocument } from "../../src/json-documents.js";
import { bootId } from "../../src/os/proc.js";
import { identify } from "../../src/os/processes.js";
import { useLab } from "../helpers/lab.js";
import { agentPids, scv, signIn, type World } from "../helpers/scv.js";

const ROOT = join(import.meta.dirname, "..", "..");
const FIXTURES = join(import.meta.dirname, "..", "fixtures");
const ajv = new Ajv2020({ allErrors: true, strict: false });

function validate(name: JsonDocument, stdout: string): unknown {
  const schema = JSON.parse(readFileSync(join(ROOT, "docs", "json", `${name}.schema.json`), "utf8"));
  const document: unknown = JSON.parse(stdout);
  const check = ajv.compile(schema);
  const valid = check(document);
  expect(valid ? [] : check.errors, `${name}: ${stdout.slice(0, 2000)}`).toEqual([]);
  return document;
}

let world: World;
const lab = useLab((created) => {
  world = created;
});

async function json(name: JsonDocument, args: readonly string[], env: Record<string, string> = {}) {
  const run = await scv(world, [...args, "--json"], { env });
  expect(run.stdout, run.stderr).not.toBe("");
  return { run, document: validate(name, run.stdout) as Record<string, unknown> };
}

/** A live process standing in for a session host and its server (ps checks both by pid and start). */
function sleeper(): { pid: number; startTime: string } {
  const child = spawn("sleep", ["600"], { stdio: "ignore", detached: true });
  child.unref();
  const pid = child.pid as number;
  lab.track([pid]);
  const identity = identify(pid);
  if (identity === undefined) throw new Error("no start time for the sleeper");
  return identity;
}

function claudeReset(): string {
  const text = readFileSync(join(FIXTURES, "claude", "usage-limit.stdout"), "utf8");
  return new Date(Number(/"resetsAt":(\d+)/.exec(text)?.[1]) * 1000).toISOString();
}

describe("every --json document has its documented shape", () => {
  it("lists a schema file for each document, and nothing else", () => {
    const names = Object.keys(JSON_DOCUMENTS).sort();
    expect(names).toEqual([
      "agents-check",
      "agents-gc",
      "agents-list",
      "agents-status",
      "conversations-list",
      "conversations-show",
      "delegate",
      "delegate-background",
      "delegate-reviewed",
      "ps",
      "review",
      "usage",
      "wait",
    ]);
  });

  it("delegate (one agent, accounts passed over, several agents), wait, conversations, usage, gc", async () => {
    await signIn(world, "claude", "work");
    await signIn(world, "claude", "personal");
    await signIn(world, "codex");
    const limited = join(world.scvHome, "agents", "claude@work");
    writeFileSync(join(limited, ".fake-mode"), "fixture:usage-limit");

    const plain = await json("delegate", ["delegate", "codex", "Say hi"]);
    expect(plain.run.exitCode, plain.run.stderr).toBe(0);
    // Absent before: the target named no accounts.
    expect(plain.document).toMatchObject({ account: null, skipped: null, resetsAt: null });

    const ladder = await json("delegate", ["delegate", "claude@work,personal", "Say hi"]);
    expect(ladder.run.exitCode, ladder.run.stderr).toBe(0);
    expect(ladder.document.account).toBe("personal");
    expect(ladder.document.skipped).toEqual([
      expect.objectContaining({ account: "work", reason: "rate-limited", until: claudeReset() }),
    ]);

    const failed = await json("delegate", ["delegate", "codex", "Say hi"], { FAKE_AGENT_MODE: "exit:3" });
    expect(failed.document.exitCode).not.toBe(0);

    const several = await json("delegate", ["delegate", "codex", "claude@personal", "Say hi"]);
    expect(several.document).toHaveLength(2);

    const background = await json("delegate-background", ["delegate", "--background", "codex", "Say hi"]);
    expect(background.document).toMatchObject({ started: true, result: null });
    const job = background.document.job as string;
    await json("wait", ["wait", job]);
    const twoJobs = await json("delegate-background", [
      "delegate",
      "--background",
      "codex",
      "claude@personal",
      "Say hi",
    ]);
    await json("wait", [
      "wait",
      ...(twoJobs.document as unknown as { job: string }[]).map((each) => each.job),
    ]);
    // One that cannot start (its CLI is not on PATH): its result says why.
    const refused = await json("delegate-background", ["delegate", "--background", "codex", "Hi"], {
      PATH: "/usr/bin:/bin",
    });
    expect(refused.document).toMatchObject({ started: false, job: null });

    const list = await json("conversations-list", ["conversations", "list"]);
    const handle = (plain.document.conversation as string) ?? "";
    expect((list.document as unknown as { handle: string }[]).map((each) => each.handle)).toContain(handle);
    const shown = await json("conversations-show", ["conversations", "show", handle]);
    expect(shown.document).toMatchObject({ handle, account: "default", takeovers: 0, lastTakeoverAt: null });

    await json("usage", ["usage"]);
    await json("usage", ["usage", "--by", "account"]);
    await json("agents-gc", ["agents", "gc", "--dry-run"]);
  }, 180_000);

  it("ps: a running turn and a session host, each with its kind", async () => {
    await signIn(world, "codex");
    const started = await scv(world, ["delegate", "--background", "codex", "Wait"], {
      env: { FAKE_AGENT_MODE: "hang" },
    });
    expect(started.exitCode, started.stderr).toBe(0);
    await agentPids(world);
    const host = sleeper();
    const server = sleeper();
    mkdirSync(join(world.scvHome, "hosts"), { recursive: true, mode: 0o700 });
    const now = new Date().toISOString();
    const boot = bootId();
    writeFileSync(
      join(world.scvHome, "hosts", "gemini-hhhhhh.json"),
      JSON.stringify({
        version: 1,
        handle: "gemini-hhhhhh",
        agent: "gemini",
        host: hostname(),
        ...(boot === undefined ? {} : { boot }),
        scv: host,
        server,
        tag: "gemini-hhhhhh.aaaaaaaa",
        launch: "x",
        startedAt: now,
        usedAt: now,
        idleMs: 600_000,
        inUse: false,
      }),
    );
    const ps = await json("ps", ["ps"]);
    expect((ps.document as unknown as { kind: string }[]).map((each) => each.kind)).toEqual(["turn", "host"]);
    const job = started.stdout.trim();
    expect((await scv(world, ["kill", job])).exitCode).toBe(0);
  }, 120_000);

  it("agents list, status (every form, a cooling account with a quota report) and check", async () => {
    await signIn(world, "claude", "work");
    await signIn(world, "claude");
    writeFileSync(join(world.scvHome, "agents", "claude@work", ".fake-mode"), "fixture:usage-limit");
    // The limit cools claude@work and keeps its quota report.
    await scv(world, ["delegate", "claude@work", "Say hi"]);

    await json("agents-list", ["agents", "list"]);
    const all = await json("agents-status", ["agents", "status"]);
    const rows = all.document as unknown as { account: string; coolingUntil: string | null }[];
    expect(rows.find((row) => row.account === "work")?.coolingUntil).toBe(claudeReset());
    // Null, not absent, where an account is not cooling.
    expect(rows.find((row) => row.account === "default")).toHaveProperty("coolingUntil", null);
    const one = await json("agents-status", ["agents", "status", "claude"]);
    expect(one.document).toMatchObject({ coolingUntil: null, quota: null });
    const work = await json("agents-status", ["agents", "status", "claude@work"]);
    expect(work.document).toMatchObject({ coolingUntil: claudeReset() });
    expect(work.document.quota).not.toBeNull();
    await json("agents-check", ["agents", "check", "claude"]);
  }, 120_000);
});
