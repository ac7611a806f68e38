// `scv ps --watch` and `scv top` through the built scv: in a real terminal (tmux, capture-pane) the
// table is redrawn in place as a background job appears, changes tool and ends, and q gives the
// terminal back as it was (main screen, cursor shown); off a terminal, a snapshot every interval
// until scv is stopped.

import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useLab } from "../helpers/lab.js";
import { SCV, scv, signIn, startScv, type World } from "../helpers/scv.js";
import { type Terminal, tmuxTerminal } from "../helpers/tmux.js";

let world: World;
let terminal: Terminal;
const lab = useLab((created) => {
  world = created;
});
beforeEach(() => {
  terminal = tmuxTerminal(world.root, 150, 20);
});
afterEach(() => terminal.dispose());

function step(i: number): void {
  writeFileSync(join(world.calls, `step-${i}`), "");
}

/** tmux's own view of the window: whether it shows the alternate screen, and the cursor. */
function screenModes(): string {
  return execFileSync(
    "/usr/bin/tmux",
    [
      "-S",
      join(world.root, "tmux.sock"),
      "display-message",
      "-p",
      "-t",
      "t",
      "#{alternate_on} #{cursor_flag}",
    ],
    { encoding: "utf8" },
  ).trim();
}

describe("scv ps --watch", () => {
  it("redraws a job as it appears, changes tool and ends; q gives the terminal back", async () => {
    await signIn(world, "claude");
    terminal.start(
      ["sh", "-c", `echo BEFORE-WATCH; exec node ${SCV} ps --watch --interval 200ms`],
      world.env,
      world.project,
    );
    await terminal.waitFor(/no running turns/);
    expect(terminal.screen()).not.toContain("BEFORE-WATCH");
    expect(screenModes()).toBe("1 0");

    const started = await scv(world, ["delegate", "--background", "claude", "Work"], {
      env: { FAKE_AGENT_MODE: "steps:2" },
    });
    const job = started.stdout.trim();
    await lab.pidsOf();
    const first = await terminal.waitFor(/\$ echo step 1/);
    expect(first).toMatch(/^JOB +AGENT +ACCOUNT +PID +ELAPSED +TOKENS +STATE +TOOL$/m);
    expect(first).toMatch(
      new RegExp(
        `^${job.replace(".", "\\.")} +claude +default +\\d+ +\\S+ +- +running +\\$ echo step 1$`,
        "m",
      ),
    );
    // One table, redrawn where it was: never two.
    expect(first.match(/^JOB /gm)).toHaveLength(1);

    step(1);
    const second = await terminal.waitFor(/\$ echo step 2/);
    expect(second).not.toContain("$ echo step 1");
    step(2);
    await terminal.waitFor(/no running turns/);

    terminal.keys("q");
    const after = await terminal.waitFor(/EXIT=0/);
    expect(after).toContain("BEFORE-WATCH");
    expect(after).not.toContain("no running turns");
    expect(screenModes()).toBe("0 1");
  });

  it("scv top is the same; Ctrl-C quits it too", async () => {
    terminal.start(["node", SCV, "top", "--interval", "200ms"], world.env, world.project);
    await terminal.waitFor(/scv ps · .* · every 200ms · q quits/);
    terminal.keys("\x03");
    await terminal.waitFor(/EXIT=0/);
    expect(screenModes()).toBe("0 1");
  });

  it("off a terminal prints a snapshot every interval until it is stopped", async () => {
    const child = startScv(world, ["ps", "--watch", "--interval", "100ms"]);
    let text = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    const deadline = Date.now() + 20_000;
    while ((text.match(/^--- /gm) ?? []).length < 3 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 25));
    child.kill("SIGINT");
    const done = await child;
    expect(done.exitCode).toBe(130);
    expect(String(done.stderr)).toBe("");
    expect(text).toMatch(/^(--- \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z\nno running turns\n\n){3,}$/);
  });

  it("refuses --json with --watch in one line", async () => {
    const run = await scv(world, ["ps", "--watch", "--json"]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe(
      "scv: --json prints one snapshot — drop --watch (run scv ps --json again to look again)\n",
    );
  });
});
