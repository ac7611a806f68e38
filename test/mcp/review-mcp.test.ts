// The MCP `review` tool and delegate's `review_by`, through the built `scv mcp` and the official SDK's
// client: the structured content is the `--json` report, the verdict first; review runs as a task for
// a host that asks, with the blocking call's answer; fake reviewers follow the real CLIs' grammars.

import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { CreateTaskResultV1Schema } from "@modelcontextprotocol/ext-tasks/core/v1";
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { useLab } from "../helpers/lab.js";
import { APPROVE, BLOCKER, documented, git, mode, replyFile, repository } from "../helpers/review-world.js";
import { agentCalls, SCV, signIn, type World } from "../helpers/scv.js";

let world: World;
let client: Client | undefined;
useLab((created) => {
  world = created;
});
afterEach(async () => {
  await client?.close().catch(() => {});
  client = undefined;
});

async function connected(): Promise<Client> {
  client = new Client({ name: "scv-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [SCV, "mcp"],
      cwd: world.project,
      env: world.env,
      stderr: "pipe",
    }),
  );
  return client;
}

interface Called {
  readonly text: string;
  readonly structured: Record<string, unknown>;
  readonly isError: boolean;
}

async function call(name: string, args: Record<string, unknown>): Promise<Called> {
  const mcp = await connected();
  const result = await mcp.callTool({ name, arguments: args }, { timeout: 90_000 });
  const content = result.content as { type: string; text: string }[];
  return {
    text: content[0]?.text ?? "",
    structured: (result.structuredContent ?? {}) as Record<string, unknown>,
    isError: result.isError === true,
  };
}

describe("the review tool", () => {
  // Once failed one run in three ("the result of <job> was read meanwhile"): the review job said it
  // had started before its first turn wrote the running record the blocking call then looks for.
  it("declares task support, and answers with the report: the verdict first, in the --json document's shape", async () => {
    repository(world);
    await signIn(world, "codex");
    mode(world, "codex", `reply-file:${replyFile(world, "blocker.json", BLOCKER)}`);
    const reviewed = await call("review", { reviewers: "codex" });
    expect(reviewed.isError, reviewed.text).toBe(false);
    expect(Object.keys(reviewed.structured)[0]).toBe("verdict");
    expect(reviewed.structured.verdict).toBe("request-changes");
    documented("review", JSON.stringify(reviewed.structured));
    expect(reviewed.text).toContain("changes requested");
    expect(reviewed.text).toContain("add subtracts its arguments");
    const codex = agentCalls(world).find((each) => each.cli === "codex");
    expect(codex?.argv).toContain("--output-schema");
    const tools = (await (client as Client).listTools()).tools;
    expect(tools.find((tool) => tool.name === "review")?.execution).toEqual({ taskSupport: "optional" });
  });

  it("runs as a task: tasks/result is the blocking call's report", async () => {
    repository(world);
    await signIn(world, "codex");
    mode(world, "codex", `reply-file:${replyFile(world, "approve.json", APPROVE)}`);
    const mcp = await connected();
    const created = CreateTaskResultV1Schema.parse(
      await mcp.request(
        {
          method: "tools/call",
          params: { name: "review", arguments: { reviewers: ["codex"] }, task: { ttl: 120_000 } },
        },
        CreateTaskResultV1Schema,
      ),
    );
    const result = await mcp.request(
      { method: "tasks/result", params: { taskId: created.task.taskId } },
      z.looseObject({ structuredContent: z.record(z.string(), z.unknown()) }),
    );
    expect(Object.keys(result.structuredContent)[0]).toBe("verdict");
    expect(result.structuredContent.verdict).toBe("approve");
    expect(result.structuredContent.reviewers).toEqual([
      expect.objectContaining({ reviewer: "codex", status: "ok" }),
    ]);
  });

  it("refuses base with staged, and a folder that is no repository, as one line before anything runs", async () => {
    await signIn(world, "codex");
    const notRepo = await call("review", { reviewers: "codex" });
    expect(notRepo.isError).toBe(true);
    expect(notRepo.text.split("\n")).toHaveLength(1);
    repository(world);
    const both = await call("review", { reviewers: "codex", base: "main", staged: true });
    expect(both.isError).toBe(true);
    expect(both.text).toContain("base and staged each say what to review");
    expect(agentCalls(world)).toEqual([]);
  });
});

describe("delegate's review_by", () => {
  it("rounds 2: the author fixes what the reviewer asked; the result leads with the last verdict and carries each round", async () => {
    repository(world);
    git(world.project, ["add", "."]);
    git(world.project, ["commit", "-q", "-m", "second"]);
    await signIn(world, "claude");
    await signIn(world, "codex");
    mode(
      world,
      "claude",
      "write:sum.js=export const add = (a, b) => a + b;",
      "write:sum.js=export const add = (a, b) => a - b;",
    );
    const blocker = replyFile(world, "blocker.json", {
      ...BLOCKER,
      findings: BLOCKER.findings.map((each) => ({ ...each, file: "sum.js" })),
    });
    mode(world, "codex", `review-grep:a - b:${blocker}:${replyFile(world, "approve.json", APPROVE)}`);
    const delegated = await call("delegate", {
      agent: "claude",
      prompt: "Write sum.js",
      review_by: ["codex"],
      rounds: 2,
    });
    expect(delegated.isError, delegated.text).toBe(false);
    expect(Object.keys(delegated.structured)[0]).toBe("verdict");
    expect(delegated.structured.verdict).toBe("approve");
    const review = delegated.structured.review as { rounds: { report: { verdict: string } }[] };
    expect(review.rounds.map((round) => round.report.verdict)).toEqual(["request-changes", "approve"]);
    expect(agentCalls(world).map((each) => each.cli)).toEqual(["claude", "codex", "claude", "codex"]);
  });

  it("refuses rounds without review_by, and review_by with several agents", async () => {
    await signIn(world, "claude");
    const rounds = await call("delegate", { agent: "claude", prompt: "x", rounds: 2 });
    expect(rounds.isError).toBe(true);
    expect(rounds.text).toContain("rounds goes with review_by");
    const several = await call("delegate", { agent: ["claude", "codex"], prompt: "x", review_by: "auto" });
    expect(several.isError).toBe(true);
    expect(several.text).toContain("one author");
    expect(agentCalls(world)).toEqual([]);
  });
});
