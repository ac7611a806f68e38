// The ACP contract: the BUILT scv drives the real Gemini CLI, Qwen Code, OpenCode and Copilot CLI (and
// Claude Code, Codex and pi through their pinned adapters) over their ACP servers (`transport = "acp"`
// in scv's config) against a loopback mock model server, signed in as the contract suite signs them
// in: a first turn (the mock's reply, the agent's session id), a
// cold continued turn in a new server process through `session/load` (the first turn's messages in
// the mock's next request), a warm continued turn (session_idle: the same server, kept by its session
// host, gets the prompt; the mock's request carries the first turn), an idle host's exit, and a 401
// (exit 4; pi-acp, which passes on no model error, exit 1 in its row's words). Nothing of a turn may
// be left running (of a warm one, once `scv kill <handle>` or session_idle ended its host), and no
// credential exported in scv's own environment may reach the CLI.
//
// Known: Gemini CLI 0.61.0's `session/load` of a session saved within the same UTC minute wipes its
// history ("No previous sessions found for this project"); scv waits for the next minute before such
// a load (the row's acp.loadAfterMinute), so the cold continued turn right after the first runs
// through that wait. sessions.test.ts continues a conversation at once after `scv kill` of its host.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TurnResultJson as TurnResult } from "../../src/json-shapes.js";
import { MOCK_SHAPE, type RealCli } from "./clis.js";
import { describeRun, type Lab, settle } from "./harness.js";
import {
  agentToml,
  BIN,
  dummyKey,
  expectNothingLeft,
  named,
  newCanary,
  newLab,
  pinVersion,
  requestsWith,
  turnResult,
  wireText,
  writeEndpoint,
} from "./kit.js";
import { type MockServer, startMock } from "./mock/server.mjs";
import { PROFILES, type Profile, row } from "./profiles.js";

/** The adapters for Claude Code, Codex and pi (claude-agent-acp, codex-acp, pi-acp) are pinned beside the
 * CLIs (ADAPTER_PINS in scripts/install-real-clis.mjs), so they are in BIN. $SCV_ACP_ADAPTERS names a
 * folder with other versions installed by hand (`npm install @agentclientprotocol/claude-agent-acp
 * @agentclientprotocol/codex-acp` there), found first. Each drives the CLI scv locates (the row's
 * acp.cliPathVariable): the pinned one in BIN, on the lab's PATH; with hand-installed adapters, whose
 * folder may also hold the adapters' own CLIs, the config's `command` names the pinned one. */
const HAND_INSTALLED = process.env.SCV_ACP_ADAPTERS;
const ADAPTER_BIN = HAND_INSTALLED === undefined ? BIN : join(HAND_INSTALLED, "node_modules", ".bin");
/** Rows whose ACP server is an adapter driving the CLI. */
const adapted = (cli: RealCli) => row(cli).acp?.cliPathVariable !== undefined;
const ACP_CLIS = [
  "gemini",
  "qwen",
  "opencode",
  "copilot",
  ...(["claude", "codex", "pi"] as const).filter(
    (cli) => ADAPTER_BIN !== undefined && existsSync(join(ADAPTER_BIN, row(cli).acp?.command ?? cli)),
  ),
];
/** Qwen Code 0.24.4 asks the model for a follow-up suggestion after each ACP turn, a second request on
 * the conversation, unless its settings turn that off (the row's acp.homeSettings, which scv applies):
 * with them, one request a turn. */
const ONE_REQUEST_A_TURN = new Set(["qwen"]);

const profiles = PROFILES.filter((profile) => ACP_CLIS.includes(profile.cli));

