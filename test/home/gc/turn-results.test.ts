// Finished background turns' results survive until read (`scv wait`) or aged out by gc.

import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { planGc } from "../../../src/home/gc/gc-plan.js";
import { applyGc } from "../../../src/home/gc/gc-remove.js";
import { DAY, MINUTE, type TempHome, tempHome } from "./fixture.js";

const NOW = Date.now();
let home: TempHome | undefined;

afterEach(() => {
  home = undefined;
});

describe("gc of background turn results", () => {
  it("removes old unread results, logs, events and cancel marks, never a running turn's files or a young result", async () => {
    home = tempHome(NOW);
    const oldDone = home.file("turns/codex-aaaaaa.done.json", 40 * DAY, "{}");
    const oldLog = home.file("turns/codex-aaaaaa.log", 40 * DAY, "log");
    const oldCancel = home.file("turns/claude-bbbbbb.cancel", 40 * DAY, "");
    // A job's files: `<handle>.<8 characters>`.
    const oldJobDone = home.file("turns/codex-eeeeee.a1b2c3d4.done.json", 40 * DAY, "{}");
    const oldJobLog = home.file("turns/codex-eeeeee.a1b2c3d4.log", 40 * DAY, "log");
    const oldJobReserve = home.file("turns/codex-eeeeee.a1b2c3d4.reserve", 40 * DAY, "");
    const oldJobEvents = home.file("turns/codex-eeeeee.a1b2c3d4.events", 40 * DAY, "{}\n");
    const oldJobEventsBefore = home.file("turns/codex-eeeeee.a1b2c3d4.events.1", 40 * DAY, "{}\n");
    const youngDone = home.file("turns/codex-cccccc.done.json", 5 * MINUTE, "{}");
    // A turn still running keeps its log whatever its age.
    const running = home.file("turns/pi-dddddd.json", 40 * DAY, "{}");
    const runningLog = home.file("turns/pi-dddddd.log", 40 * DAY, "log");
    const runningEvents = home.file("turns/pi-dddddd.k3f9x2ab.events", 40 * DAY, "{}\n");
    const stranger = home.file("turns/notes.txt", 40 * DAY, "x");

    const plan = planGc({ env: home.env, now: NOW });
    const planned = plan.agents.flatMap((agent) => agent.items).filter((item) => item.kind === "result");
    const old = [
      oldCancel,
      oldDone,
      oldLog,
      oldJobDone,
      oldJobLog,
      oldJobReserve,
      oldJobEvents,
      oldJobEventsBefore,
    ];
    expect(planned.map((item) => item.path).sort()).toEqual([...old].sort());

    await applyGc(plan, home.env);
    for (const gone of old) expect(existsSync(gone)).toBe(false);
    for (const kept of [youngDone, running, runningLog, runningEvents, stranger])
      expect(existsSync(kept)).toBe(true);
    expect(existsSync(join(home.scv, "turns"))).toBe(true);
  });
});
