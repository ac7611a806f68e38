// `scv attach` with the real Codex: a turn through scv, then `codex resume <session>` in its own
// interactive UI under tmux (a private server, send-keys and capture-pane), a message typed there that
// the loopback mock answers, and a continued turn through scv whose request carries what was typed in
// the UI: the same session, the same private home, no canary credential.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { describeRun, scvEntry } from "./harness.js";
import {
  BIN,
  expectNothingLeft,
  named,
  requestsWith,
  signedInPerSuite,
  turnResult,
  wireText,
} from "./kit.js";
import { PROFILES } from "./profiles.js";

const TMUX = "/usr/bin/tmux";
const profile = PROFILES.find((candidate) => candidate.cli === "codex");

const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

describe.skipIf(BIN === undefined || profile === undefined)("scv attach: the real Codex under tmux", () => {
  const suite = signedInPerSuite(profile ?? PROFILES[0]!, 0);
  const who = named("codex");
  let socket: string | undefined;

  afterAll(() => {
    if (socket === undefined) return;
    try {
      execFileSync(TMUX, ["-S", socket, "kill-server"], { stdio: "ignore" });
    } catch {
      // Gone already.
    }
  });

  const tmux = (...args: string[]) => execFileSync(TMUX, ["-S", socket ?? "", ...args], { encoding: "utf8" });
  const screen = () => {
    try {
      return tmux("capture-pane", "-p", "-J", "-t", "t");
    } catch (error) {
      return String(error);
    }
  };
  async function waitFor(pattern: RegExp, withinMs = 60_000): Promise<string> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const text = screen();
      if (pattern.test(text)) return text;
      if (Date.now() > deadline) throw new Error(`${who}: never saw ${pattern} on the screen:\n${text}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  /** Runs scv with `args` in the lab's project in a tmux window of a new private server; the window
   * stays after scv exits, showing `EXIT=<code>`. */
  function startInTmux(args: readonly string[], name: string): void {
    const { lab } = suite;
    socket = join(lab.root, `${name}.sock`);
    const script = join(lab.root, `${name}.sh`);
    const exports = Object.entries({ ...lab.env, TERM: "xterm-256color" })
      .map(([variable, value]) => `export ${variable}=${quote(value)}`)
      .join("\n");
    writeFileSync(
      script,
      `#!/bin/sh\n${exports}\ncd ${quote(lab.cwd)}\n${quote(process.execPath)} ${quote(scvEntry())} ${args.map(quote).join(" ")}\necho "EXIT=$?"\nsleep 600\n`,
    );
    chmodSync(script, 0o755);
    tmux("-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "160", "-y", "45", script);
  }

  function endTmux(): void {
    tmux("kill-server");
    socket = undefined;
  }

  it("opens the session scv started, answers there, and scv continues after it", async () => {
    const { lab, mock } = suite;
    const first = await lab.scv([
      "delegate",
      "codex",
      "attach contract first turn",
      "--json",
      "--timeout",
      "90s",
    ]);
    const result = turnResult(first);
    expect(first.code, describeRun(first)).toBe(0);
    const handle = result.conversation ?? "";
    expect(handle).toMatch(/^codex-/);

    startInTmux(["attach", handle], "attach");
    // A first run asks to trust the folder, and may offer a newer model: the owner answers, here as a
    // person would (trust it; keep the model). Then its composer, on the resumed session, with the
    // first turn in its history.
    const opened = Date.now() + 90_000;
    for (;;) {
      const shown = screen();
      if (/Trust this folder/.test(shown)) tmux("send-keys", "-t", "t", "Enter");
      else if (/Use existing model/.test(shown)) tmux("send-keys", "-t", "t", "Down", "Enter");
      else if (/attach contract first turn/.test(shown)) break;
      if (Date.now() > opened) throw new Error(`${who}: never saw the resumed session:\n${shown}`);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    console.log(`${who}: the resumed UI\n${screen()}`);
    const before = mock.requests.length;
    tmux("send-keys", "-t", "t", "-l", "typed in the codex UI");
    await new Promise((resolve) => setTimeout(resolve, 500));
    tmux("send-keys", "-t", "t", "Enter");
    const deadline = Date.now() + 90_000;
    while (requestsWith(mock, "typed in the codex UI", before).length === 0) {
      if (Date.now() > deadline) throw new Error(`${who}: the UI sent no request:\n${screen()}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // Its answer, on the screen under what was typed.
    await waitFor(/typed in the codex UI\s+• MOCK-REPLY-\d+/, 90_000);
    tmux("send-keys", "-t", "t", "-l", "/quit");
    await new Promise((resolve) => setTimeout(resolve, 500));
    tmux("send-keys", "-t", "t", "Enter");
    const after = await waitFor(/EXIT=\d+/);
    expect(after, after).toContain("EXIT=0");
    // The test's own window (its shell waits, to keep the screen) goes; nothing else may stay.
    endTmux();
    await expectNothingLeft(lab, "codex", "the attached UI");

    const next = await lab.scv([
      "delegate",
      "-c",
      handle,
      "attach contract after the UI",
      "--json",
      "--timeout",
      "90s",
    ]);
    expect(next.code, describeRun(next)).toBe(0);
    const request = requestsWith(mock, "attach contract after the UI").at(-1);
    expect(request, describeRun(next)).toBeDefined();
    const wire = request === undefined ? "" : wireText(request);
    // The same session: its history has the first turn and what was typed in the UI.
    expect(wire).toContain("attach contract first turn");
    expect(wire).toContain("typed in the codex UI");
    expect(turnResult(next).session).toBe(result.session);
    // The UI ran with scv's isolation: the canary credentials exported in scv's shell never reached
    // the model.
    expect(mock.sawText(lab.env.OPENAI_API_KEY ?? "unset")).toBe(false);
  }, 300_000);

  it("scv run starts the CLI in its private home: its own status sees the key scv holds", async () => {
    const { lab } = suite;
    startInTmux(["run", "codex", "--", "login", "status"], "run");
    const shown = await waitFor(/EXIT=\d+/);
    expect(shown, shown).toContain("EXIT=0");
    expect(shown, shown).toMatch(/API key/);
    endTmux();
    await expectNothingLeft(lab, "codex", "scv run");
    // The user's own HOME got no Codex state.
    expect(existsSync(join(lab.home, ".codex"))).toBe(false);
  }, 120_000);
});
