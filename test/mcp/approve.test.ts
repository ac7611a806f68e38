// A permission question of an ACP agent under policy default, through `scv mcp` (the MCP SDK's own
// client over stdio, the built scv, the scripted fake ACP agent standing in for `gemini --acp`): the
// job stops in needs-approval, delegate, wait, status, `scv ps` and `scv wait` say what is asked,
// approve answers it and the turn goes on; an answer for a question no longer pending is refused and
// answers nothing; cancel and the turn's own time limit still end a job that waits; nothing of the
// question is left in $SCV_HOME.

import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acpCalls, installAcpAgent } from "../helpers/acp.js";
import { useLab } from "../helpers/lab.js";
import { callTool, closeClients, connectMcp } from "../helpers/mcp-client.js";
import { killAll, survivors } from "../helpers/pids.js";
import { scv, type World } from "../helpers/scv.js";

let world: World;
useLab((created) => {
  world = created;
});
beforeEach(() => {
  installAcpAgent(world);
  config("");
});
afterEach(async () => {
  await closeClients();
  killAll(acpCalls(world).map((call) => call.pid));
  await new Promise((resolve) => setTimeout(resolve, 50));
});

/** Gemini over ACP, cold (no session host), with `extra` in its table. */
function config(extra: string): void {
  writeFileSync(
    join(world.root, "config.toml"),
    `[defaults]\nsession_idle = "0"\n\n[agents.gemini]\ntransport = "acp"\n${extra}`,
  );
  world.env.SCV_CONFIG = join(world.root, "config.toml");
}

function questionFiles(): string[] {
  const dir = join(world.scvHome, "turns");
  return existsSync(dir)
    ? readdirSync(dir).filter((name) => /\.(ask|answer|questions)\.json$/.test(name))
    : [];
}

interface Approval {
  readonly id: string;
  readonly agent: string;
  readonly tool: string;
  readonly summary: string;
  readonly answers: string[];
}

/** A delegate call whose agent asks to run a tool: the job, waiting for its answer. */
async function askingJob(client: Client): Promise<{ job: string; approval: Approval; text: string }> {
  const started = await callTool(client, "delegate", {
    agent: "gemini",
    prompt: "use a tool",
    wait_seconds: 30,
  });
  expect(started.isError, started.text).toBe(false);
  expect(started.structured.status, started.text).toBe("needs-approval");
  return {
    job: started.structured.job as string,
    approval: started.structured.approval as Approval,
    text: started.text,
  };
}

