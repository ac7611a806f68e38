// Two accounts of the real Codex CLI, each signed in the way a user does it (`scv agents login
// codex@<account> --with-api-key`), each pointed by its own home's config.toml at its own loopback
// mock: account a's answers 429, so `codex@a,b` is answered by b, a fresh turn in b's home. a is
// cooled down and the next turn goes straight to b; the usage log counts each account's turns.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { usageReportSchema } from "../../src/home/usage-totals.js";
import { describeRun, type Lab } from "./harness.js";
import {
  agentToml,
  BIN,
  dummyKey,
  expectNothingLeft,
  MOCK_SHAPE,
  newCanary,
  newLab,
  turnResult,
  writeEndpoint,
} from "./kit.js";
import { type MockServer, startMock } from "./mock/server.mjs";
import { PROFILES } from "./profiles.js";

const profile = PROFILES.find((each) => each.cli === "codex");

/** The lab as `writeEndpoint` sees it, with codex's home being `account`'s. */
function accountLab(lab: Lab, account: string): Lab {
  return Object.assign(Object.create(lab) as Lab, {
    agentHome: (agent: string) => lab.agentHome(`${agent}@${account}`),
  });
}

describe.skipIf(BIN === undefined || profile === undefined)("two accounts of a real CLI (codex)", () => {
  const suite = {} as {
    lab: Lab;
    trap: MockServer;
    a: MockServer;
    b: MockServer;
    keys: Record<string, string>;
  };

  beforeAll(async () => {
    if (profile === undefined) return;
    suite.trap = await startMock({ shape: "openai-chat", text: "TRAP" });
    suite.a = await startMock({ shape: MOCK_SHAPE.codex });
    suite.b = await startMock({ shape: MOCK_SHAPE.codex });
    suite.lab = newLab("codex", newCanary(), suite.trap);
    suite.keys = { a: dummyKey("codex"), b: dummyKey("codex") };
    let config = "";
    for (const [account, mock] of [
      ["a", suite.a],
      ["b", suite.b],
    ] as const) {
      const endpoint = await writeEndpoint(
        accountLab(suite.lab, account),
        profile,
        mock,
        suite.keys[account] ?? "",
        0,
      );
      config = agentToml("codex", { model: endpoint.config.model }, endpoint.agentEnv);
    }
    suite.lab.writeConfig(config);
    for (const account of ["a", "b"]) {
      const login = await suite.lab.scv(["agents", "login", `codex@${account}`, "--with-api-key"], {
        input: `${suite.keys[account]}\n`,
      });
      expect(login.code, describeRun(login)).toBe(0);
    }
  }, 120_000);

  afterAll(async () => {
    await suite.a?.close();
    await suite.b?.close();
    await suite.trap?.close();
    await suite.lab?.[Symbol.asyncDispose]();
  });

  it("a 429 on account a moves the turn to account b, which answers; a then cools", async () => {
    const { lab, a, b, keys } = suite;
    a.setMode("429");
    const run = await lab.scv(["delegate", "--json", "codex@a,b", "account ladder turn"], {
      limitMs: 120_000,
    });
    await expectNothingLeft(lab, "codex", "the ladder turn");
    console.log(`codex@a,b: ${run.stderr.split("\n").find((line) => line.includes("trying codex@b"))}`);
    expect(run.code, describeRun(run)).toBe(0);
    const result = turnResult(run);
    expect(result.account, describeRun(run)).toBe("b");
    expect(result.skipped?.[0], describeRun(run)).toMatchObject({ account: "a", reason: "rate-limited" });
    expect(result.reply).toContain("MOCK-REPLY");
    expect(run.stderr).toMatch(/scv: codex@a is rate limited until \S+ — trying codex@b/);
    // Each account's key went to its own server only.
    const authorization = (mock: MockServer) =>
      new Set(mock.generationRequests().map((request) => String(request.headers.authorization ?? "")));
    expect(a.generationRequests().length).toBeGreaterThan(0);
    expect([...authorization(a)]).toEqual([`Bearer ${keys.a}`]);
    expect([...authorization(b)]).toEqual([`Bearer ${keys.b}`]);
    expect(suite.trap.requests).toHaveLength(0);

    // Cooling: the next turn does not start a's CLI at all.
    const before = a.requests.length;
    const again = await lab.scv(["delegate", "--json", "codex@a,b", "second turn"], { limitMs: 120_000 });
    expect(again.code, describeRun(again)).toBe(0);
    expect(turnResult(again).skipped?.[0]).toMatchObject({ account: "a", reason: "cooling" });
    expect(a.requests.length).toBe(before);
    // The answer keeps why a was passed over, after the progress lines are gone.
    expect(turnResult(again).notes).toContainEqual(
      `codex@a skipped: cooling until ${result.skipped?.[0]?.until} (${result.skipped?.[0]?.error})`,
    );

    // agents status codex lists both accounts, each asked through the real `codex login status` in
    // its own home, and a's cooldown.
    const status = await lab.scv(["agents", "status", "codex", "--json"], { limitMs: 60_000 });
    const rows = (
      JSON.parse(status.stdout).accounts as { account: string; state: string; coolingUntil?: string }[]
    )
      .filter((row) => row.account !== "default")
      .map((row) => [row.account, row.state, row.coolingUntil]);
    expect(rows, describeRun(status)).toEqual([
      ["a", "signed-in", result.skipped?.[0]?.until],
      ["b", "signed-in", null],
    ]);

    // The usage log: b's two turns with the tokens the mock reported, a's one failure.
    const usage = await lab.scv(["usage", "--by", "account", "--json"]);
    const report = usageReportSchema().parse(JSON.parse(usage.stdout));
    const byAccount = new Map(report.groups.map((group) => [group.key, group]));
    expect(byAccount.get("codex@a")).toMatchObject({ turns: 1, failures: 1 });
    const answered = [result, turnResult(again)];
    expect(byAccount.get("codex@b")).toMatchObject({
      turns: 2,
      failures: 0,
      input: answered.reduce((sum, each) => sum + (each.usage?.input ?? 0), 0),
      output: answered.reduce((sum, each) => sum + (each.usage?.output ?? 0), 0),
    });
    expect(byAccount.get("codex@b")?.output).toBeGreaterThan(0);
  });
});
