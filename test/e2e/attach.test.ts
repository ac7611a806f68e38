// `scv attach` and `scv run` through the built scv in a real terminal: tmux (a private server per
// test) runs scv, the test types with send-keys and reads the screen with capture-pane. The agent is
// test/fake-agents/acme.mjs, defined in scv's config with a `takeover` row; its `--tui` mode is an
// interactive UI that echoes what is typed and leaves on /quit.

import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lockConversation } from "../../src/home/conversations.js";
import { canaryVariables } from "../helpers/canaries.js";
import { useLab } from "../helpers/lab.js";
import {
  agentCalls,
  configureAcme,
  conversationRecord,
  SCV,
  scv,
  signIn,
  type World,
} from "../helpers/scv.js";
import { type Terminal, tmuxTerminal } from "../helpers/tmux.js";

let world: World;
let terminal: Terminal;
useLab((created) => {
  world = created;
});
beforeEach(() => {
  terminal = tmuxTerminal(world.root);
});
afterEach(() => {
  terminal.dispose();
});

const ACME = `
[agents.acme]
command = "acme"
args = ["run"]
headlessArgs = ["--stream"]
output = { kind = "claude-stream-json", args = [] }
modelArgs = ["--model", "{model}"]
resume = { kind = "supported", start = ["--sid", "{session}"], options = ["--resume", "{session}"], idPattern = "^[0-9a-f-]{36}$" }
takeover = { kind = "supported", args = ["--tui", "--resume", "{session}"], fullArgs = [] }
`;

const configure = (toml: string) => configureAcme(world, toml);

/** Starts scv with `args` in a tmux window of its own, in the world's project; the window stays after
 * scv exits and shows `EXIT=<code>`. */
function scvInTmux(args: readonly string[], env: Record<string, string>): void {
  terminal.start([process.execPath, SCV, ...args], { ...world.env, ...env }, world.project);
}

const waitForScreen = (pattern: RegExp, withinMs?: number) => terminal.waitFor(pattern, withinMs);
const type = (text: string) => terminal.type(text);

function handleIn(stderr: string): string {
  const handle = /^conversation: ([a-z-]+-[0-9a-z]{6}) — continue with/m.exec(stderr)?.[1];
  if (handle === undefined) throw new Error(`no conversation line in: ${stderr}`);
  return handle;
}

