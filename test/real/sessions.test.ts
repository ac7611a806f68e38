// Conversations that must not be lost, on the real Gemini CLI and Qwen Code (a fork of it) against a
// loopback mock, through the built scv:
// - a warm ACP conversation whose session host `scv kill` ended is continued at once, in the minute
//   its session was saved (Gemini CLI 0.61.0's session/load then wiped the session for good: scv now
//   waits for the next minute, `acp.loadAfterMinute`), and once more after that;
// - a process conversation continued in a later minute (its --resume leaves a file under the session's
//   short id with nothing to resume) survives another conversation's start (Gemini CLI's start-up
//   clean-up deleted that file and, by its short id, the session's own; scv turns it off in the
//   private home, the row's `homeSettings`), and its files are all still there;
// - once the CLI's session files are gone, `-c` of either says so in one line (exit 2).
// Each continued turn's model request must carry the earlier turns, and nothing may be left running.
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TurnResultJson as TurnResult } from "../../src/json-shapes.js";
import { MOCK_SHAPE, type RealCli } from "./clis.js";
import { describeRun, filesBelow, type Lab } from "./harness.js";
import {
  agentToml,
  BIN,
  dummyKey,
  expectNothingLeft,
  named,
  newCanary,
  newLab,
  requestsWith,
  turnResult,
  writeEndpoint,
} from "./kit.js";
import { type MockServer, startMock } from "./mock/server.mjs";
import { PROFILES, type Profile, row } from "./profiles.js";

const CLIS: readonly RealCli[] = ["gemini", "qwen"];
/** Where each keeps its session files, below its agent home. */
const CHATS: Record<string, string> = { gemini: ".gemini/tmp", qwen: ".qwen/projects" };
const profiles = PROFILES.filter((profile) => CLIS.includes(profile.cli));

