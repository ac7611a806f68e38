// `scv mcp` through the MCP SDK's own client over stdio, the built scv against fake agents: the tools
// and their schemas, a turn that answers within the call and one that outlasts it (job → wait),
// progress notifications, cancel leaving no process, bad input and failures as tool errors in the
// command line's classes, fan-out, replies too long for one result, and jobs that outlive the server.

import { spawn } from "node:child_process";
import { existsSync, readdirSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterEach, describe, expect, it } from "vitest";
import { lockConversation } from "../../src/home/conversations.js";
import { turnResultShape } from "../../src/json-shapes.js";
import { useLab } from "../helpers/lab.js";
import { type CallResult, callTool, closeClients, connectMcp } from "../helpers/mcp-client.js";
import { isAlive, killAll, survivors } from "../helpers/pids.js";
import { agentPids, closeGate, openGate, SCV, scv, signIn, type World } from "../helpers/scv.js";

let world: World;
const leftovers: number[] = [];
useLab((created) => {
  world = created;
});
afterEach(async () => {
  await closeClients();
  killAll(leftovers.splice(0));
  await new Promise((resolve) => setTimeout(resolve, 50));
});

function turnFiles(): string[] {
  const dir = join(world.scvHome, "turns");
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

/** The turn files once the background scv that saved a result (read at once) has dropped its running
 * record, which it does right after (up to 5 s); without the log of the server's next spare runner. */
async function settledTurnFiles(): Promise<string[]> {
  const deadline = Date.now() + 5_000;
  while (turnFiles().some((name) => /^[^.]+\.json$/.test(name)) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 25));
  return turnFiles().filter((name) => !/^spare\.\d+\.\d+\.log$/.test(name));
}

/** What a result costs of a host's limit: the larger of its text and its structured content. */
function shown(result: CallResult): number {
  return Math.max(Buffer.byteLength(result.text), Buffer.byteLength(JSON.stringify(result.structured)));
}

/** A result without what differs between two runs of the same turn. */
function comparable(result: Record<string, unknown>): Record<string, unknown> {
  return { ...result, duration: 0, conversation: "<handle>", session: "<session>" };
}

