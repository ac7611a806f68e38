// `scv mcp` through the MCP SDK's own client over stdio, the built scv against fake agents, continued
// (server.test.ts has the tools, turns, progress, cancel and failures): replies too long for one
// result, stdout carrying only protocol, jobs that outlive the server or share a conversation, a busy
// conversation, and the spare runner.

import { spawn } from "node:child_process";
import { existsSync, readdirSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import type { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { describe, expect, it } from "vitest";
import { lockConversation } from "../../src/home/conversations.js";
import { turnFiles } from "../helpers/background.js";
import { type CallResult, callTool, connectMcp } from "../helpers/mcp-client.js";
import { settledTurnFiles, useMcpLab } from "../helpers/mcp-world.js";
import { isAlive } from "../helpers/pids.js";
import { closeGate, openGate, SCV, scv, signIn, type World } from "../helpers/scv.js";

let world: World;
const _leftovers = useMcpLab((created) => {
  world = created;
});

/** What a result costs of a host's limit: the larger of its text and its structured content. */
function shown(result: CallResult): number {
  return Math.max(Buffer.byteLength(result.text), Buffer.byteLength(JSON.stringify(result.structured)));
}

describe("scv mcp", () => {
  it("a reply longer than a tool result comes in parts, each saying where the next starts", async () => {
    await signIn(world, "claude");
    const prompt = Array.from({ length: 900 }, (_, i) => `line ${i} ${"x".repeat(60)}`).join("\n");
    const client = await connectMcp(world, { FAKE_AGENT_MODE: "reply", MAX_MCP_OUTPUT_TOKENS: "10000" });
    const first = await callTool(client, "delegate", { agent: "claude", prompt });
    const conversation = first.structured.conversation as string;
    const whole = `REPLY ${prompt}`;
    let read = first.structured.reply as string;
    // 2 bytes a token of the host's limit, for every form of the result.
    expect(shown(first)).toBeLessThanOrEqual(20_000);
    const note = new RegExp(
      `^\\[The reply is cut to fit one tool result: characters 0–${read.length} of ${whole.length}\\. For the rest, call wait with job (${conversation}\\.[0-9a-z]{8}) and offset ${read.length} `,
    ).exec(first.text);
    expect(note, first.text).not.toBeNull();
    const job = note?.[1] ?? "";
    // Until it is read whole, the shell can read it too.
    expect(turnFiles(world)).toContain(`${job}.done.json`);
    for (let part = 0; part < 10 && read.length < whole.length; part += 1) {
      const next = await callTool(client, "wait", { job, offset: read.length });
      expect(next.isError, next.text).toBe(false);
      expect(shown(next)).toBeLessThanOrEqual(20_000);
      read += next.structured.reply as string;
    }
    expect(read).toBe(whole);
    expect(await settledTurnFiles(world)).toEqual([]);
  });

  it("every part of a long reply fits what hosts show: text and structured content each within 45 000 bytes", async () => {
    await signIn(world, "claude");
    // What a host shows costs more than the reply's characters: quotes and backslashes escaped in
    // JSON, line breaks too, and characters of 2 to 4 bytes.
    const prompt = Array.from(
      { length: 2500 },
      (_, i) => `line ${i}: {"path": "C:\\\\src\\\\x.ts", "text": "naïve — 😀 \\"quoted\\""}`,
    ).join("\n");
    const client = await connectMcp(world, { FAKE_AGENT_MODE: "reply" });
    const whole = `REPLY ${prompt}`;
    let read = "";
    let job: string | undefined;
    let parts = 0;
    while (read.length < whole.length && parts < 20) {
      const part =
        job === undefined
          ? await callTool(client, "delegate", { agent: "claude", prompt })
          : await callTool(client, "wait", { job, offset: read.length });
      expect(part.isError, part.text).toBe(false);
      parts += 1;
      expect(Buffer.byteLength(part.text), `part ${parts}: text`).toBeLessThanOrEqual(45_000);
      expect(
        Buffer.byteLength(JSON.stringify(part.structured)),
        `part ${parts}: structured`,
      ).toBeLessThanOrEqual(45_000);
      read += part.structured.reply as string;
      if (read.length < whole.length) {
        // Not needlessly small either.
        expect(shown(part)).toBeGreaterThan(40_000);
        job ??= /call wait with job (\S+) and offset/.exec(part.structured.next as string)?.[1];
        expect(part.structured.next).toContain(`call wait with job ${job} and offset ${read.length}`);
      }
    }
    expect(read).toBe(whole);
    expect(parts).toBeGreaterThan(2);
    expect(await settledTurnFiles(world)).toEqual([]);
  });

  it("stdout carries only protocol, stderr scv's own lines; stdin closing ends the server with exit 0", async () => {
    const messages = [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "raw", version: "1" },
        },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "delegate", arguments: { agent: "nosuch", prompt: "hi" } },
      },
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "status", arguments: {} } },
    ];
    const server = spawn(process.execPath, [SCV, "mcp"], { cwd: world.project, env: world.env });
    let stdout = "";
    let stderr = "";
    server.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const answered = new Promise<void>((resolve) => {
      server.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.split("\n").length > 3) resolve();
      });
    });
    for (const message of messages) server.stdin.write(`${JSON.stringify(message)}\n`);
    await answered;
    server.stdin.end();
    const code = await new Promise((resolve) => server.on("close", resolve));
    expect(code, stderr).toBe(0);
    const replies = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { jsonrpc: string; id?: number; result?: unknown });
    expect(replies.every((reply) => reply.jsonrpc === "2.0")).toBe(true);
    expect(replies.map((reply) => reply.id).sort()).toEqual([1, 2, 3]);
    expect(replies.find((reply) => reply.id === 2)?.result).toMatchObject({ isError: true });
    expect(stderr).toMatch(/^scv mcp \S+: serving 8 tools on stdio\n$/);
  });

  it("a job outlives the server: a new server waits for it", async () => {
    const first = await connectMcp(world, { FAKE_AGENT_MODE: "gate" });
    const started = await callTool(first, "delegate", { agent: "gemini", prompt: "Work", wait_seconds: 0 });
    const job = started.structured.job as string;
    await first.close();
    const second = await connectMcp(world);
    expect((await callTool(second, "status", {})).text).toMatch(new RegExp(`^${job}  gemini  \\d+s  `));
    openGate(world);
    const waited = await callTool(second, "wait", { job, wait_seconds: 20 });
    expect(waited.structured).toMatchObject({
      reply: "MOCK-REPLY-1",
      conversation: job.replace(/\.[0-9a-z]{8}$/, ""),
    });
  });

  it("jobs of one conversation: each reply is its own job's; reading one leaves the others'", async () => {
    await signIn(world, "claude");
    const client = await connectMcp(world, { FAKE_AGENT_MODE: "reply" });
    const first = await callTool(client, "delegate", { agent: "claude", prompt: "Say hi" });
    const conversation = first.structured.conversation as string;
    const starts = await Promise.all(
      [0, 1, 2, 3, 4].map((index) =>
        callTool(client, "delegate", { conversation, prompt: `turn ${index}`, wait_seconds: 0 }),
      ),
    );
    const jobs: { job: string; prompt: string }[] = [];
    for (const [index, start] of starts.entries()) {
      if (start.isError) {
        // The job holding it, that it is free now (its turn having ended meanwhile), or, a turn still
        // starting or ending on a loaded machine, that a live scv holds it: one line as any refused
        // call says it, whether the launcher refused it or its detached scv did; never "killed".
        expect(start.text).toMatch(
          new RegExp(
            `^conversation ${conversation} (is busy with job ${conversation}\\.[0-9a-z]{8} — wait for it: scv wait ${conversation}\\.[0-9a-z]{8}|was busy and is free now — try again|is in use by another scv that holds its lock \\(scv attach, conversations rm, or a turn starting or ending\\) — try again once it is done) \\(exit 2, usage error\\)$`,
          ),
        );
        continue;
      }
      if (start.structured.status === "running") {
        jobs.push({ job: start.structured.job as string, prompt: `turn ${index}` });
      } else {
        expect(start.structured.reply).toBe(`REPLY turn ${index}`);
      }
    }
    expect(new Set(jobs.map((each) => each.job)).size).toBe(jobs.length);
    for (const [index, each] of jobs.entries()) {
      const waited = await callTool(client, "wait", { job: each.job, wait_seconds: 20 });
      expect(waited.structured).toMatchObject({ reply: `REPLY ${each.prompt}`, conversation });
      const status = await callTool(client, "status", { job: jobs[index + 1]?.job ?? each.job });
      if (index + 1 < jobs.length) expect(status.isError, status.text).toBe(false);
    }
    const bad = await callTool(client, "wait", { job: conversation });
    expect(bad).toMatchObject({ isError: true });
    expect(bad.text).toMatch(/give the job a delegate call returned, like codex-k3f9x2\.a1b2c3d4/);
  }, 60_000);

  it("a busy conversation is one refused call's line, refused by the launcher or by the detached scv", async () => {
    await signIn(world, "claude");
    const client = await connectMcp(world, { FAKE_AGENT_MODE: "gate" });
    openGate(world);
    const first = await callTool(client, "delegate", { agent: "claude", prompt: "Say hi", wait_seconds: 20 });
    const conversation = first.structured.conversation as string;
    // The launcher sees the running turn that holds it.
    closeGate(world);
    const running = await callTool(client, "delegate", { conversation, prompt: "one", wait_seconds: 0 });
    const job = running.structured.job as string;
    const refused = await callTool(client, "delegate", { conversation, prompt: "two", wait_seconds: 0 });
    expect(refused.isError).toBe(true);
    expect(refused.text).toBe(
      `conversation ${conversation} is busy with job ${job} — wait for it: scv wait ${job} (exit 2, usage error)`,
    );
    expect(refused.structured).toEqual({
      error: `conversation ${conversation} is busy with job ${job} — wait for it: scv wait ${job}`,
      exitCode: 2,
    });
    openGate(world);
    await callTool(client, "wait", { job, wait_seconds: 20 });
    // A lock no running turn shows, which a live process (this test) holds and refreshes: only the
    // detached scv, after its lock wait and one refresh, refuses it, as in use.
    const release = await lockConversation(conversation, world.env, 0);
    try {
      const late = await callTool(client, "delegate", { conversation, prompt: "three", wait_seconds: 0 });
      expect(late.isError).toBe(true);
      expect(late.text).toMatch(
        new RegExp(
          `^conversation ${conversation} is in use by another scv that holds its lock \\(scv attach, conversations rm, or a turn starting or ending\\) — try again once it is done \\(exit 2, usage error\\)$`,
        ),
      );
    } finally {
      await release();
    }
  });

  it("keeps one spare runner loaded: a delegate's job runs in it, a new one follows, and it goes with the server", async () => {
    const client = await connectMcp(world, { FAKE_AGENT_MODE: "gate" });
    const server = (client.transport as StdioClientTransport).pid ?? -1;
    const spareLog = (n: number) => join(world.scvHome, "turns", `spare.${server}.${n}.log`);
    const spare = await writerOf(spareLog(1));
    expect(spare).toBeGreaterThan(0);

    const started = await callTool(client, "delegate", { agent: "gemini", prompt: "Work", wait_seconds: 0 });
    const job = started.structured.job as string;
    // The turn runs in the scv that was loaded before the call, its log renamed to the job's.
    const [row] = JSON.parse((await scv(world, ["ps", "--json"])).stdout) as { scvPid: number }[];
    expect(row?.scvPid).toBe(spare);
    expect(existsSync(spareLog(1))).toBe(false);
    expect(existsSync(join(world.scvHome, "turns", `${job}.log`))).toBe(true);
    const next = await writerOf(spareLog(2));
    expect(next).not.toBe(spare);
    openGate(world);

    expect((await callTool(client, "wait", { job, wait_seconds: 20 })).structured).toMatchObject({
      reply: "MOCK-REPLY-1",
    });
    await client.close();
    const deadline = Date.now() + 10_000;
    while ((isAlive(next) || existsSync(spareLog(2))) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 25));
    expect(isAlive(next)).toBe(false);
    expect(existsSync(spareLog(2))).toBe(false);
  }, 60_000);
});

/** The pid of the process whose stdout is `log` (the spare writing its log), once there is one. */
async function writerOf(log: string): Promise<number> {
  const deadline = Date.now() + 15_000;
  for (; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 25))) {
    for (const name of readdirSync("/proc")) {
      if (!/^\d+$/.test(name)) continue;
      try {
        if (readlinkSync(`/proc/${name}/fd/1`) === log) return Number(name);
      } catch {
        // Gone, or not ours to read.
      }
    }
  }
  return -1;
}
