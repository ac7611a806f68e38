// The desktop's notifier and the terminal's bell, through the built scv: `desktop = true` runs
// notify-send with a title and the summary where it is found and nothing where it is not; a turn on a
// terminal that took bell_after or longer rings the bell, a shorter one does not.

import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useConfig } from "../helpers/acp.js";
import { useNotifyLab } from "../helpers/notify.js";
import { hasPython, scvOnTerminal } from "../helpers/pty.js";
import { scv, signIn, type World } from "../helpers/scv.js";

let world: World;
useNotifyLab((created) => {
  world = created;
});

describe("[notify] desktop and bell", () => {
  it("desktop = true: notify-send with a title and the summary where it is found; nothing where it is not", async () => {
    useConfig(world, "[notify]\ndesktop = true\n");
    await signIn(world, "claude");
    const quiet = await scv(world, ["delegate", "claude", "Say hi"]);
    expect([quiet.exitCode, quiet.stderr]).toEqual([0, expect.not.stringContaining("note")]);
    writeFileSync(
      join(world.bin, "notify-send"),
      `#!/bin/sh\nprintf '%s\\n' "$@" > ${JSON.stringify(join(world.root, "desktop.txt"))}\n`,
    );
    chmodSync(join(world.bin, "notify-send"), 0o755);
    await scv(world, ["delegate", "claude", "Say hi"]);
    const args = readFileSync(join(world.root, "desktop.txt"), "utf8").trimEnd().split("\n");
    expect(args.slice(0, 3)).toEqual(["--app-name=scv", "--", "scv: claude done"]);
    expect(args[3]).toMatch(/^claude done in \d+s · /);
  });

  it.skipIf(!hasPython)(
    "bell_after: a turn on a terminal that took that long rings the bell; a shorter one does not",
    async () => {
      await signIn(world, "claude");
      const onTerminal = () =>
        scvOnTerminal(world, ["delegate", "claude", "Say hi"], { waitFor: "conversation:" });
      useConfig(world, '[notify]\nbell_after = "1ms"\n');
      const rang = await onTerminal();
      expect(rang.code).toBe(0);
      expect(rang.output).toContain("\x07");
      useConfig(world, '[notify]\nbell_after = "1h"\n');
      expect((await onTerminal()).output).not.toContain("\x07");
    },
  );
});
