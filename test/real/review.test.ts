// `scv review` with the real CLIs as reviewers, each against its own loopback mock: Codex held to the
// findings' schema through `--output-schema` (the mock's model replies with the JSON verdict, and the
// request carries the schema as a strict json_schema format), Claude Code through `--json-schema`
// (the mock's model calls its StructuredOutput tool with the verdict). The merged report names both
// reviewers and agrees on the one blocker; the exit code is 1; nothing is left running, and each
// reviewer left the working tree as it was.

import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reviewReportShape } from "../../src/review/report-json.js";
import { APPROVE, BLOCKER } from "../helpers/review-world.js";
import { describeRun, type Lab } from "./harness.js";
import {
  agentToml,
  BIN,
  dummyKey,
  expectNothingLeft,
  MOCK_SHAPE,
  newCanary,
  newLab,
  wireText,
  writeEndpoint,
} from "./kit.js";
import { type MockServer, startMock } from "./mock/server.mjs";
import { PROFILES } from "./profiles.js";

const REVIEWERS = ["codex", "claude"] as const;

interface Message {
  readonly role?: string;
  readonly content?: unknown;
}

/** The last message of an Anthropic request, and whether it carries a tool's result. */
function lastMessage(body: unknown): { text: string; toolResult: boolean } {
  const messages = ((body as { messages?: Message[] })?.messages ?? []) as Message[];
  const last = messages.at(-1);
  const blocks = Array.isArray(last?.content)
    ? (last.content as { type?: string; text?: string }[])
    : [{ type: "text", text: String(last?.content ?? "") }];
  return {
    text: blocks.map((block) => block.text ?? "").join("\n"),
    toolResult: blocks.some((block) => block.type === "tool_result"),
  };
}

/** Claude's model: as a reviewer (offered StructuredOutput), the blocker; as an author, a shell call
 * writing sum.js — with the bug at first, fixed once told the finding — then a line of text. */
function claudeModel({ body }: { body: unknown }) {
  const last = lastMessage(body);
  if (last.toolResult) return { text: "Done." };
  // Offered as the mock offers a tool: a name with its input schema (deferred tools have none).
  const tools = (body as { tools?: { name?: string; input_schema?: unknown }[] }).tools ?? [];
  if (tools.some((tool) => tool.input_schema !== undefined && tool.name?.endsWith("StructuredOutput")))
    return { tool: { suffix: "StructuredOutput", input: BLOCKER } };
  const sign = last.text.includes("add subtracts its arguments") ? "+" : "-";
  return { shell: `printf 'export const add = (a, b) => a ${sign} b;\\n' > sum.js` };
}
const profiles = REVIEWERS.map((cli) => PROFILES.find((each) => each.cli === cli));

function git(cwd: string, args: readonly string[]): void {
  const run = spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd });
  if (run.status !== 0) throw new Error(`git ${args.join(" ")}: ${String(run.stderr)}`);
}

