// Turns of the rows added for Cline, Kilo Code, Factory Droid, Auggie, Qoder and Crush, through the
// built scv against fakes that follow each real CLI's argv grammar and replay the lab's captures:
// a first turn, a continued one where the CLI resumes headless, the one line refusing `-c` where it
// cannot, and a signed-out CLI's exit 4 with its sign-in hint.

import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { turnResultShape } from "../../src/json-shapes.js";
import {
  agentCalls,
  conversationRecord,
  createWorld,
  ensureBuilt,
  handleIn,
  onlyCall,
  scv,
  signIn,
  type World,
} from "../helpers/scv.js";

const KILO_SESSION = "ses_daf4a0276ffene6mlUM4J3SDss";

let world: World;
beforeAll(ensureBuilt, 120_000);
beforeEach(() => {
  world = createWorld();
});
afterEach(() => world.dispose());

/** The reply and handle of a turn run with --json (a CLI that cannot resume prints no handle line). */
function result(stdout: string): { reply: string; conversation: string } {
  const parsed = turnResultShape().parse(JSON.parse(stdout));
  return { reply: parsed.reply, conversation: parsed.conversation ?? "" };
}

describe("kilo", () => {
  it("runs `kilo run --format json`, keeps the sessionID of its stream, and continues with -s", async () => {
    await signIn(world, "kilo");
    const first = await scv(world, ["delegate", "kilo", "Say hi"]);
    expect(first.stderr).not.toContain("scv:");
    expect(first.exitCode).toBe(0);
    expect(first.stdout).toBe("MOCK-REPLY-1\n");
    const call = onlyCall(world);
    expect(call.argv).toEqual(["run", "--format", "json", "Say hi"]);
    // No auto-update, share or telemetry from a turn; HOME is its private one.
    expect(call.env).toMatchObject({
      HOME: join(world.scvHome, "agents", "kilo"),
      KILO_DISABLE_AUTOUPDATE: "1",
      KILO_DISABLE_SHARE: "1",
    });

    const handle = handleIn(first.stderr);
    expect(conversationRecord(world, handle)).toMatchObject({
      agent: "kilo",
      sessionId: KILO_SESSION,
      turns: 1,
    });

    const second = await scv(world, ["delegate", "-c", handle, "Say hi again"]);
    expect(second.stderr).not.toContain("scv:");
    expect(second.exitCode).toBe(0);
    expect(second.stdout).toBe("MOCK-REPLY-2\n");
    expect(agentCalls(world)[1]?.argv).toEqual([
      "run",
      "--format",
      "json",
      "-s",
      KILO_SESSION,
      "Say hi again",
    ]);
    expect(conversationRecord(world, handle)).toMatchObject({ turns: 2 });
  });
});

describe("cline", () => {
  it("runs `cline --json <prompt>` on its local backend (no hub daemon), and refuses -c in one line naming ACP", async () => {
    await signIn(world, "cline");
    const first = await scv(world, ["delegate", "cline", "--json", "Say hi"]);
    expect(first.stderr).not.toContain("scv:");
    expect(first.exitCode).toBe(0);
    // The lab's capture: its mock's second answer (Cline asked it twice).
    expect(result(first.stdout).reply).toBe("MOCK-REPLY-2");
    const call = onlyCall(world);
    expect(call.argv).toEqual(["--json", "Say hi"]);
    expect(call.env).toMatchObject({ CLINE_SESSION_BACKEND_MODE: "local", CLINE_NO_AUTO_UPDATE: "1" });

    const again = await scv(world, ["delegate", "-c", result(first.stdout).conversation, "Say hi again"]);
    expect(again.exitCode).toBe(2);
    expect(again.stdout).toBe("");
    expect(again.stderr.trim().split("\n")).toEqual([
      "scv: Cline cannot continue a conversation begun per turn (its headless mode cannot continue a session (`--id` opens its interactive UI)) — start a new one, or begin it over ACP (scv delegate cline --transport acp …), whose conversations continue",
    ]);
    // Refused before the CLI ran.
    expect(agentCalls(world)).toHaveLength(1);
  });
});

describe("droid", () => {
  it("runs `droid exec -o stream-json <prompt>`, and refuses -c (its resume needs Factory's service)", async () => {
    await signIn(world, "droid");
    const first = await scv(world, ["delegate", "droid", "--json", "Say hi"]);
    // No note about the session id its stream names: there is nothing to record it for.
    expect(first.stderr).not.toContain("scv:");
    expect(first.exitCode).toBe(0);
    expect(result(first.stdout).reply).toBe("MOCK-REPLY-1");
    const call = onlyCall(world);
    expect(call.argv).toEqual(["exec", "-o", "stream-json", "Say hi"]);
    expect(call.env).toMatchObject({
      FACTORY_DISABLE_KEYRING: "1",
      FACTORY_DROID_AUTO_UPDATE_ENABLED: "false",
    });

    const again = await scv(world, ["delegate", "-c", result(first.stdout).conversation, "Say hi again"]);
    expect(again.exitCode).toBe(2);
    expect(again.stderr.trim().split("\n")).toHaveLength(1);
    expect(again.stderr).toContain("Factory Droid cannot continue a conversation begun per turn");
    expect(again.stderr).toContain("--transport acp");
    expect(agentCalls(world)).toHaveLength(1);
  });

  it("passes model, effort, full permissions and a prompt beginning with '-' as its exec spells them", async () => {
    await signIn(world, "droid");
    const run = await scv(world, [
      "delegate",
      "droid",
      "--model",
      "claude-sonnet-4-5",
      "--effort",
      "high",
      "--policy",
      "auto",
      "--",
      "-Say hi",
    ]);
    expect(run.stderr).not.toContain("scv:");
    expect(run.exitCode).toBe(0);
    expect(onlyCall(world).argv).toEqual([
      "exec",
      "--skip-permissions-unsafe",
      "-o",
      "stream-json",
      "-m",
      "claude-sonnet-4-5",
      "-r",
      "high",
      "--",
      "-Say hi",
    ]);
  });
});

describe("crush", () => {
  it("prints `crush run --quiet`'s text reply and refuses -c", async () => {
    await signIn(world, "crush");
    const first = await scv(world, ["delegate", "crush", "--json", "Say hi"]);
    expect(first.exitCode).toBe(0);
    expect(result(first.stdout).reply).toBe("FAKE-REPLY from crush: Say hi");
    expect(onlyCall(world).argv).toEqual(["run", "--quiet", "Say hi"]);
    const again = await scv(world, ["delegate", "-c", result(first.stdout).conversation, "Say hi again"]);
    expect(again.exitCode).toBe(2);
    expect(again.stderr.trim().split("\n")).toEqual([
      "scv: Crush cannot continue a conversation begun per turn (its `--session <id>` needs an id its text output does not give) — start a new one",
    ]);
  });
});

describe("signed out", () => {
  it.each([
    ["auggie", /auggie login|scv agents login auggie/],
    ["qoder", /login/],
    ["droid", /login|FACTORY_API_KEY/],
  ])("%s's signed-out capture is exit 4 with one line saying how to sign in", async (agent, hint) => {
    const run = await scv(world, ["delegate", agent, "Say hi"], {
      env: { FAKE_AGENT_MODE: "fixture:signed-out" },
    });
    expect(run.exitCode).toBe(4);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(hint);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