describe("scv mcp", () => {
  it("lists its eight tools, each with a description and a JSON Schema of its input", async () => {
    const client = await connectMcp(world);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "delegate",
      "review",
      "wait",
      "cancel",
      "approve",
      "status",
      "agents",
      "conversations",
    ]);
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(80);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
      for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((property as { description?: string }).description, `${tool.name}.${name}`).toBeTruthy();
      }
    }
    const delegate = tools[0]?.inputSchema;
    expect(delegate?.required).toEqual(["prompt"]);
    expect(delegate?.properties?.wait_seconds).toMatchObject({ type: "number", minimum: 0, maximum: 55 });
  });

  it("delegate: agent@a,b goes down the account ladder as on the command line", async () => {
    await signIn(world, "claude", "work");
    await signIn(world, "claude", "personal");
    writeFileSync(join(world.scvHome, "agents", "claude@work", ".fake-mode"), "fixture:usage-limit");
    const client = await connectMcp(world);
    const result = await callTool(client, "delegate", { agent: "claude@work,personal", prompt: "Say hi" });
    expect(result.isError, result.text).toBe(false);
    expect(result.structured).toMatchObject({
      account: "personal",
      skipped: [{ account: "work", reason: "rate-limited" }],
      exitCode: 0,
    });
    // Several accounts for a conversation, which lives in one account's home, are refused.
    const handle = result.structured.conversation as string;
    const refused = await callTool(client, "delegate", {
      agent: "claude@work,personal",
      conversation: handle,
      prompt: "Again",
    });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("a conversation belongs to the one account its session is in");

    // The agents tool shows each account to pick from, and which one is cooling until when.
    const until = (result.structured.skipped as { until: string }[])[0]?.until;
    const agents = await callTool(client, "agents", { agent: "claude" });
    const [claude] = agents.structured.agents as { accounts: unknown }[];
    expect(claude?.accounts).toEqual([
      {
        account: "default",
        target: "claude",
        signedIn: "signed-out",
        detail: expect.any(String),
        coolingUntil: null,
      },
      {
        account: "personal",
        target: "claude@personal",
        signedIn: "signed-in",
        detail: expect.any(String),
        coolingUntil: null,
      },
      {
        account: "work",
        target: "claude@work",
        signedIn: "signed-in",
        detail: expect.any(String),
        coolingUntil: until,
      },
    ]);
    expect(agents.text).toContain(
      `Accounts: claude (not signed in), claude@personal (signed in), claude@work (signed in; cooling until ${until}).`,
    );
  });

  it("delegate: a fast turn's reply inline; as structured content the reply, the next step, then the object --json prints", async () => {
    await signIn(world, "claude");
    const client = await connectMcp(world, { FAKE_AGENT_MODE: "reply" });
    const result = await callTool(client, "delegate", { agent: "claude", prompt: "Say hi" });
    expect(result.isError).toBe(false);
    const handle = result.structured.conversation as string;
    expect(handle).toMatch(/^claude-[0-9a-z]{6}$/);
    const next = `To continue this conversation, call delegate with conversation ${handle}.`;
    expect(result.text).toBe(`REPLY Say hi\n\n[${next}]`);
    // What a host that shows the structured content shows its model starts with the reply and the
    // step to take.
    expect(JSON.stringify(result.structured)).toMatch(
      new RegExp(`^\\{"reply":"REPLY Say hi","next":"${next.replaceAll(".", "\\.")}",`),
    );
    const cli = await scv(world, ["delegate", "--json", "claude", "Say hi"], {
      env: { FAKE_AGENT_MODE: "reply" },
    });
    expect(cli.exitCode, cli.stderr).toBe(0);
    const printed = JSON.parse(cli.stdout) as Record<string, unknown>;
    const { next: _next, ...rest } = result.structured;
    expect(comparable(rest)).toEqual(comparable(printed));
    expect(turnResultShape().parse(rest)).toEqual(rest);
    // Read: nothing kept.
    expect(await settledTurnFiles()).toEqual([]);

    // The conversation continues by its handle, the agent coming from it.
    const again = await callTool(client, "delegate", { conversation: handle, prompt: "Again" });
    expect(again.isError, again.text).toBe(false);
    expect(again.structured).toMatchObject({ conversation: handle, reply: "REPLY Again" });
  });

  it("delegate: a slow turn returns its job; scv ps sees it; wait returns the reply", async () => {
    const client = await connectMcp(world, { FAKE_AGENT_MODE: "gate" });
    const started = await callTool(client, "delegate", { agent: "gemini", prompt: "Work", wait_seconds: 0 });
    expect(started.isError).toBe(false);
    const job = started.structured.job as string;
    // A job is one turn: its conversation's handle, a dot and 8 characters.
    expect(job).toMatch(/^gemini-[0-9a-z]{6}\.[0-9a-z]{8}$/);
    const conversation = job.replace(/\.[0-9a-z]{8}$/, "");
    const running = new RegExp(
      `^gemini is still working on job ${job} \\(\\d+s so far\\)\\. Call wait with job ${job} for its reply, or cancel to stop it\\.$`,
    );
    expect(started.text).toMatch(running);
    // The structured content says the same: what a host that shows it gives its model.
    expect(started.structured).toEqual({ status: "running", next: started.text, job, conversation });
    const ps = await scv(world, ["ps", "--json"]);
    expect(JSON.parse(ps.stdout)).toMatchObject([
      { handle: conversation, job, agent: "gemini", background: true },
    ]);

    const early = await callTool(client, "wait", { job, wait_seconds: 0 });
    expect(early.structured).toEqual({ status: "running", next: early.text, job, conversation });
    expect(early.text).toMatch(running);
    openGate(world);
    const waited = await callTool(client, "wait", { job, wait_seconds: 20 });
    expect(waited.isError, waited.text).toBe(false);
    expect(waited.structured).toMatchObject({
      reply: "MOCK-REPLY-1",
      status: "completed",
      conversation,
    });
    expect(await settledTurnFiles()).toEqual([]);
    const again = await callTool(client, "wait", { job });
    expect(again).toMatchObject({ isError: true });
    expect(again.text).toMatch(/^no job .* \(exit 2, usage error\)$/);
  });

  it("progress while it waits (elapsed, current tool); cancel stops the agent's whole group", async () => {
    await signIn(world, "claude");
    const client = await connectMcp(world, { FAKE_AGENT_MODE: "tool-hang" });
    const progress: { progress: number; message?: string }[] = [];
    const result = await callTool(
      client,
      "delegate",
      { agent: "claude", prompt: "Work", wait_seconds: 2 },
      (each) => progress.push(each),
    );
    const job = result.structured.job as string;
    expect(result.structured.status).toBe("running");
    expect(result.text).toMatch(/now: \$ /);
    leftovers.push(...(await agentPids(world)));
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress[0]?.message).toBe(`started claude (${job})`);
    // Every progressInterval (scaled in tests: several within the call's 2 s).
    expect(progress.at(-1)?.message).toMatch(/^claude [1-9]s — \$ /);
    const values = progress.map((each) => each.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));

    const cancelled = await callTool(client, "cancel", { job });
    expect(cancelled.isError, cancelled.text).toBe(false);
    expect(cancelled.text).toMatch(new RegExp(`^Stopped ${job} and everything its agent started\\.`));
    expect(cancelled.structured).toMatchObject({
      status: "cancelled",
      exitCode: 143,
      conversation: job.replace(/\.[0-9a-z]{8}$/, ""),
    });
    expect(await survivors(leftovers)).toEqual([]);
    expect(JSON.parse((await scv(world, ["ps", "--json"])).stdout)).toEqual([]);
    // Its result was read by the cancel; only a log would be left for gc, and not even that.
    expect(await settledTurnFiles()).toEqual([]);
  });

  it("failures are tool errors in the command line's classes; bad arguments get the schema's message", async () => {
    writeFileSync(join(world.root, "config.toml"), '[agents.codex]\ncommand = "/nonexistent/codex"\n');
    const client = await connectMcp(world, { SCV_CONFIG: join(world.root, "config.toml") });
    const cases: [Record<string, unknown>, RegExp][] = [
      [
        { agent: "claude", prompt: "hi" },
        /^claude failed \(exit 4, not signed in\): .*scv agents login claude/,
      ],
      [{ agent: "codex", prompt: "hi" }, /^codex failed \(exit 3, not installed\): /],
      [{ agent: "nosuch", prompt: "hi" }, /^unknown agent 'nosuch' — known: .* \(exit 2, usage error\)$/],
      [{ prompt: "hi" }, /^name an agent .* \(exit 2, usage error\)$/],
      [
        { agent: ["claude", "gemini"], conversation: "claude-aaaaaa", prompt: "hi" },
        /continues with its own agent/,
      ],
      [{ agent: "gemini", prompt: "hi", wait_seconds: 99 }, /wait_seconds: at most 55/],
      [{ agent: "gemini", prompt: "" }, /prompt: write the task for the agent/],
      [{ agent: "gemini", prompt: "hi", timeout: "5m" }, /Unrecognized key.*timeout/i],
      [{ agent: 3, prompt: "hi" }, /agent: an agent's name \(codex\) or a list of names/],
    ];
    for (const [args, message] of cases) {
      const result = await callTool(client, "delegate", args);
      expect([JSON.stringify(args), result.isError]).toEqual([JSON.stringify(args), true]);
      expect(result.text).toMatch(message);
      expect(result.text).not.toContain("\n    at ");
    }
    const badJob = await callTool(client, "wait", { job: "../etc/passwd" });
    expect(badJob).toMatchObject({ isError: true });
    expect(badJob.text).toMatch(
      /job: the job a delegate call returned|give the job a delegate call returned/,
    );
    // The server is still there.
    expect((await callTool(client, "status", {})).text).toBe("No agent turns are running.");
    expect(await settledTurnFiles()).toEqual([]);
  });

  it("fan-out: each agent in its own conversation, the replies under headers in the order given", async () => {
    await signIn(world, "claude");
    const client = await connectMcp(world, { FAKE_AGENT_MODE: "reply" });
    const result = await callTool(client, "delegate", { agent: ["claude", "gemini"], prompt: "Say hi" });
    expect(result.isError, result.text).toBe(false);
    const results = result.structured.results as Record<string, unknown>[];
    expect(results.map((each) => [each.agent, each.reply])).toEqual([
      ["claude", "REPLY Say hi"],
      ["gemini", "MOCK-REPLY-1"],
    ]);
    const [claude, gemini] = results.map((each) => each.conversation as string);
    expect(result.text).toMatch(
      new RegExp(
        `^=== claude \\(${claude}\\) ===\\nREPLY Say hi\\n[^]*\\n\\n=== gemini \\(${gemini}\\) ===\\nMOCK-REPLY-1\\n`,
      ),
    );
    expect(await settledTurnFiles()).toEqual([]);
  });

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
    expect(turnFiles()).toContain(`${job}.done.json`);
    for (let part = 0; part < 10 && read.length < whole.length; part += 1) {
      const next = await callTool(client, "wait", { job, offset: read.length });
      expect(next.isError, next.text).toBe(false);
      expect(shown(next)).toBeLessThanOrEqual(20_000);
      read += next.structured.reply as string;
    }
    expect(read).toBe(whole);
    expect(await settledTurnFiles()).toEqual([]);
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
    expect(await settledTurnFiles()).toEqual([]);
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
        // The job holding it, or (its turn having ended meanwhile) that it is free now: one line as
        // any refused call says it, whether the launcher refused it or its detached scv did.
        expect(start.text).toMatch(
          new RegExp(
            `^conversation ${conversation} (is busy with job ${conversation}\\.[0-9a-z]{8} — wait for it: scv wait ${conversation}\\.[0-9a-z]{8}|was busy and is free now — try again) \\(exit 2, usage error\\)$`,
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
    // A lock no running turn shows: only the detached scv, after its lock wait, refuses it.
    const release = await lockConversation(conversation, world.env, 0);
    try {
      const late = await callTool(client, "delegate", { conversation, prompt: "three", wait_seconds: 0 });
      expect(late.isError).toBe(true);
      expect(late.text).toMatch(
        new RegExp(
          `^conversation ${conversation} is locked, but no running turn holds it \\(an scv that was killed left it\\) — it frees by itself in \\d+s; continue it then \\(exit 2, usage error\\)$`,
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
