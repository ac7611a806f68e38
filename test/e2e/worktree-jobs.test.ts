// `--worktree` for turns scv does not wait on in the foreground: `--background` jobs (each its own
// worktree and branch, made before the job starts; `scv wait` carries what each changed and its
// check; `scv compare` and `scv diff` take the job), and the MCP `delegate` tool's `worktree: true`
// (its structured content the --json object, worktree fields and all).

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterEach, describe, expect, it } from "vitest";
import { gitEnv, gitIn, initRepo, scvInRepo } from "../helpers/git-repo.js";
import { useLab } from "../helpers/lab.js";
import { conversationRecord, SCV, signIn } from "../helpers/scv.js";
import { fileHashes } from "../worktrees/repos.js";

const lab = useLab();

const inRepo = (args: readonly string[], env: Record<string, string> = {}) => scvInRepo(lab.world, args, env);

const git = (args: readonly string[], cwd?: string) => gitIn(lab.world, args, cwd);

let client: Client | undefined;
afterEach(async () => {
  await client?.close().catch(() => {});
  client = undefined;
});

describe("--worktree in the background and over MCP", () => {
  it("--background: each job in its own worktree; wait, compare and diff take the job", async () => {
    initRepo(lab.world);
    await signIn(lab.world, "claude");
    await signIn(lab.world, "codex");
    const before = fileHashes(lab.world.project);
    const env = { FAKE_AGENT_MODE: "write:notes.txt" };
    const launched = await inRepo(
      [
        "delegate",
        "--background",
        "--worktree",
        "claude",
        "codex",
        "--check",
        "grep -q wrote notes.txt",
        "--json",
        "edit",
      ],
      env,
    );
    expect(launched.exitCode, launched.stderr).toBe(0);
    const jobs = (JSON.parse(launched.stdout) as { job: string; handle: string }[]).map((each) => each.job);
    expect(jobs).toHaveLength(2);

    const waited = await inRepo(["wait", ...jobs, "--json"], env);
    expect(waited.exitCode, waited.stderr).toBe(0);
    const turns = JSON.parse(waited.stdout) as {
      agent: string;
      conversation: string;
      branch: string;
      worktree: string;
      commit: string;
      check: { status: string };
      diffstat: { files: number };
    }[];
    for (const turn of turns) {
      expect(turn).toMatchObject({
        branch: `scv/${turn.conversation}`,
        commit: expect.stringMatching(/^[0-9a-f]{40}$/),
        check: { status: "pass" },
        diffstat: { files: 1 },
      });
      expect(git(["show", `${turn.branch}:notes.txt`])).toBe(
        `${turn.agent} wrote this in ${turn.conversation}\n`,
      );
      expect(conversationRecord(lab.world, turn.conversation)).toMatchObject({ cwd: turn.worktree });
    }
    // The user's tree is as it was: every edit is on a branch of its own.
    expect(fileHashes(lab.world.project)).toEqual(before);

    // A job names its conversation for compare and diff.
    const compared = await inRepo(["compare", "--json", ...jobs]);
    expect(compared.exitCode, compared.stderr).toBe(0);
    expect(JSON.parse(compared.stdout)).toEqual(
      turns.map((turn) =>
        expect.objectContaining({
          agent: turn.agent,
          conversation: turn.conversation,
          check: "pass",
          files: 1,
        }),
      ),
    );
    const diff = await inRepo(["diff", jobs[0] ?? ""], { GIT_PAGER: "cat", PAGER: "cat" });
    expect(diff.exitCode, diff.stderr).toBe(0);
    expect(diff.stdout).toContain(`+${turns[0]?.agent} wrote this in ${turns[0]?.conversation}`);
  });

  it("the MCP delegate tool with worktree: true runs the agent in a worktree and says how to take it", async () => {
    initRepo(lab.world);
    await signIn(lab.world, "claude");
    client = new Client({ name: "scv-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [SCV, "mcp"],
        cwd: lab.world.project,
        env: { ...lab.world.env, ...gitEnv(lab.world), FAKE_AGENT_MODE: "write:notes.txt" } as Record<
          string,
          string
        >,
      }),
    );
    const result = await client.callTool(
      {
        name: "delegate",
        arguments: { agent: "claude", prompt: "edit notes", worktree: true, check: "test -s notes.txt" },
      },
      { timeout: 90_000 },
    );
    const text = (result.content as { type: string; text: string }[])[0]?.text ?? "";
    expect(result.isError, text).not.toBe(true);
    const structured = result.structuredContent as Record<string, unknown>;
    const handle = structured.conversation as string;
    expect(structured).toMatchObject({
      branch: `scv/${handle}`,
      worktree: expect.stringContaining(join("worktrees")),
      commit: expect.stringMatching(/^[0-9a-f]{40}$/),
      diffstat: { files: 1, added: 1, removed: 1 },
      check: { command: "test -s notes.txt", status: "pass" },
    });
    expect(text).toContain(`scv apply ${handle}`);
    // The user's file is untouched; the branch has the edit.
    expect(readFileSync(join(lab.world.project, "notes.txt"), "utf8")).toBe("base\n");
    expect(git(["show", `scv/${handle}:notes.txt`])).toBe(`claude wrote this in ${handle}\n`);
  });
});
