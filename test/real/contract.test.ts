// The contract suite: the BUILT scv (dist/scv.js) drives each pinned real CLI through whole turns against
// a loopback mock model server, in a temp SCV_HOME with a temp user HOME, as a user would:
//   status before sign-in → sign in (scv agents login --with-api-key, or the CLI's own files in its agent
//   home) → status → first turn (--json: the mock's reply, session id, usage) → continued turn (-c: the
//   mock gets the first turn's history, same session; --policy default, so both policies run) → the mode
//   the CLI reports (codex: its rollout's turn_context) → a 401 turn (exit 4) → a 429 turn (exit 5, or 124
//   from --timeout where the CLI cannot be told to stop retrying) → gc --dry-run finding the transcripts
//   → logout → status.
// After every scv call no process of the lab may be left. Credentials and endpoints exported in scv's own
// environment (canaries) must never reach a CLI. A flag or event shape that moved fails with a message
// naming the CLI, its version and what changed (kit.ts contractProblems).
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { usageReportSchema } from "../../src/home/usage-totals.js";
import type { TurnResultJson as TurnResult } from "../../src/json-shapes.js";
import { MOCK_SHAPE } from "./clis.js";
import { ageRecords, ageTree, describeRun, filesBelow, type Lab } from "./harness.js";
import {
  agentToml,
  BIN,
  dummyKey,
  expectNothingLeft,
  expectTurn,
  named,
  newCanary,
  newLab,
  requestsWith,
  turnResult,
  wireText,
  writeEndpoint,
} from "./kit.js";
import { type MockServer, startMock } from "./mock/server.mjs";
import { PROFILES, type Profile, row } from "./profiles.js";

const HOUR = 3_600_000;
/** What each CLI reports under its own defaults, by how it reports (claude's init permissionMode in
 * its stream, codex exec's sandbox in its session log). */
const DEFAULT_MODE = { stream: "default", "session-log": "read-only" } as const;
/** The harness's own limit on one scv call: scv's --timeout plus room for its grace period. */
function limitFor(timeout: string): number {
  return (Number.parseInt(timeout, 10) + 30) * 1000;
}