describe("scv attach", () => {
  it("opens the conversation's session in the agent's own UI, in its home without credentials; -c continues after it", async () => {
    const env = { ...configure(ACME), ...canaryVariables() };
    const first = await scv(world, ["delegate", "acme", "Say hi"], { env });
    expect(first.exitCode).toBe(0);
    const handle = handleIn(first.stderr);
    const session = conversationRecord(world, handle).sessionId as string;

    scvInTmux(["attach", handle], env);
    await waitForScreen(new RegExp(`ACME UI session ${session}`));
    type("hello there");
    await waitForScreen(/you said: hello there/);
    type("/quit");
    const after = await waitForScreen(/EXIT=\d+/);
    expect(after).toContain("EXIT=0");
    expect(after).toContain(`continue with: scv delegate -c ${handle}`);

    const ui = agentCalls(world).find((call) => call.argv[0] === "--tui");
    expect(ui?.argv).toEqual(["--tui", "--resume", session]);
    expect(ui?.stdin).toBe("tty");
    expect(ui?.cwd).toBe(world.project);
    expect(ui?.env.HOME).toBe(join(world.scvHome, "agents", "acme"));
    for (const name of ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "MY_SERVICE_API_KEY", "GH_TOKEN"]) {
      expect(ui?.env[name]).toBeUndefined();
    }
    expect(conversationRecord(world, handle)).toMatchObject({ turns: 1, takeovers: 1 });
    const shown = await scv(world, ["conversations", "show", handle], { env });
    expect(shown.stdout).toMatch(/^taken over +1 time in its own UI \(scv attach\), last \d{4}-/m);

    const next = await scv(world, ["delegate", "-c", handle, "And now?"], { env });
    expect(next.exitCode).toBe(0);
    expect(next.stdout).toBe("MOCK-REPLY-2\n");
    expect(agentCalls(world).at(-1)?.argv).toContain("--resume");
    expect(conversationRecord(world, handle)).toMatchObject({ turns: 2, takeovers: 1 });
  });

  it("takes a job of the conversation (<handle>.<8>) as it does the handle, and opens on its model", async () => {
    const env = configure(ACME);
    const first = await scv(world, ["delegate", "acme", "-m", "acme-large", "Say hi"], { env });
    const handle = handleIn(first.stderr);
    const session = conversationRecord(world, handle).sessionId as string;
    // The turn's job is the tag its agent ran with.
    const job = agentCalls(world)[0]?.env.SCV_TURN ?? "";
    expect(job).toMatch(new RegExp(`^${handle}\\.[0-9a-z]{8}$`));

    scvInTmux(["attach", job], env);
    await waitForScreen(new RegExp(`ACME UI session ${session}`));
    type("/quit");
    const after = await waitForScreen(/EXIT=\d+/);
    expect(after).toContain("EXIT=0");
    expect(after).toContain(`continue with: scv delegate -c ${handle} `);
    expect(conversationRecord(world, handle)).toMatchObject({ takeovers: 1 });
    const ui = agentCalls(world).find((call) => call.argv[0] === "--tui");
    expect(ui?.argv).toEqual(["--tui", "--resume", session, "--model", "acme-large"]);

    const unknown = await scv(world, ["attach", "acme-zzzzzz.abcdefgh"], { env });
    expect(unknown.exitCode).not.toBe(0);
    expect(unknown.stderr).toBe("scv: no conversation 'acme-zzzzzz' — run: scv conversations list\n");
    const bad = await scv(world, ["attach", "not a handle"], { env });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/^scv: 'not a handle' is not a job or a conversation handle/);
  });

  it("opens a conversation of a named account in that account's home, where its session is", async () => {
    const env = configure(ACME);
    const first = await scv(world, ["delegate", "acme@work", "Say hi"], { env });
    expect(first.exitCode).toBe(0);
    const handle = handleIn(first.stderr);
    expect(conversationRecord(world, handle)).toMatchObject({ account: "work" });
    const session = conversationRecord(world, handle).sessionId as string;

    scvInTmux(["attach", handle], env);
    await waitForScreen(new RegExp(`ACME UI session ${session}`));
    type("/quit");
    expect(await waitForScreen(/EXIT=\d+/)).toContain("EXIT=0");
    const ui = agentCalls(world).find((call) => call.argv[0] === "--tui");
    expect(ui?.env.HOME).toBe(join(world.scvHome, "agents", "acme@work"));
  });

  it("is refused while a turn of the conversation runs", async () => {
    const env = configure(ACME);
    const first = await scv(world, ["delegate", "acme", "Say hi"], { env });
    const handle = handleIn(first.stderr);
    const release = await lockConversation(handle, { ...world.env, ...env });
    try {
      scvInTmux(["attach", handle], env);
      const shown = await waitForScreen(/EXIT=\d+/);
      expect(shown).toContain("EXIT=2");
      expect(shown).toMatch(/conversation busy — another turn of acme-[0-9a-z]{6} is running/);
    } finally {
      await release();
    }
    expect(agentCalls(world).some((call) => call.argv[0] === "--tui")).toBe(false);
  });

  it("is refused without a terminal, and for a CLI whose own terminal scv does not open", async () => {
    const env = configure(ACME);
    const first = await scv(world, ["delegate", "acme", "Say hi"], { env });
    const handle = handleIn(first.stderr);
    const piped = await scv(world, ["attach", handle], { env });
    expect(piped.exitCode).toBe(2);
    expect(piped.stderr).toBe(
      `scv: scv attach ${handle} needs a terminal (stdin and stdout), and there is none — run it in one\n`,
    );

    await signIn(world, "claude");
    const claude = await scv(world, ["delegate", "claude", "Say hi"], { env });
    const refused = await scv(world, ["attach", handleIn(claude.stderr)], { env });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(
      /^scv: scv does not open claude's own terminal \(Claude Code's own terminal asks .*keys typed there .*\) — continue in scv with: scv delegate -c claude-[0-9a-z]{6} "…"$/m,
    );
    expect(agentCalls(world).some((call) => call.argv[0] === "--tui")).toBe(false);
  });
});

describe("scv run", () => {
  it("starts the agent's interactive CLI in its private home, in the current folder", async () => {
    const env = { ...configure(ACME), ...canaryVariables() };
    scvInTmux(["run", "acme", "--", "--tui"], env);
    await waitForScreen(/ACME UI/);
    type("/quit");
    expect(await waitForScreen(/EXIT=\d+/)).toContain("EXIT=0");
    const [call] = agentCalls(world);
    expect(call?.argv).toEqual(["--tui"]);
    expect(call?.cwd).toBe(world.project);
    expect(call?.env.HOME).toBe(join(world.scvHome, "agents", "acme"));
    expect(call?.env.OPENAI_API_KEY).toBeUndefined();
  });

  it("is refused without a terminal", async () => {
    const run = await scv(world, ["run", "codex"]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe(
      "scv: scv run codex needs a terminal (stdin and stdout), and there is none — run it in one\n",
    );
  });

  it("says first that a CLI is not installed, terminal or not (exit 3)", async () => {
    rmSync(join(world.bin, "cursor-agent"));
    const run = await scv(world, ["run", "cursor"], { env: { PATH: `${world.bin}:/usr/bin:/bin` } });
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toMatch(/^scv: Cursor CLI is not installed — /);
    expect(run.stderr).not.toContain("terminal");
  });
});
