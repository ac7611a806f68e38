// `scv attach` with the real CLIs: a turn through scv, then the row's takeover (`codex resume
// <session>`, `gemini --resume <session>`, …) in the CLI's own interactive UI under tmux (a private
// server, send-keys and capture-pane), a message typed there that the loopback mock answers, and a
// continued turn through scv whose request carries what was typed in the UI: the same session, the
// same private home, no canary credential reaching anything, nothing left running.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { RealCli } from "./clis.js";
import { describeRun, scvEntry } from "./harness.js";
import {
  BIN,
  expectNothingLeft,
  installedPins,
  named,
  pinVersion,
  requestsWith,
  signedInPerSuite,
  turnResult,
  wireText,
} from "./kit.js";
import type { MockServer } from "./mock/server.mjs";
import { PROFILES, row } from "./profiles.js";

const TMUX = "/usr/bin/tmux";

const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How a person drives one CLI's UI: the first-run questions it asks with the keys that answer them,
 * what shows that the message typed was answered, and the keys that leave it. */
interface Driver {
  readonly cli: RealCli;
  readonly answers: readonly (readonly [RegExp, readonly string[]])[];
  readonly answered: (typed: string) => RegExp;
  /** `send-keys` argument lists, sent in order, that leave the UI. */
  readonly leave: readonly (readonly string[])[];
}

const answeredBelow = (typed: string) => new RegExp(`${typed}[\\s\\S]*MOCK-REPLY-\\d+`);
const slash = (command: string): readonly (readonly string[])[] => [["-l", command], ["Enter"]];

const DRIVERS: readonly Driver[] = [
  {
    cli: "codex",
    // A first run asks to trust the folder, and may offer a newer model: trust it; keep the model.
    answers: [
      [/Trust this folder/, ["Enter"]],
      [/Use existing model/, ["Down", "Enter"]],
    ],
    answered: (typed) => new RegExp(`${typed}\\s+• MOCK-REPLY-\\d+`),
    leave: slash("/quit"),
  },
  {
    cli: "gemini",
    answers: [[/Do you trust|Trust folder/i, ["Enter"]]],
    answered: answeredBelow,
    leave: slash("/quit"),
  },
  {
    cli: "qwen",
    answers: [[/Do you trust|Trust folder/i, ["Enter"]]],
    answered: answeredBelow,
    leave: slash("/quit"),
  },
  {
    cli: "opencode",
    answers: [],
    answered: answeredBelow,
    leave: slash("/exit"),
  },
  {
    cli: "copilot",
    answers: [[/trust the files in this folder/i, ["Enter"]]],
    answered: answeredBelow,
    leave: slash("/exit"),
  },
  {
    cli: "pi",
    answers: [],
    answered: answeredBelow,
    leave: slash("/quit"),
  },
];

/** The files under `dir` whose text contains `text`. */
function filesContaining(dir: string, text: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => join(dir, name))
    .filter(
      (path) =>
        statSync(path, { throwIfNoEntry: false })?.isFile() === true &&
        readFileSync(path, "utf8").includes(text),
    );
}

const installed = new Set(BIN === undefined ? [] : installedPins(BIN).map((pin) => pin.cli));

