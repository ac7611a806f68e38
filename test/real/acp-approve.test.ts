// The MCP approval flow with a real CLI over ACP: the BUILT `scv mcp`, driven by the MCP SDK's own
// client, delegates to the real Gemini CLI and Qwen Code over their ACP servers (`transport = "acp"`,
// policy default) against a loopback mock in `tool` mode, which answers the first request with a call
// of the CLI's shell tool (`touch scv-tool-probe.txt`). The CLI asks to run it
// (`session/request_permission`); the job must stop in needs-approval naming the command, the probe
// file must not exist yet, and `approve` once must let the command run (the file appears) and the
// turn finish with the mock's text. A second turn answered `reject` must leave no file. Nothing of
// either turn may be left running, and no exported credential may reach the CLI.

import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MOCK_SHAPE } from "./clis.js";
import { type Lab, scvEntry } from "./harness.js";
import {
  agentToml,
  BIN,
  dummyKey,
  expectNothingLeft,
  named,
  newCanary,
  newLab,
  wireText,
  writeEndpoint,
} from "./kit.js";
import { type MockServer, startMock } from "./mock/server.mjs";
import { PROBE_FILE } from "./mock/tools.mjs";
import { PROFILES, type Profile, row } from "./profiles.js";

const profiles = PROFILES.filter((profile) => ["gemini", "qwen"].includes(profile.cli));

/** Questions answered in one turn before the test gives up on it (and cancels it). */
const MAX_QUESTIONS = 4;

interface CallResult {
  readonly text: string;
  readonly structured: Record<string, unknown>;
  readonly isError: boolean;
}