describe("scv mcp: an agent's permission question", () => {
  it("stops the job in needs-approval, says what is asked, and approve once lets the turn go on", async () => {
    const client = await connectMcp(world);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("approve");

    const calledAt = Date.now();
    const { job, approval, text } = await askingJob(client);
    // At once, not after the call's wait.
    expect(Date.now() - calledAt).toBeLessThan(20_000);
    expect(job).toMatch(/^gemini-[0-9a-z]{6}\.[0-9a-z]{8}$/);
    expect(approval).toMatchObject({
      agent: "gemini",
      tool: "execute",
      summary: "$ touch probe.txt",
      answers: ["once", "always", "reject"],
    });
    expect(approval.id).toMatch(/^[0-9a-z]{8}$/);
    expect(text).toBe(
      `gemini asks to run execute: $ touch probe.txt. Job ${job} waits for your answer: call approve with job ${job}, approval ${approval.id} and the answer once, always or reject (or cancel the job).`,
    );
    // The question is a private file of the job's.
    const [asked] = questionFiles();
    expect(asked).toBe(`${job}.ask.json`);
    expect(statSync(join(world.scvHome, "turns", asked as string)).mode & 0o777).toBe(0o600);

    // status, wait, scv ps and scv wait all say it.
    const status = await callTool(client, "status", { job });
    expect(status.structured).toMatchObject({ status: "needs-approval", job, approval: { id: approval.id } });
    const list = await callTool(client, "status", {});
    expect(list.text).toContain(
      `needs approval ${approval.id}: gemini asks to run execute: $ touch probe.txt`,
    );
    const waited = await callTool(client, "wait", { job, wait_seconds: 5 });
    expect(waited.structured).toMatchObject({ status: "needs-approval", approval: { id: approval.id } });
    const ps = await scv(world, ["ps"]);
    expect(ps.stdout).toMatch(/ needs approval +gemini asks to run execute: \$ touch probe\.txt\n/);
    const shellWait = await scv(world, ["wait", job, "--timeout", "1s"]);
    expect(shellWait.exitCode).toBe(124);
    expect(shellWait.stderr).toContain(
      `scv: ${job} waits for approval ${approval.id}: gemini asks to run execute: $ touch probe.txt — answer it with the approve tool of the scv mcp that started it, or stop it: scv kill ${job}\n`,
    );

    // An answer for a question the job never asked answers nothing, and says so.
    const wrong = await callTool(client, "approve", { job, approval: "zzzzzzzz", answer: "once" });
    expect(wrong.isError).toBe(true);
    expect(wrong.text).toBe(
      `${job} never asked approval zzzzzzzz; it now waits on approval ${approval.id}: gemini asks to run execute: $ touch probe.txt (exit 2, usage error)`,
    );
    expect((await callTool(client, "status", { job })).structured.status).toBe("needs-approval");

    const approved = await callTool(client, "approve", { job, approval: approval.id, answer: "once" });
    expect(approved.isError, approved.text).toBe(false);
    expect(approved.structured).toMatchObject({ reply: "ALLOWED proceed_once", exitCode: 0 });
    expect(questionFiles()).toEqual([]);

    // The same answer again: the question has gone with the job.
    const again = await callTool(client, "approve", { job, approval: approval.id, answer: "once" });
    expect(again.isError).toBe(true);
    expect(again.text).toBe(
      `no job ${job} is running, so approval ${approval.id} cannot be answered — its result was read already, or it never ran (exit 2, usage error)`,
    );
  });

  it("approve reject: the agent goes on without the tool, and the result says it was rejected", async () => {
    const client = await connectMcp(world);
    const { job, approval } = await askingJob(client);
    const rejected = await callTool(client, "approve", { job, approval: approval.id, answer: "reject" });
    expect(rejected.structured).toMatchObject({ reply: "REJECTED", exitCode: 0 });
    expect(rejected.structured.notes).toEqual(["you rejected gemini's execute: $ touch probe.txt"]);
  });

  it("approve always: the agent's allow-always option", async () => {
    const client = await connectMcp(world);
    const { job, approval } = await askingJob(client);
    const allowed = await callTool(client, "approve", { job, approval: approval.id, answer: "always" });
    expect(allowed.structured).toMatchObject({ reply: "ALLOWED proceed_always" });
  });

  it("cancel ends a job that waits for approval; its question goes, and a late answer is refused", async () => {
    const client = await connectMcp(world);
    const { job, approval } = await askingJob(client);
    const cancelled = await callTool(client, "cancel", { job });
    expect(cancelled.text).toMatch(new RegExp(`^Stopped ${job.replace(".", "\\.")} `));
    expect(cancelled.structured).toMatchObject({ status: "cancelled" });
    // Nobody rejected it: the turn ended first, and the result says so.
    expect(cancelled.structured.notes).toEqual([
      "gemini asked to run execute: $ touch probe.txt; the turn ended before it was answered, so it did not run",
    ]);
    expect(cancelled.text).not.toContain("rejected");
    expect(await survivors(acpCalls(world).map((call) => call.pid))).toEqual([]);
    expect(questionFiles()).toEqual([]);
    const late = await callTool(client, "approve", { job, approval: approval.id, answer: "once" });
    expect(late.isError).toBe(true);
    expect(late.text).toContain(`no job ${job} is running, so approval ${approval.id} cannot be answered`);
  });

  it("an answer that comes too late says what became of the question: answered already, or never asked", async () => {
    const client = await connectMcp(world);
    const started = await callTool(client, "delegate", {
      agent: "gemini",
      prompt: "use a tool twice",
      wait_seconds: 30,
    });
    const job = started.structured.job as string;
    const first = started.structured.approval as Approval;
    const next = await callTool(client, "approve", { job, approval: first.id, answer: "once" });
    expect(next.structured.status, next.text).toBe("needs-approval");
    const second = next.structured.approval as Approval;
    expect(second.id).not.toBe(first.id);
    const late = await callTool(client, "approve", { job, approval: first.id, answer: "reject" });
    expect(late.isError).toBe(true);
    expect(late.text).toBe(
      `approval ${first.id} of ${job} was answered already (once); it now waits on approval ${second.id}: gemini asks to run execute: $ touch probe.txt (exit 2, usage error)`,
    );
    const done = await callTool(client, "approve", { job, approval: second.id, answer: "reject" });
    expect(done.structured).toMatchObject({ reply: "ALLOWED proceed_once, REJECTED", exitCode: 0 });
    expect(questionFiles()).toEqual([]);
  });

  it("a turn on a warm session host asks the same way", async () => {
    writeFileSync(join(world.root, "config.toml"), '[agents.gemini]\ntransport = "acp"\n');
    const client = await connectMcp(world);
    const { job, approval } = await askingJob(client);
    const approved = await callTool(client, "approve", { job, approval: approval.id, answer: "once" });
    expect(approved.structured).toMatchObject({ reply: "ALLOWED proceed_once", exitCode: 0 });
    const handle = approved.structured.conversation as string;
    // The host kept the server: the next turn asks through it.
    const next = await callTool(client, "delegate", { conversation: handle, prompt: "use a tool again" });
    expect(next.structured.status, next.text).toBe("needs-approval");
    expect(acpCalls(world).map((call) => call.pid)).toHaveLength(1);
    const second = next.structured.approval as Approval;
    const rejected = await callTool(client, "approve", {
      job: next.structured.job as string,
      approval: second.id,
      answer: "reject",
    });
    expect(rejected.structured).toMatchObject({ reply: "REJECTED", exitCode: 0 });
    expect((await scv(world, ["kill", handle])).exitCode).toBe(0);
    expect(await survivors(acpCalls(world).map((call) => call.pid))).toEqual([]);
  });

  it("the turn's time limit runs while it waits: a timed-out job, no question left", async () => {
    config('timeout = "4s"\n');
    const client = await connectMcp(world);
    const { job, approval } = await askingJob(client);
    // A wait returns at once while the job waits for its answer: until the limit, it still does.
    const deadline = Date.now() + 20_000;
    let waited = await callTool(client, "wait", { job, wait_seconds: 30 });
    while (waited.structured.status === "needs-approval" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      waited = await callTool(client, "wait", { job, wait_seconds: 30 });
    }
    expect(waited.structured).toMatchObject({ status: "timeout", exitCode: 124 });
    expect(waited.structured.notes).toEqual([
      "gemini asked to run execute: $ touch probe.txt; the turn ended before it was answered, so it did not run",
    ]);
    expect(questionFiles()).toEqual([]);
    const late = await callTool(client, "approve", { job, approval: approval.id, answer: "once" });
    expect(late.isError).toBe(true);
  });
});
