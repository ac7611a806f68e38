// `scv mcp` through the MCP SDK's own client over stdio, the built scv against fake agents: the tools
// and their schemas, a turn that answers within the call and one that outlasts it (job → wait),
// progress notifications, cancel leaving no process, bad input and failures as tool errors in the
// command line's classes, fan-out. Long replies, the server's streams and jobs that outlive it are
// server-jobs.test.ts.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { turnResultShape } from "../../src/json-shapes.js";
import { callTool, connectMcp } from "../helpers/mcp-client.js";
import { settledTurnFiles, useMcpLab } from "../helpers/mcp-world.js";
import { survivors } from "../helpers/pids.js";
import { agentPids, openGate, scv, signIn, type World } from "../helpers/scv.js";

let world: World;
const leftovers = useMcpLab((created) => {
  world = created;
});

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
    expect(await settledTurnFiles(world)).toEqual([]);

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
    expect(await settledTurnFiles(world)).toEqual([]);
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
    expect(await settledTurnFiles(world)).toEqual([]);
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
    expect(await settledTurnFiles(world)).toEqual([]);
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
    expect(await settledTurnFiles(world)).toEqual([]);
  });
});
