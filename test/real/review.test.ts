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

const BLOCKER = {
  verdict: "request-changes",
  summary: "add subtracts",
  findings: [
    {
      severity: "blocker",
      file: "calc.js",
      line: 1,
      endLine: null,
      title: "add subtracts its arguments",
      body: "a - b is not a sum",
      suggestion: "a + b",
    },
  ],
};

const REVIEWERS = ["codex", "claude"] as const;
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
      codex: await startMock({ shape: MOCK_SHAPE.codex, script: () => ({ text: JSON.stringify(BLOCKER) }) }),
      claude: await startMock({
        shape: MOCK_SHAPE.claude,
        // The structured-output tool with the verdict, then a line of text once its result is back.
        script: ({ toolResult }) =>
          toolResult === undefined
            ? { tool: { suffix: "StructuredOutput", input: BLOCKER } }
            : { text: "Review delivered." },
      }),
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
});