describe.skipIf(BIN === undefined).each(profiles)(
  "ACP contract: scv → $cli --transport acp",
  (profile: Profile) => {
    const { cli } = profile;
    const who = `${named(cli)} over ACP`;
    let trap: MockServer;
    let mock: MockServer;
    let lab: Lab;
    let key: string;
    let canary: string;
    let first: TurnResult | undefined;
    let firstReply = "";
    let useIdle: (idle: string) => void = () => {};
    const FIRST = `acp first turn for ${cli}: say hi`;
    const SECOND = `acp second turn for ${cli}: say it again`;

    async function turn(args: readonly string[]) {
      const run = await lab.scv(["delegate", ...args, "--json", "--timeout", profile.turnTimeout], {
        limitMs: (Number.parseInt(profile.turnTimeout, 10) + 30) * 1000,
      });
      await expectNothingLeft(lab, cli, `scv ${args.slice(0, 3).join(" ")} over ACP`);
      return run;
    }

    beforeAll(async () => {
      trap = await startMock({ shape: "openai-chat", text: "TRAP" });
      mock = await startMock({ shape: MOCK_SHAPE[cli] });
      canary = newCanary();
      key = dummyKey(cli);
      lab = newLab(cli, canary, trap);
      const pinnedCli: Record<string, string> = {};
      if (adapted(cli) && HAND_INSTALLED !== undefined) {
        lab.env.PATH = `${ADAPTER_BIN}:${lab.env.PATH}`;
        pinnedCli.command = join(BIN ?? "", cli);
      }
      const endpoint = await writeEndpoint(lab, profile, mock, key);
      // A server that takes its model at launch (the row's modelArgs) gets the recipe's; the others
      // run the model the recipe configured in their home.
      const model: Record<string, string> =
        row(cli).acp?.modelArgs === undefined ? {} : { model: endpoint.config.model };
      // Cold turns unless a test keeps the server warm (useIdle).
      useIdle = (idle) =>
        lab.writeConfig(
          agentToml(cli, { transport: "acp", ...model, ...pinnedCli, session_idle: idle }, endpoint.agentEnv),
        );
      useIdle("0");
      if (profile.signIn === "api-key") {
        const login = await lab.scv(["agents", "login", cli, "--with-api-key"], { input: `${key}\n` });
        expect(login.code, describeRun(login)).toBe(0);
      }
    });

    afterAll(async () => {
      try {
        for (const request of mock?.requests ?? [])
          expect(wireText(request), `${who}: an exported canary credential reached the CLI`).not.toContain(
            canary,
          );
        expect(
          trap?.requests.length ?? 0,
          `${who}: the CLI followed an endpoint exported in scv's environment`,
        ).toBe(0);
      } finally {
        await mock?.close();
        await trap?.close();
        await lab?.[Symbol.asyncDispose]();
      }
    });

    it("first turn: the mock's reply and the agent's session", async () => {
      const run = await turn([cli, FIRST]);
      const result = turnResult(run);
      expect(run.code, `${who}\n${describeRun(run)}`).toBe(0);
      first = result;
      const asked = requestsWith(mock, FIRST);
      expect(asked.length, `${who}: the mock never received the prompt\n${describeRun(run)}`).toBeGreaterThan(
        0,
      );
      // The answer scv returned, not the last request's: a server may send another request with the
      // prompt after the turn (codex-acp with Codex 0.171.0 did, here too).
      const answered = asked.find((request) => request.reply === result.reply);
      expect(answered, `${who}: scv's reply is not the mock's answer\n${describeRun(run)}`).toBeDefined();
      firstReply = result.reply;
      expect(result.status).toBe("completed");
      expect(result.badLines, describeRun(run)).toBe(0);
      expect(result.session, describeRun(run)).not.toBeNull();
      expect(result.conversation, describeRun(run)).toMatch(new RegExp(`^${cli}-[0-9a-z]{6}$`));
      // An adapter drives the pinned CLI scv located, not the one it bundles (codex-acp 2.6.0 brings
      // Codex 0.166.0, claude-agent-acp 0.101.0 Claude Code 2.1.318): the CLI names its version in the
      // model request's user agent (`claude-cli/2.1.332 (external, sdk-ts, …)`, `scv/0.171.0 (…)`).
      if (adapted(cli)) {
        const agent = String(answered?.headers["user-agent"] ?? "");
        expect(agent, `${who}: the model request came from another CLI than the pinned one`).toContain(
          `/${pinVersion(cli)}`,
        );
      }
    });

    it("a cold continued turn loads the session in a new server: the mock sees the first turn", async () => {
      if (first?.conversation == null) throw new Error(`${who}: no first turn to continue`);
      const run = await turn(["-c", first.conversation, SECOND]);
      const result = turnResult(run);
      expect(run.code, `${who}\n${describeRun(run)}`).toBe(0);
      expect(result.session).toBe(first.session);
      // A server may send more than one request with the new prompt: the reply is the answer to one of
      // them.
      const asked = requestsWith(mock, SECOND);
      const carried = asked.find((request) => request.reply === result.reply);
      expect(carried, `${who}: scv's reply answers none of the requests with the new prompt`).toBeDefined();
      expect(carried?.rawBody, `${who}: the continued turn's request lacks the first prompt`).toContain(
        FIRST,
      );
      expect(carried?.rawBody, `${who}: the continued turn's request lacks the first reply`).toContain(
        firstReply,
      );
      // The earlier turn's messages, replayed by the load, are not this turn's reply.
      expect(result.reply).not.toContain(firstReply);
    }, 150_000);

    /** A turn whose server stays in its session host: nothing of it is checked for leftovers. */
    async function warmTurn(args: readonly string[]) {
      return lab.scv(["delegate", ...args, "--json", "--timeout", profile.turnTimeout], {
        limitMs: (Number.parseInt(profile.turnTimeout, 10) + 30) * 1000,
      });
    }

    /** The conversation's session host as its record names it. */
    function hostOf(handle: string): { scv: { pid: number }; server: { pid: number }; session?: string } {
      const path = join(lab.scvHome, "hosts", `${handle}.json`);
      return JSON.parse(readFileSync(path, "utf8"));
    }

    /** Ends the conversation's session host (scv kill <handle>); nothing of it may be left. */
    async function endWarm(handle: string) {
      const killed = await lab.scv(["kill", handle]);
      expect(killed.code, describeRun(killed)).toBe(0);
      await expectNothingLeft(lab, cli, `scv kill ${handle} (its session host)`);
    }

    it("a warm continued turn prompts the same server: the mock sees the first turn, no new process", async () => {
      useIdle("5m");
      try {
        const one = `acp warm first turn for ${cli}: say hi`;
        const two = `acp warm second turn for ${cli}: say it again`;
        const run = await warmTurn([cli, one]);
        expect(run.code, `${who}\n${describeRun(run)}`).toBe(0);
        const result = turnResult(run);
        const handle = result.conversation ?? "";
        const host = hostOf(handle);
        expect(host.session, `${who}: the host holds another session`).toBe(result.session);
        const running = lab.leftovers().map((left) => left.pid);
        expect(running, `${who}: the server is not running after its turn`).toContain(host.server.pid);
        // The answer scv returned, not the last request's: a server may send more requests with the
        // prompt after the turn (Codex 0.171.0 over codex-acp did, once in three runs here).
        const oneReply = result.reply;

        const next = await warmTurn(["-c", handle, two]);
        expect(next.code, `${who}\n${describeRun(next)}`).toBe(0);
        const continued = turnResult(next);
        expect(continued.session).toBe(result.session);
        const carried = requestsWith(mock, two).find((request) => request.reply === continued.reply);
        if (ONE_REQUEST_A_TURN.has(cli)) {
          // What the server might send after the turn's answer would be there by then.
          await new Promise((resolve) => setTimeout(resolve, 1_500));
          expect(
            requestsWith(mock, two).length,
            `${who}: the warm turn sent more than its own model request`,
          ).toBe(1);
        }
        expect(carried, `${who}: scv's reply answers none of the requests with the new prompt`).toBeDefined();
        expect(carried?.rawBody, `${who}: the warm turn's request lacks the first prompt`).toContain(one);
        expect(carried?.rawBody, `${who}: the warm turn's request lacks the first reply`).toContain(oneReply);
        // No new CLI process: the same server, and nothing keeps running that was not running before
        // (claude-agent-acp 0.101.0 runs `claude auth status --json` at each prompt, bounded to 5 s).
        expect(hostOf(handle).server.pid).toBe(host.server.pid);
        const fresh = () => lab.leftovers().filter((left) => !running.includes(left.pid));
        for (const until = Date.now() + 6_000; fresh().length > 0 && Date.now() < until; )
          await new Promise((done) => setTimeout(done, 100));
        const now = fresh();
        expect(
          now.map((left) => `${left.pid} ${left.command}`),
          `${who}: a new process runs`,
        ).toEqual([]);
        await endWarm(handle);
      } finally {
        useIdle("0");
      }
    }, 150_000);

    it("an idle session host closes its server and exits after session_idle", async () => {
      useIdle("3s");
      try {
        const run = await warmTurn([cli, `acp idle turn for ${cli}`]);
        expect(run.code, `${who}\n${describeRun(run)}`).toBe(0);
        const handle = turnResult(run).conversation ?? "";
        const record = join(lab.scvHome, "hosts", `${handle}.json`);
        expect(existsSync(record), `${who}: no session host after the turn`).toBe(true);
        // 3 s idle, then the server's grace to exit after its stdin closes.
        const left = await settle(lab, 20_000);
        expect(
          left.map((process) => `${process.pid} ${process.command}`),
          `${who}: still running`,
        ).toEqual([]);
        expect(existsSync(record)).toBe(false);
      } finally {
        useIdle("0");
      }
    }, 120_000);

    it.runIf(process.env.SCV_ACP_TIMING !== undefined && row(cli).cliTurns)(
      "timing: cold ACP turns and warm continued ones against per-turn process turns (SCV_ACP_TIMING=1)",
      async () => {
        const times: Record<"process" | "acp" | "warm", number[]> = { process: [], acp: [], warm: [] };
        for (let round = 0; round < 3; round += 1)
          for (const transport of ["process", "acp"] as const) {
            const run = await turn([
              cli,
              "--transport",
              transport,
              "--policy",
              "auto",
              `timing ${round} ${transport}`,
            ]);
            expect(run.code, describeRun(run)).toBe(0);
            times[transport].push(run.durationMs);
          }
        // Each round: a first turn that starts its conversation's session host (the cold turn's work
        // plus the host's start), then a continued turn on it, then the host ended.
        const hosted: number[] = [];
        useIdle("5m");
        try {
          for (let round = 0; round < 3; round += 1) {
            const start = await warmTurn([cli, "--policy", "auto", `timing ${round} warm start`]);
            expect(start.code, describeRun(start)).toBe(0);
            hosted.push(start.durationMs);
            const handle = turnResult(start).conversation ?? "";
            const run = await warmTurn(["-c", handle, "--policy", "auto", `timing ${round} warm`]);
            expect(run.code, describeRun(run)).toBe(0);
            times.warm.push(run.durationMs);
            await endWarm(handle);
          }
        } finally {
          useIdle("0");
        }
        const median = (values: number[]) => [...values].sort((a, b) => a - b)[1] ?? 0;
        console.log(
          `${who}: process ${times.process.join(", ")} ms (median ${median(times.process)}); ACP ${times.acp.join(", ")} ms (median ${median(times.acp)}); first ACP turn starting its host ${hosted.join(", ")} ms (median ${median(hosted)}); warm ACP continued ${times.warm.join(", ")} ms (median ${median(times.warm)}, ${(median(times.warm) / median(times.process)).toFixed(2)}× process)`,
        );
      },
      300_000,
    );

    // pi-acp 0.0.34 answers a failed model call end_turn with nothing said: the row's words, exit 1.
    const silent = row(cli).acp?.emptyTurnFails;
    it(`a 401 from the model ends the turn with exit ${silent === undefined ? 4 : "1 in the row's words"}`, async () => {
      mock.setMode("401");
      try {
        const run = await turn([cli, `acp 401 turn for ${cli}`]);
        const result = turnResult(run);
        expect(requestsWith(mock, `acp 401 turn for ${cli}`).length, describeRun(run)).toBeGreaterThan(0);
        expect(run.code, `${who}\n${describeRun(run)}`).toBe(silent === undefined ? 4 : 1);
        if (silent !== undefined) expect(result.error).toBe(`${cli} failed: ${silent}`);
        expect(result.status).toBe("failed");
      } finally {
        mock.setMode("ok");
      }
    });
  },
);