describe.skipIf(BIN === undefined).each(profiles)("conversations kept: scv → $cli", (profile: Profile) => {
  const { cli } = profile;
  const who = named(cli);
  let trap: MockServer;
  let mock: MockServer;
  let lab: Lab;
  /** The process and the ACP conversation of the first test. */
  const kept: string[] = [];
  /** Up to a minute's wait for the session's minute to pass, then the turn. */
  const limitMs = (Number.parseInt(profile.turnTimeout, 10) + 90) * 1000;

  async function turn(args: readonly string[], warm = false): Promise<TurnResult> {
    const run = await lab.scv(["delegate", ...args, "--json", "--timeout", `${limitMs / 1000 - 30}s`], {
      limitMs,
    });
    expect(run.code, `${who}\n${describeRun(run)}`).toBe(0);
    if (!warm) await expectNothingLeft(lab, cli, `scv ${args.slice(0, 3).join(" ")}`);
    return turnResult(run);
  }

  /** The continued turn's model request carries every earlier prompt, and its reply is scv's. */
  function expectCarried(result: TurnResult, prompt: string, earlier: readonly string[]) {
    const carried = requestsWith(mock, prompt).find((request) => request.reply === result.reply);
    expect(carried, `${who}: scv's reply answers none of the requests with "${prompt}"`).toBeDefined();
    for (const text of earlier)
      expect(carried?.rawBody, `${who}: the request with "${prompt}" lacks "${text}"`).toContain(text);
  }

  function sessionFiles(): string[] {
    return filesBelow(join(lab.agentHome(cli), CHATS[cli] ?? ""), "jsonl");
  }

  beforeAll(async () => {
    trap = await startMock({ shape: "openai-chat", text: "TRAP" });
    mock = await startMock({ shape: MOCK_SHAPE[cli] });
    const key = dummyKey(cli);
    lab = newLab(cli, newCanary(), trap);
    const endpoint = await writeEndpoint(lab, profile, mock, key);
    lab.writeConfig(agentToml(cli, { session_idle: "5m" }, endpoint.agentEnv));
    const login = await lab.scv(["agents", "login", cli, "--with-api-key"], { input: `${key}\n` });
    expect(login.code, describeRun(login)).toBe(0);
  });

  afterAll(async () => {
    await mock?.close();
    await trap?.close();
    await lab?.[Symbol.asyncDispose]();
  });

  it("a process conversation, an ACP one continued at once after `scv kill` of its host, and the process one continued after another conversation's start", async () => {
    // The process conversation's first turn, in this minute.
    const p1 = `${cli} process one: say hi`;
    const processed = await turn([cli, "--transport", "process", p1]);
    const processHandle = processed.conversation ?? "";

    // The ACP conversation: its host ended by scv kill, then continued at once.
    const a1 = `${cli} acp one: say hi`;
    const a2 = `${cli} acp two after kill: say it again`;
    const a3 = `${cli} acp three: and again`;
    const first = await turn([cli, "--transport", "acp", a1], true);
    const handle = first.conversation ?? "";
    const killed = await lab.scv(["kill", handle]);
    expect(killed.code, describeRun(killed)).toBe(0);
    await expectNothingLeft(lab, cli, `scv kill ${handle}`);
    const second = await turn(["-c", handle, a2], true);
    expect(second.session).toBe(first.session);
    expectCarried(second, a2, [a1, first.reply]);
    const third = await turn(["-c", handle, a3], true);
    expectCarried(third, a3, [a1, a2]);
    expect((await lab.scv(["kill", handle])).code).toBe(0);
    await expectNothingLeft(lab, cli, `scv kill ${handle}`);

    // A minute on: the process conversation continued (its resume leaves a file of the session's
    // short id with nothing to resume), then another conversation starts the CLI (whose start-up
    // clean-up deleted both before), then the process conversation once more.
    const p2 = `${cli} process two: say it again`;
    const p3 = `${cli} process three: and again`;
    expectCarried(await turn(["-c", processHandle, p2]), p2, [p1]);
    const before = sessionFiles();
    await turn([cli, "--transport", "process", `${cli} another conversation: say hi`]);
    for (const file of before)
      expect(sessionFiles(), `${who}: a later start deleted ${file}`).toContain(file);
    expectCarried(await turn(["-c", processHandle, p3]), p3, [p1, p2]);
    kept.push(processHandle, handle);
  }, 600_000);

  it("a conversation whose session files are gone says so in one line, over either transport (exit 2)", async () => {
    expect(kept, `${who}: the conversations of the test before`).toHaveLength(2);
    rmSync(join(lab.agentHome(cli), CHATS[cli] ?? ""), { recursive: true, force: true });
    for (const handle of kept) {
      const run = await lab.scv(["delegate", "-c", handle, `${cli} after its files went`], { limitMs });
      await expectNothingLeft(lab, cli, `scv delegate -c ${handle}`);
      expect(run.code, `${who}\n${describeRun(run)}`).toBe(2);
      expect(run.stderr, `${who}\n${describeRun(run)}`).toMatch(
        new RegExp(
          `^scv: cannot continue ${handle}: ${row(cli).product} no longer has its session [0-9a-f-]{36}, and with it its \\d+ earlier turns — start a new conversation: scv delegate ${cli} "…"\n$`,
        ),
      );
    }
  }, 300_000);

  it.runIf(cli === "gemini")(
    "scv keeps Gemini CLI's start-up deletion of session files off in its home",
    () => {
      const settings = JSON.parse(
        readFileSync(join(lab.agentHome(cli), ".gemini", "settings.json"), "utf8"),
      ) as { general?: { sessionRetention?: { enabled?: boolean } } };
      expect(settings.general?.sessionRetention?.enabled).toBe(false);
      // The session files are where the row's load rule reads their minute.
      const chats = join(lab.agentHome(cli), ".gemini", "tmp");
      expect(existsSync(chats) && readdirSync(chats).length).toBeGreaterThan(0);
    },
  );
});
