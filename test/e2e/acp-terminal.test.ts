// A permission request of an ACP turn on a terminal, through the built scv against the scripted fake
// ACP agent standing in for `gemini --acp` (cold turns): one line naming the agent, the tool and the
// command, answered by a key typed after it showed, and kept on screen past the progress line's
// redraws (tmux). Without a terminal, and under --policy auto, it is acp.test.ts.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useColdAcpLab } from "../helpers/acp.js";
import { hasPython, scvOnTerminal } from "../helpers/pty.js";
import { SCV, type World } from "../helpers/scv.js";
import { worldTiming } from "../helpers/timing.js";
import { type Terminal, tmuxTerminal } from "../helpers/tmux.js";

let world: World;
useColdAcpLab((created) => {
  world = created;
});

describe("a permission request on a terminal", () => {
  const onTerminal = (...steps: string[]) =>
    scvOnTerminal(world, ["delegate", "gemini", "--transport", "acp", "-q", "use a tool"], {
      waitFor: "allow [o]nce",
      steps,
    });

  it.skipIf(!hasPython)(
    "asks one line naming the agent, the tool and the command; o allows it once",
    async () => {
      const run = await onTerminal("0.3:o");
      expect(run.code, run.output).toBe(0);
      expect(run.output).toContain(
        "scv: gemini asks to run execute: $ touch probe.txt — allow [o]nce, [a]lways, [r]eject? \r\nscv: allowed once\r\n",
      );
      expect(run.output).toContain("ALLOWED proceed_once");
    },
  );

  it.skipIf(!hasPython)("a key typed before the question showed does not answer it", async () => {
    // Typed the moment the question appears, before anyone could read it; then r.
    const run = await onTerminal("0:o", "0.5:r");
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain("[r]eject? \r\nscv: rejected\r\n");
    expect(run.output).toContain("REJECTED");
  });
});

describe("a permission request on a terminal with the progress line (tmux)", () => {
  let terminal: Terminal;
  beforeEach(() => {
    terminal = tmuxTerminal(world.root);
  });
  afterEach(() => terminal.dispose());

  it("the question stays on screen while it waits, past the progress line's redraws; the answer is a line of its own", async () => {
    terminal.start(
      [process.execPath, SCV, "delegate", "gemini", "--transport", "acp", "use a tool"],
      world.env,
      world.project,
    );
    const question = "scv: gemini asks to run execute: $ touch probe.txt — allow [o]nce, [a]lways, [r]eject?";
    await terminal.waitFor(/allow \[o\]nce/);
    // The live line redraws every tick (a second, scaled in tests); three of them pass while nobody
    // answers.
    await new Promise((resolve) => setTimeout(resolve, 3 * worldTiming("progressTick")));
    const waiting = terminal.screen();
    expect(waiting).toContain(question);
    expect(waiting).not.toMatch(/gemini \d+s/);
    terminal.keys("o");
    const after = await terminal.waitFor(/EXIT=\d+/);
    const lines = after.split("\n").map((line) => line.trimEnd());
    expect(lines).toContain(question);
    expect(lines).toContain("scv: allowed once");
    expect(lines).toContain("ALLOWED proceed_once");
    expect(after).toContain("EXIT=0");
  });
});