describe.skipIf(BIN === undefined).each(PROFILES)("contract: scv → $cli", (profile: Profile) => {
  const { cli } = profile;
  const entry = row(cli);
  const who = named(cli);
  let trap: MockServer;
  let mock: MockServer;
  let lab: Lab;
  let key: string;
  let canary: string;
  let agentEnv: Record<string, string>;
  let first: TurnResult | undefined;
  let firstReply = "";
  const FIRST = `contract first turn for ${cli}: say hi`;
  const SECOND = `contract second turn for ${cli}: say it again`;

  async function scvTurn(args: readonly string[], timeout = profile.turnTimeout) {
    const before = readdirSync(lab.tmp).sort();
    const run = await lab.scv(["delegate", ...args, "--json", "--timeout", timeout], {
      limitMs: limitFor(timeout),
    });
    await expectNothingLeft(lab, cli, `scv ${args.slice(0, 3).join(" ")}`);
    // The CLI had a TMPDIR of the turn's own (opencode leaves a native library in it on every run,
    // gemini its error reports), and scv removed it with the turn.
    expect(readdirSync(lab.tmp).sort(), `${who}: left in the user's TMPDIR by a turn`).toEqual(before);
    return run;
  }

  /** scv's verified mode (`result.mode`): the row's full mode under auto, the CLI's own default under
   * default, null for a CLI that reports none. */
  function expectMode(result: TurnResult, policy: "auto" | "default"): void {
    const report = entry.modeReport;
    if (report.kind === "none") {
      expect(result.mode, `${who} reports no mode`).toBeNull();
      return;
    }
    const want = policy === "auto" ? report.full : DEFAULT_MODE[report.kind];
    expect(result.mode, `${who}: the mode scv read (${report.kind}) under --policy ${policy}`).toBe(want);
  }

  /** A refused sign-in's hint: the CLI's own sign-in, or, for a CLI the lab points at the mock as a
   * provider of the user's own (copilot), the key given in scv's config. */
  function expectSignInHint(hint: string | null, run: string): void {
    const own = entry.endpoint;
    if (own.kind === "supported" && own.url.kind === "env" && agentEnv[own.url.variable] !== undefined) {
      expect(hint, run).toMatch(new RegExp(`^check ${own.key} in \\[agents\\.${cli}\\.env\\]`));
    } else {
      expect(hint, run).toBe(`run: scv agents login ${cli}`);
    }
  }

  async function status(): Promise<{ state: string; detail: string; version: string | null }> {
    const run = await lab.scv(["agents", "status", cli, "--json"], { limitMs: 60_000 });
    expect([0, 4], describeRun(run)).toContain(run.code);
    return JSON.parse(run.stdout);
  }

  beforeAll(async () => {
    trap = await startMock({ shape: "openai-chat", text: "TRAP" });
    mock = await startMock({ shape: MOCK_SHAPE[cli] });
    canary = newCanary();
    key = dummyKey(cli);
    lab = newLab(cli, canary, trap);
  });

  afterAll(async () => {
    try {
      // Nothing exported in scv's environment reached the CLI, in any request of any turn.
      for (const request of mock?.requests ?? []) {
        expect(wireText(request), `${who}: an exported canary credential reached the CLI`).not.toContain(
          canary,
        );
      }
      expect(
        trap?.requests.map((request) => `${request.method} ${request.url}`) ?? [],
        `${who}: the CLI followed an endpoint exported in scv's environment`,
      ).toEqual([]);
    } finally {
      await mock?.close();
      await trap?.close();
      await lab?.[Symbol.asyncDispose]();
    }
  });

  it("status before sign-in", async () => {
    const before = await status();
    expect(before.state, `${who}: scv agents status before sign-in: ${before.detail}`).toBe(
      profile.status.before,
    );
  });

  it("signs in the way a user would", async () => {
    const endpoint = await writeEndpoint(lab, profile, mock, key);
    agentEnv = endpoint.agentEnv;
    lab.writeConfig(agentToml(cli, { model: endpoint.config.model }, agentEnv));
    if (profile.signIn === "api-key") {
      const login = await lab.scv(["agents", "login", cli, "--with-api-key"], { input: `${key}\n` });
      expect(login.code, describeRun(login)).toBe(0);
      expect(`${login.stdout}${login.stderr}`, `${who}: scv printed the key`).not.toContain(key);
    }
    const after = await status();
    expect(after.state, `${who}: scv agents status after sign-in: ${after.detail}`).toBe(
      profile.status.after,
    );
    expect(after.version, `${who}: scv agents status reports the installed version`).toBe(who.split(" ")[1]);
  });

  it("first turn: the mock's reply, the session id, usage (policy auto)", async () => {
    const effort = entry.effortLevels.includes("high") ? ["--effort", "high"] : [];
    const run = await scvTurn([cli, FIRST, "--policy", "auto", ...effort]);
    const result = expectTurn(cli, run, 0);
    first = result;
    const asked = requestsWith(mock, FIRST);
    expect(asked.length, `${who}: the mock never received the prompt\n${describeRun(run)}`).toBeGreaterThan(
      0,
    );
    firstReply = asked.at(-1)?.reply ?? "";
    expect(result.reply, `${who}: scv's reply is not the mock's answer to the prompt`).toBe(firstReply);
    expect(result.status).toBe("completed");
    expectMode(result, "auto");
    expect(result.conversation, describeRun(run)).toMatch(new RegExp(`^${cli}-[0-9a-z]{6}$`));
    expect(run.stderr).toContain(`scv delegate -c ${result.conversation}`);
    // Where the row says the CLI keeps a session it started: what keeps a stopped turn continuable.
    if (entry.resume.kind === "supported" && entry.resume.sessionPath !== undefined) {
      const path = join(
        lab.agentHome(cli),
        entry.resume.sessionPath.replace("{session}", result.session ?? ""),
      );
      expect(existsSync(path), `${who}: no ${path} for the turn's session — sessionPath moved`).toBe(true);
    }
    // The key the user signed in with is the one the CLI sent.
    for (const request of asked)
      expect(wireText(request), `${who}: the signed-in key was not sent`).toContain(key);
    if (effort.length > 0) {
      expect(
        asked.some((request) => /"(?:effort|reasoning_effort)":"high"/.test(request.rawBody)),
        `${who}: --effort high did not reach the model request (${entry.effortArgs.join(" ")})`,
      ).toBe(true);
    }
    if (profile.usage) {
      expect(
        result.usage,
        `${who}: scv read no usage from its stream — the usage event moved`,
      ).not.toBeNull();
      expect(result.usage?.input ?? 0, `${who}: usage.input`).toBeGreaterThan(0);
      expect(result.usage?.output ?? 0, `${who}: usage.output`).toBeGreaterThan(0);
      // `scv usage` reads the turn back from its log: the tokens the mock answered the turn's model
      // call with (output 5 + n for its n-th answer, mock/server.mjs). Side calls that carry the
      // prompt too (OpenCode's title) are left out, as the CLIs' own reports leave them out.
      const usage = await lab.scv(["usage", "--json", "--by", "conversation"]);
      const group = usageReportSchema()
        .parse(JSON.parse(usage.stdout))
        .groups.find((each) => each.key === result.conversation);
      const mockOutput = asked
        .filter((request) => request.reply === result.reply)
        .reduce((sum, request) => sum + 5 + Number(request.reply?.split("-").at(-1)), 0);
      expect(group, `${who}: scv usage\n${describeRun(usage)}`).toMatchObject({
        turns: 1,
        failures: 0,
        input: result.usage?.input ?? 0,
        output: mockOutput,
      });
    } else {
      expect(result.usage, `${who} reports no token usage in its JSON stream`).toBeNull();
    }
  });

  it("continued turn, in a project with a .env of its own: the first turn's history, same session (policy default)", async () => {
    if (first?.conversation == null) throw new Error(`${who}: no first turn to continue`);
    // Many projects have a .env; a CLI that reads the first one it finds walking up from its folder
    // (Gemini CLI) must still sign in with the key scv holds, not find none.
    const projectEnv = join(lab.cwd, ".env");
    writeFileSync(projectEnv, "PROJECT_SETTING=1\n");
    let run: Awaited<ReturnType<typeof scvTurn>>;
    try {
      run = await scvTurn(["-c", first.conversation, SECOND, "--policy", "default"]);
    } finally {
      rmSync(projectEnv, { force: true });
    }
    const result = expectTurn(cli, run, 0);
    expect(result.conversation).toBe(first.conversation);
    expect(result.session, `${who}: the continued turn reports another session`).toBe(first.session);
    const asked = requestsWith(mock, SECOND);
    expect(asked.length, `${who}: the mock never received the second prompt`).toBeGreaterThan(0);
    const last = asked.at(-1);
    expect(last?.rawBody, `${who}: the continued turn's request lacks the first prompt`).toContain(FIRST);
    expect(last?.rawBody, `${who}: the continued turn's request lacks the first reply`).toContain(firstReply);
    expect(result.reply).toBe(last?.reply);
    expectMode(result, "default");
  });

  it.runIf(entry.modeReport.kind === "session-log")(
    "the mode the CLI reports matches the policy (rollout turn_context)",
    () => {
      const sessions = join(lab.agentHome(cli), "sessions");
      const rollout = filesBelow(sessions, "jsonl").find((file) => file.includes(first?.session ?? "-"));
      expect(
        rollout,
        `${who}: no rollout file for session ${first?.session} below ${sessions}`,
      ).toBeDefined();
      const contexts = readFileSync(join(sessions, rollout ?? ""), "utf8")
        .split("\n")
        .filter((line) => line.includes('"turn_context"'))
        .map(
          (line) =>
            JSON.parse(line).payload as { approval_policy?: string; sandbox_policy?: { type?: string } },
        );
      expect(contexts.length, `${who}: the rollout has no turn_context per turn — its shape moved`).toBe(2);
      const [auto, standard] = contexts;
      expect(
        { approval: auto?.approval_policy, sandbox: auto?.sandbox_policy?.type },
        `${who}: under --policy auto`,
      ).toEqual({ approval: "never", sandbox: "danger-full-access" });
      expect(
        { approval: standard?.approval_policy, sandbox: standard?.sandbox_policy?.type },
        `${who}: under --policy default (codex exec's own default)`,
      ).toEqual({ approval: "never", sandbox: "read-only" });
    },
  );

  it("a 401 from the model ends the turn with exit 4", async () => {
    mock.setMode("401");
    const from = mock.requests.length;
    const run = await scvTurn([cli, `contract 401 turn for ${cli}`]);
    mock.setMode("ok");
    const result = expectTurn(cli, run, 4);
    expect(result.status).toBe("failed");
    expectSignInHint(result.hint, describeRun(run));
    expect(mock.requests.slice(from).some((request) => request.status === 401)).toBe(true);
  });

  it.each(["403-model", "404-model"] as const)(
    "a %s (a model the account cannot use) ends the turn with exit 1 and says to pick another, not to sign in",
    async (mode) => {
      mock.setMode(mode);
      const from = mock.requests.length;
      const run = await scvTurn([cli, `contract ${mode} turn for ${cli}`]);
      mock.setMode("ok");
      const status = Number.parseInt(mode, 10);
      expect(
        mock.requests.slice(from).some((request) => request.status === status),
        `${who}: the ${mode} turn never reached the mock\n${describeRun(run)}`,
      ).toBe(true);
      if (mode === "403-model" && profile.modelRefusalHidden !== undefined) {
        // Nothing in what the CLI printed names the model (profiles.ts says why).
        expectSignInHint(expectTurn(cli, run, 4).hint, describeRun(run));
        return;
      }
      const result = expectTurn(cli, run, 1);
      expect(result.status).toBe("failed");
      expect(result.error ?? "", describeRun(run)).toMatch(new RegExp(`^${cli} cannot use `));
      expect(result.hint ?? "", describeRun(run)).toMatch(/^pick one it can use/);
    },
  );

  it(`a 429 from the model ends the turn with exit ${profile.rateLimit.exits.join(" or ")}`, async () => {
    mock.setMode("429");
    const from = mock.requests.length;
    const run = await scvTurn([cli, `contract 429 turn for ${cli}`], profile.rateLimit.timeout);
    mock.setMode("ok");
    const got429 = mock.requests.slice(from).filter((request) => request.status === 429).length;
    expect(got429, `${who}: the 429 turn never reached the mock\n${describeRun(run)}`).toBeGreaterThan(0);
    expect(profile.rateLimit.exits, `${who}: the 429 turn's exit\n${describeRun(run)}`).toContain(run.code);
    if (run.code === 124) {
      // Still retrying when scv's --timeout ended it; scvTurn has checked that nothing is left running.
      expect(turnResult(run).status).toBe("timeout");
    } else {
      const result = expectTurn(cli, run, 5);
      expect(result.error ?? "", describeRun(run)).toMatch(/rate limited/);
    }
  });

  it("gc --dry-run finds the transcripts those turns wrote", async () => {
    const files = entry.conversationFiles;
    ageRecords(lab.scvHome, 2 * HOUR);
    const run = await lab.scv(["agents", "gc", cli, "--dry-run", "--older-than", "1h", "--json"]);
    expect(run.code, describeRun(run)).toBe(0);
    const report = JSON.parse(run.stdout) as {
      dryRun: boolean;
      agents: { agent: string; skipped: string | null; items: { kind: string; path: string }[] }[];
    };
    const mine = report.agents.find((agent) => agent.agent === cli);
    expect(report.dryRun).toBe(true);
    const records = mine?.items.filter((item) => item.kind === "record").map((item) => item.path) ?? [];
    expect(records, `${who}: gc did not find the first turn's conversation record`).toContain(
      join(lab.scvHome, "conversations", `${first?.conversation}.json`),
    );
    const sessionPath = entry.resume.kind === "supported" ? entry.resume.sessionPath : undefined;
    if (files === null && sessionPath?.endsWith("/{session}")) {
      // A folder per session (Copilot CLI): aged two hours, it goes whole, and nothing outside it.
      const folder = join(lab.agentHome(cli), sessionPath.replace("{session}", first?.session ?? "-"));
      const inside = ageTree(folder, 2 * HOUR);
      expect(inside.length, `${who}: no files in the session folder ${folder}`).toBeGreaterThan(0);
      const aged = await lab.scv(["agents", "gc", cli, "--dry-run", "--older-than", "1h", "--json"]);
      const items = (JSON.parse(aged.stdout) as typeof report).agents.find(
        (agent) => agent.agent === cli,
      )?.items;
      const paths = (kind: string) =>
        (items ?? []).filter((item) => item.kind === kind).map((item) => item.path);
      expect(paths("transcript").sort(), `${who}: gc did not list the session folder's files`).toEqual(
        [...inside].sort(),
      );
      expect(paths("folder"), `${who}: gc did not list the session folder`).toContain(folder);
      return;
    }
    if (files === null) {
      // The row says scv does not know this CLI's transcripts well enough to remove them.
      expect(mine?.skipped, `${who}: gc looked at transcripts the row does not name`).not.toBeNull();
      return;
    }
    const dir = join(lab.agentHome(cli), files.dir);
    const written = filesBelow(dir, files.extension);
    expect(
      written.length,
      `${who}: no .${files.extension} transcript below ${files.dir} — it moved`,
    ).toBeGreaterThan(0);
    // Fresh files are kept whatever the threshold; aged two hours they are gc's to find.
    const before = await lab.scv(["agents", "gc", cli, "--dry-run", "--older-than", "1h", "--json"]);
    ageTree(dir, 2 * HOUR);
    const aged = await lab.scv(["agents", "gc", cli, "--dry-run", "--older-than", "1h", "--json"]);
    const found = (JSON.parse(aged.stdout) as typeof report).agents
      .find((agent) => agent.agent === cli)
      ?.items.filter((item) => item.kind === "transcript")
      .map((item) => item.path);
    const expected = written.map((file) => join(dir, file)).sort();
    expect(found?.sort(), `${who}: gc --dry-run did not list the transcripts the turns wrote`).toEqual(
      expected,
    );
    expect(
      (JSON.parse(before.stdout) as typeof report).agents
        .find((agent) => agent.agent === cli)
        ?.items.filter((item) => item.kind === "transcript"),
    ).toEqual([]);
    for (const file of expected) expect(existsSync(file), `dry run removed ${file}`).toBe(true);
  });

  it.runIf(profile.status.afterLogout !== undefined)("logout, then status says signed out", async () => {
    const logout = await lab.scv(["agents", "logout", cli], { limitMs: 60_000 });
    expect(logout.code, describeRun(logout)).toBe(0);
    const after = await status();
    expect(after.state, `${who}: scv agents status after logout: ${after.detail}`).toBe(
      profile.status.afterLogout,
    );
    if (entry.status.kind === "stored") {
      // scv can tell from the key store: it refuses before spawning the CLI.
      const from = mock.requests.length;
      const refused = await scvTurn([cli, "contract turn after logout"]);
      expect(refused.code, describeRun(refused)).toBe(4);
      expect(refused.stderr).toContain(`scv agents login ${cli}`);
      expect(mock.requests.length, `${who}: the signed-out turn reached the model`).toBe(from);
    } else if (profile.signIn === "api-key") {
      // scv cannot tell, but the key it stored is gone: the CLI itself finds none and says so.
      const from = mock.requests.length;
      const after = await scvTurn([cli, "contract turn after logout"]);
      expect(after.code, describeRun(after)).toBe(4);
      for (const request of mock.requests.slice(from)) {
        expect(wireText(request), `${who}: the key scv removed was still sent`).not.toContain(key);
      }
    }
  });
});