/** A private tmux server for one suite, running scv in a window that stays after scv exits. */
function tmuxFor(
  suite: { readonly lab: { root: string; cwd: string; env: Record<string, string> } },
  who: string,
) {
  let socket: string | undefined;
  const tmux = (...args: string[]) => execFileSync(TMUX, ["-S", socket ?? "", ...args], { encoding: "utf8" });
  const screen = () => {
    try {
      return tmux("capture-pane", "-p", "-J", "-t", "t");
    } catch (error) {
      return String(error);
    }
  };
  const end = (): void => {
    if (socket === undefined) return;
    try {
      tmux("kill-server");
    } catch {
      // Gone already.
    }
    socket = undefined;
  };
  return {
    tmux,
    screen,
    end,
    keys: (...keys: string[]) => tmux("send-keys", "-t", "t", ...keys),
    /** Types `text` into the UI's composer. A UI that draws its composer before it reads its input drops
     * what is typed meanwhile (Gemini CLI did, on a loaded machine): typed again until the screen shows it. */
    async type(text: string, withinMs = 60_000): Promise<void> {
      const deadline = Date.now() + withinMs;
      for (;;) {
        tmux("send-keys", "-t", "t", "-l", text);
        for (const shownBy = Date.now() + 10_000; Date.now() < shownBy; await pause(250)) {
          if (screen().includes(text)) return;
        }
        if (Date.now() > deadline)
          throw new Error(`${who}: the UI never showed what was typed:\n${screen()}`);
      }
    },
    async waitFor(pattern: RegExp, withinMs = 60_000): Promise<string> {
      const deadline = Date.now() + withinMs;
      for (;;) {
        const text = screen();
        if (pattern.test(text)) return text;
        if (Date.now() > deadline) throw new Error(`${who}: never saw ${pattern} on the screen:\n${text}`);
        await pause(250);
      }
    },
    /** Runs scv with `args` in the lab's project; the window shows `EXIT=<code>` after scv exits. */
    start(args: readonly string[], name: string): void {
      // A window an earlier case left (it failed before ending it) goes first.
      end();
      const { lab } = suite;
      socket = join(lab.root, `${name}.sock`);
      const script = join(lab.root, `${name}.sh`);
      const exports = Object.entries({ ...lab.env, TERM: "xterm-256color" })
        .map(([variable, value]) => `export ${variable}=${quote(value)}`)
        .join("\n");
      writeFileSync(
        script,
        // A person's terminal, not CI's: Gemini CLI and Qwen Code leave their UI out when CI is set
        // (and .ci/run sets it), so the window is opened without it.
        `#!/bin/sh\nunset CI\n${exports}\ncd ${quote(lab.cwd)}\n${quote(process.execPath)} ${quote(scvEntry())} ${args.map(quote).join(" ")}\necho "EXIT=$?"\nsleep 600\n`,
      );
      chmodSync(script, 0o755);
      tmux("-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "160", "-y", "45", script);
    },
  };
}

for (const driver of DRIVERS) {
  const { cli } = driver;
  const profile = PROFILES.find((candidate) => candidate.cli === cli);
  describe.skipIf(BIN === undefined || profile === undefined || !installed.has(cli))(
    `scv attach: the real ${cli} under tmux`,
    () => {
      const suite = signedInPerSuite(profile ?? PROFILES[0]!, 0);
      const who = named(cli);
      const screen = tmuxFor(suite, who);
      afterAll(() => screen.end());

      it("opens the session scv started, answers there, and scv continues after it", async () => {
        const { lab, mock } = suite;
        const trap = (suite as unknown as { trap: MockServer }).trap;
        const timeout = profile?.turnTimeout ?? "90s";
        const first = await lab.scv([
          "delegate",
          cli,
          "attach contract first turn",
          "--json",
          "--timeout",
          timeout,
        ]);
        const result = turnResult(first);
        expect(first.code, describeRun(first)).toBe(0);
        // What the row claims is what runs here.
        expect(row(cli).takeover).toMatchObject({
          kind: "supported",
          verified: { kind: "lab", version: pinVersion(cli) },
        });
        const handle = result.conversation ?? "";
        expect(handle.startsWith(`${cli}-`), handle).toBe(true);

        screen.start(["attach", handle], "attach");
        // First-run questions answered as a person would; then the resumed session, its first turn
        // in the history on the screen.
        const opened = Date.now() + 90_000;
        for (;;) {
          const shown = screen.screen();
          const question = driver.answers.find(([pattern]) => pattern.test(shown));
          if (question !== undefined) screen.keys(...question[1]);
          else if (/attach contract first turn/.test(shown)) break;
          if (/EXIT=\d+/.test(shown)) throw new Error(`${who}: scv attach ended:\n${shown}`);
          if (Date.now() > opened) throw new Error(`${who}: never saw the resumed session:\n${shown}`);
          await pause(1_000);
        }
        await pause(2_000);
        console.log(`${who}: the resumed UI\n${screen.screen()}`);
        const typed = `typed in the ${cli} UI`;
        const before = mock.requests.length;
        await screen.type(typed);
        await pause(500);
        screen.keys("Enter");
        const deadline = Date.now() + 90_000;
        while (requestsWith(mock, typed, before).length === 0) {
          if (Date.now() > deadline) throw new Error(`${who}: the UI sent no request:\n${screen.screen()}`);
          await pause(250);
        }
        await screen.waitFor(driver.answered(typed), 90_000);
        console.log(`${who}: answered in the UI\n${screen.screen()}`);
        await pause(1_000);
        for (const keys of driver.leave) {
          screen.keys(...keys);
          await pause(500);
        }
        const after = await screen.waitFor(/EXIT=\d+/, 30_000);
        expect(after, after).toContain("EXIT=0");
        // The test's own window (its shell waits, to keep the screen) goes; nothing else may stay.
        screen.end();
        await expectNothingLeft(lab, cli, "the attached UI");

        const next = await lab.scv([
          "delegate",
          "-c",
          handle,
          "attach contract after the UI",
          "--json",
          "--timeout",
          timeout,
        ]);
        expect(next.code, describeRun(next)).toBe(0);
        const request = requestsWith(mock, "attach contract after the UI").at(-1);
        expect(request, describeRun(next)).toBeDefined();
        const wire = request === undefined ? "" : wireText(request);
        // The same session: its history has the first turn and what was typed in the UI.
        expect(wire).toContain("attach contract first turn");
        expect(wire).toContain(typed);
        expect(turnResult(next).session).toBe(result.session);
        // The UI ran with scv's isolation: the canary credentials exported in scv's shell reached
        // neither the model nor the endpoints they name.
        expect(mock.sawText(lab.env.OPENAI_API_KEY ?? "unset")).toBe(false);
        expect(trap.requests).toEqual([]);
        await expectNothingLeft(lab, cli, "the continued turn");
      }, 400_000);

      it.runIf(cli === "gemini")(
        "scv run starts its UI in the private home: a chat there lands in that home, none in the user's",
        async () => {
          const { lab, mock } = suite;
          const trap = (suite as unknown as { trap: MockServer }).trap;
          const homeBefore = readdirSync(lab.home).sort();
          screen.start(["run", "gemini"], "run");
          const opened = Date.now() + 90_000;
          // Its composer, below any question still on the screen (a question answered stays in the
          // capture above the UI that follows it: the trust question, then a restart).
          const lastAt = (pattern: RegExp, text: string) =>
            Math.max(
              -1,
              ...[...text.matchAll(new RegExp(pattern.source, `${pattern.flags.replace("g", "")}g`))].map(
                (m) => m.index,
              ),
            );
          // On two looks in a row: the trust question may come just after the composer is drawn.
          let composerSeen = 0;
          for (;;) {
            const shown = screen.screen();
            const composerAt = lastAt(/Type your message/, shown);
            const question = driver.answers.find(([pattern]) => lastAt(pattern, shown) > composerAt);
            if (question !== undefined) screen.keys(...question[1]);
            composerSeen = question === undefined && composerAt >= 0 ? composerSeen + 1 : 0;
            if (composerSeen === 2) break;
            if (/EXIT=\d+/.test(shown)) throw new Error(`${who}: scv run ended:\n${shown}`);
            if (Date.now() > opened) throw new Error(`${who}: never saw its composer:\n${shown}`);
            await pause(1_000);
          }
          const typed = "typed in scv run gemini";
          const before = mock.requests.length;
          await screen.type(typed);
          await pause(500);
          screen.keys("Enter");
          await screen.waitFor(driver.answered(typed), 90_000);
          expect(requestsWith(mock, typed, before).length).toBeGreaterThan(0);
          await pause(1_000);
          for (const keys of driver.leave) {
            screen.keys(...keys);
            await pause(500);
          }
          const after = await screen.waitFor(/EXIT=\d+/, 30_000);
          expect(after, after).toContain("EXIT=0");
          screen.end();
          await expectNothingLeft(lab, cli, "scv run");
          // The chat was kept in gemini's private home, and the user's HOME got nothing at all.
          const agentHome = join(lab.scvHome, "agents", "gemini");
          expect(filesContaining(join(agentHome, ".gemini"), typed).length, agentHome).toBeGreaterThan(0);
          expect(existsSync(join(lab.home, ".gemini"))).toBe(false);
          expect(readdirSync(lab.home).sort()).toEqual(homeBefore);
          expect(mock.sawText(lab.env.OPENAI_API_KEY ?? "unset")).toBe(false);
          expect(trap.requests).toEqual([]);
        },
        200_000,
      );

      it.runIf(cli === "codex")(
        "scv run starts the CLI in its private home: its own status sees the key scv holds",
        async () => {
          const { lab } = suite;
          screen.start(["run", "codex", "--", "login", "status"], "run");
          const shown = await screen.waitFor(/EXIT=\d+/);
          expect(shown, shown).toContain("EXIT=0");
          expect(shown, shown).toMatch(/API key/);
          screen.end();
          await expectNothingLeft(lab, "codex", "scv run");
          // The user's own HOME got no Codex state.
          expect(existsSync(join(lab.home, ".codex"))).toBe(false);
        },
        120_000,
      );
    },
  );
}