describe.skipIf(BIN === undefined).each(profiles)(
  "ACP contract: scv mcp → $cli, a permission request under policy default",
  (profile: Profile) => {
    const { cli } = profile;
    const who = `${named(cli)} over ACP through scv mcp`;
    let trap: MockServer;
    let mock: MockServer;
    let lab: Lab;
    let canary: string;
    let client: Client;

    async function call(name: string, args: Record<string, unknown>): Promise<CallResult> {
      const result = await client.callTool({ name, arguments: args }, { timeout: 150_000 });
      const content = result.content as { type: string; text: string }[];
      return {
        text: content[0]?.text ?? "",
        structured: (result.structuredContent ?? {}) as Record<string, unknown>,
        isError: result.isError === true,
      };
    }

    /** A new `scv mcp` (the test closes it, and with it its spare runner, before counting what is
     * left running). */
    async function connect(): Promise<void> {
      client = new Client({ name: "scv-contract", version: "1.0.0" });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [scvEntry(), "mcp"],
          cwd: lab.cwd,
          env: lab.env,
          stderr: "pipe",
        }),
      );
    }

    /** A delegate call whose agent asks to run the probe: its job and approval. */
    async function askingJob(prompt: string): Promise<{ job: string; approval: Record<string, unknown> }> {
      const started = await call("delegate", { agent: cli, prompt, policy: "default", wait_seconds: 55 });
      let state = started;
      const deadline = Date.now() + 120_000;
      while (state.structured.status === "running" && Date.now() < deadline) {
        state = await call("wait", { job: started.structured.job as string, wait_seconds: 30 });
      }
      expect(state.structured.status, `${who}: ${state.text}`).toBe("needs-approval");
      const approval = state.structured.approval as Record<string, unknown>;
      expect(String(approval.summary), `${who}: ${state.text}`).toContain("touch");
      expect(approval.answers).toContain("reject");
      expect(existsSync(join(lab.cwd, PROBE_FILE)), `${who}: the command ran before it was approved`).toBe(
        false,
      );
      return { job: state.structured.job as string, approval };
    }

    beforeAll(async () => {
      trap = await startMock({ shape: "openai-chat", text: "TRAP" });
      mock = await startMock({ shape: MOCK_SHAPE[cli], mode: "tool" });
      canary = newCanary();
      const key = dummyKey(cli);
      lab = newLab(cli, canary, trap);
      const endpoint = await writeEndpoint(lab, profile, mock, key);
      const model: Record<string, string> =
        row(cli).acp?.modelArgs === undefined ? {} : { model: endpoint.config.model };
      lab.writeConfig(
        agentToml(
          cli,
          { transport: "acp", policy: "default", ...model, session_idle: "0" },
          endpoint.agentEnv,
        ),
      );
      if (profile.signIn === "api-key") {
        const login = await lab.scv(["agents", "login", cli, "--with-api-key"], { input: `${key}\n` });
        expect(login.code).toBe(0);
      }
    }, 120_000);

    afterAll(async () => {
      try {
        await client?.close();
        for (const request of mock?.requests ?? [])
          expect(wireText(request), `${who}: an exported canary credential reached the CLI`).not.toContain(
            canary,
          );
        expect(trap?.requests.length ?? 0, `${who}: the CLI followed an exported endpoint`).toBe(0);
      } finally {
        await mock?.close();
        await trap?.close();
        await lab?.[Symbol.asyncDispose]();
      }
    });

    /** Answers every question the job asks with `answer` (at most MAX_QUESTIONS), waiting as it
     * runs, until it finishes; and how many it asked. */
    async function answerUntilDone(
      job: string,
      first: Record<string, unknown>,
      answer: "once" | "reject",
    ): Promise<{ state: CallResult; questions: number }> {
      let state = await call("approve", { job, approval: first.id, answer, wait_seconds: 55 });
      let questions = 1;
      const deadline = Date.now() + 180_000;
      while (Date.now() < deadline) {
        if (state.structured.status === "running") state = await call("wait", { job, wait_seconds: 30 });
        else if (state.structured.status === "needs-approval" && questions < MAX_QUESTIONS) {
          const approval = state.structured.approval as Record<string, unknown>;
          questions += 1;
          state = await call("approve", { job, approval: approval.id, answer, wait_seconds: 55 });
        } else break;
      }
      return { state, questions };
    }

    it("the job stops in needs-approval; approve once runs the command and the turn finishes", async () => {
      await connect();
      const { job, approval } = await askingJob(`approve flow for ${cli}: create the probe file`);
      const { state, questions } = await answerUntilDone(job, approval, "once");
      // One tool call, one question: a question seen again after its answer was taken is a bug.
      expect(questions, `${who}: ${state.text}`).toBe(1);
      expect(state.isError, `${who}: ${state.text}`).toBe(false);
      expect(state.structured.exitCode, `${who}: ${state.text}`).toBe(0);
      expect(existsSync(join(lab.cwd, PROBE_FILE)), `${who}: the approved command did not run`).toBe(true);
      expect(String(state.structured.reply)).toContain("MOCK-REPLY");
      await client.close();
      await expectNothingLeft(lab, cli, "an approved turn through scv mcp");
    }, 300_000);

    it("approve reject: the command never runs, and the result says it was rejected", async () => {
      // What the approved turn's command made.
      rmSync(join(lab.cwd, PROBE_FILE), { force: true });
      await connect();
      const { job, approval } = await askingJob(`reject flow for ${cli}: create the probe file`);
      const { state, questions } = await answerUntilDone(job, approval, "reject");
      if (state.structured.status === "needs-approval") await call("cancel", { job });
      expect(questions, `${who}: ${state.text}`).toBe(1);
      expect(state.structured.status, `${who}: ${state.text}`).not.toBe("needs-approval");
      expect(existsSync(join(lab.cwd, PROBE_FILE)), `${who}: a rejected command ran`).toBe(false);
      expect(state.structured.notes, `${who}: ${state.text}`).toEqual(
        expect.arrayContaining([expect.stringMatching(new RegExp(`^you rejected ${cli}'s `))]),
      );
      await client.close();
      await expectNothingLeft(lab, cli, "a rejected turn through scv mcp");
    }, 300_000);
  },
);