describe.skipIf(BIN === undefined || profiles.includes(undefined))("scv review with real reviewers", () => {
  const suite = {} as { lab: Lab; trap: MockServer; mocks: Record<string, MockServer> };

  beforeAll(async () => {
    suite.trap = await startMock({ shape: "openai-chat", text: "TRAP" });
    suite.mocks = {
      // Codex's model asks for changes while the diff it is given holds the bug.
      codex: await startMock({
        shape: MOCK_SHAPE.codex,
        script: ({ body }) => ({
          text: JSON.stringify(JSON.stringify(body).includes("a - b") ? BLOCKER : APPROVE),
        }),
      }),
      claude: await startMock({ shape: MOCK_SHAPE.claude, script: claudeModel }),
    };
    suite.lab = newLab("review", newCanary(), suite.trap);
    let config = "";
    for (const profile of profiles) {
      if (profile === undefined) continue;
      const key = dummyKey(profile.cli);
      const mock = suite.mocks[profile.cli] as MockServer;
      const endpoint = await writeEndpoint(suite.lab, profile, mock, key, 0);
      config += agentToml(profile.cli, { model: endpoint.config.model }, endpoint.agentEnv);
      suite.lab.writeConfig(config);
      if (profile.signIn === "api-key") {
        const login = await suite.lab.scv(["agents", "login", profile.cli, "--with-api-key"], {
          input: `${key}\n`,
        });
        expect(login.code, describeRun(login)).toBe(0);
      }
    }
    const { cwd } = suite.lab;
    writeFileSync(join(cwd, "calc.js"), "export const add = (a, b) => a + b;\n");
    git(cwd, ["add", "."]);
    git(cwd, ["commit", "-q", "-m", "first"]);
    writeFileSync(join(cwd, "calc.js"), "export const add = (a, b) => a - b;\n");
  }, 180_000);

  afterAll(async () => {
    for (const mock of Object.values(suite.mocks ?? {})) await mock.close();
    await suite.trap?.close();
    await suite.lab?.[Symbol.asyncDispose]();
  });

  it("codex (--output-schema) and claude (--json-schema) each give the blocker; one merged finding, exit 1", async () => {
    const { lab, mocks } = suite;
    const started = Date.now();
    const run = await lab.scv(["review", "codex", "claude", "--json"], { limitMs: 240_000 });
    console.log(`scv review with real codex and claude: ${Date.now() - started} ms`);
    await expectNothingLeft(lab, "review", "the review");
    expect(run.code, describeRun(run)).toBe(1);
    const report = reviewReportShape().parse(JSON.parse(run.stdout));
    expect(report.verdict).toBe("request-changes");
    expect(
      report.reviewers.map((each) => [each.reviewer, each.status, each.verdict, each.repaired]),
      describeRun(run),
    ).toEqual([
      ["codex", "ok", "request-changes", 0],
      ["claude", "ok", "request-changes", 0],
    ]);
    expect(report.findings).toHaveLength(1);
    expect(report.findings[0]).toMatchObject({
      severity: "blocker",
      file: "calc.js",
      line: 1,
      scope: "diff",
      raisedBy: ["codex", "claude"],
    });
    // Codex sent the findings' schema as its response format; both models were given the diff.
    const codexRequest = mocks.codex?.generationRequests()[0];
    expect(JSON.stringify(codexRequest?.body ?? {})).toContain('"json_schema"');
    for (const mock of [mocks.codex, mocks.claude]) {
      const first = mock?.generationRequests()[0];
      expect(first === undefined ? "" : wireText(first)).toContain("a - b");
    }
    expect(suite.trap.requests).toHaveLength(0);
    // Read-only: the change under review is as it was.
    expect(readFileSync(join(lab.cwd, "calc.js"), "utf8")).toBe("export const add = (a, b) => a - b;\n");
  });

  it("delegate --review-by codex --rounds 2 claude: author → reviewer (changes) → author given the findings → reviewer (approve)", async () => {
    const { lab, mocks } = suite;
    const before = mocks.codex?.generationRequests().length ?? 0;
    const started = Date.now();
    const run = await lab.scv(
      [
        "delegate",
        "--policy",
        "auto",
        "--review-by",
        "codex",
        "--rounds",
        "2",
        "--json",
        "claude",
        "Write sum.js",
      ],
      { limitMs: 180_000 },
    );
    console.log(`reviewed delegation, real claude and codex, two rounds: ${Date.now() - started} ms`);
    await expectNothingLeft(lab, "review", "the reviewed delegation");
    expect(run.code, describeRun(run)).toBe(0);
    const result = JSON.parse(run.stdout) as {
      review: { verdict: string; rounds: { report: { verdict: string; files: { path: string }[] } }[] };
    };
    expect(result.review.verdict).toBe("approve");
    expect(result.review.rounds.map((round) => round.report.verdict)).toEqual(["request-changes", "approve"]);
    // The author's changes only: not the uncommitted calc.js that was there before it ran.
    for (const round of result.review.rounds)
      expect(round.report.files.map((file) => file.path)).toEqual(["sum.js"]);
    expect(readFileSync(join(lab.cwd, "sum.js"), "utf8")).toBe("export const add = (a, b) => a + b;\n");
    expect((mocks.codex?.generationRequests().length ?? 0) - before).toBe(2);
    expect(suite.trap.requests).toHaveLength(0);
  }, 200_000);
});
