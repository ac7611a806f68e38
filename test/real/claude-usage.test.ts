// Claude Code's result usage after an interrupted turn. Its `modelUsage` and `total_cost_usd` carry on
// from the session's saved total when a session is resumed, so scv counts a turn as its share of that
// running total. A turn stopped with Ctrl-C prints no result, yet Claude Code saves what it had spent
// when it exits: the next turn's total includes it. The built scv drives the real CLI against its mock:
// a first turn, a second stopped with SIGINT to scv while the mock holds its request, a third; each
// turn's usage is what the mock answered for that turn alone.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MOCK_SHAPE, shellQuote } from "./clis.js";
import { describeRun, type Lab, scvEntry } from "./harness.js";
import {
  agentToml,
  BIN,
  dummyKey,
  expectNothingLeft,
  expectTurn,
  named,
  newCanary,
  newLab,
  writeEndpoint,
} from "./kit.js";
import { type MockServer, startMock } from "./mock/server.mjs";
import { PROFILES } from "./profiles.js";

const profile = PROFILES.find((candidate) => candidate.cli === "claude");

describe.skipIf(BIN === undefined || profile === undefined)("claude: usage after an interrupted turn", () => {
  const who = named("claude");
  let lab: Lab;
  let mock: MockServer;
  let trap: MockServer;
  let stream: string;

  beforeAll(async () => {
    trap = await startMock({ shape: "openai-chat" });
    mock = await startMock({ shape: MOCK_SHAPE.claude });
    lab = newLab("claude-usage", newCanary(), trap);
    stream = join(lab.root, "claude-stdout.jsonl");
    const wrapper = join(lab.root, "claude-tee.sh");
    writeFileSync(stream, "");
    writeFileSync(
      wrapper,
      [
        "#!/bin/bash",
        `${shellQuote(join(BIN ?? "", "claude"))} "$@" | tee -a ${shellQuote(stream)}`,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash expansion, not a template
        'exit "${PIPESTATUS[0]}"',
        "",
      ].join("\n"),
      { mode: 0o755 },
    );
    const key = dummyKey("claude");
    const endpoint = await writeEndpoint(lab, profile ?? PROFILES[0]!, mock, key);
    lab.writeConfig(
      agentToml("claude", { model: endpoint.config.model, command: wrapper }, endpoint.agentEnv),
    );
    const login = await lab.scv(["agents", "login", "claude", "--with-api-key"], { input: `${key}\n` });
    expect(login.code, describeRun(login)).toBe(0);
  });

  afterAll(async () => {
    await mock?.close();
    await trap?.close();
    await lab?.[Symbol.asyncDispose]();
  });

  it("the turn after a Ctrl-C'd one counts only its own tokens", { timeout: 240_000 }, async () => {
    const first = expectTurn(
      "claude",
      await lab.scv(["delegate", "--json", "claude", "usage one: say hi"]),
      0,
    );
    const handle = first.conversation ?? "";

    // The second turn: a tool call answered, then the mock holds the next request; Ctrl-C meanwhile.
    mock.setMode(["tool", "hang"]);
    const from = mock.requests.length;
    const args = ["delegate", "--json", "--policy", "auto", "-c", handle, "usage two: run it"];
    const child = spawn(process.execPath, [scvEntry(), ...args], {
      cwd: lab.cwd,
      env: lab.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const deadline = Date.now() + 90_000;
    while (!mock.requests.slice(from).some((request) => request.mode === "hang")) {
      if (Date.now() > deadline)
        throw new Error(`${who}: the second turn never reached the held request; ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    child.kill("SIGINT");
    const code = await new Promise((resolve) => child.once("close", resolve));
    expect(code, stderr).toBe(130);
    await expectNothingLeft(lab, "claude", "the interrupted turn");
    const stopped = JSON.parse(stdout) as { status: string; usage: { input?: number } | null };
    expect(stopped.status).toBe("cancelled");
    mock.setMode("ok");

    const third = expectTurn(
      "claude",
      await lab.scv(["delegate", "--json", "-c", handle, "usage three: again"]),
      0,
    );
    const result = JSON.parse(
      readFileSync(stream, "utf8")
        .split("\n")
        .filter((line) => line.includes('"type":"result"'))
        .at(-1) ?? "{}",
    ) as { usage?: { input_tokens?: number }; modelUsage?: Record<string, { inputTokens?: number }> };
    const total = Object.values(result.modelUsage ?? {}).reduce(
      (sum, model) => sum + (model.inputTokens ?? 0),
      0,
    );
    const own = result.usage?.input_tokens;
    // Claude Code's running total counts all three turns' model calls; its main-loop `usage` is this
    // process's own (one model call, no side calls here).
    expect(total, `${who}: the running total no longer carries the stopped turn`).toBeGreaterThan(
      (own ?? 0) * 2,
    );
    expect(third.usage?.input, `${who}: turn 3 counted more than its own model call`).toBe(own);
    // Nothing is lost: the conversation's total is Claude Code's.
    const record = JSON.parse((await lab.scv(["conversations", "show", handle, "--json"])).stdout);
    expect(record.usage.input).toBe(total);
    expect(first.usage?.input).toBeGreaterThan(0);
    expect(stopped.usage?.input).toBe(total - (first.usage?.input ?? 0) - (own ?? 0));
  });
});
