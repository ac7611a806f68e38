// The script shell `scv agents install` hands npm: package scripts run in /bin/sh with HOME and the
// XDG folders inside scv's tools home, whatever characters the home's path holds.

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ensureScriptShell, platformPackageName, scriptShellText } from "../../src/home/tools-prefix.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "scv-tools-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("the install scripts' shell", () => {
  it("runs the script as sh -c does, with HOME and the XDG folders in the tools home", () => {
    const home = join(root, `it's a "home" $HOME \`x\``);
    const shell = join(root, "shell");
    writeFileSync(shell, scriptShellText(home), { mode: 0o700 });
    const run = spawnSync(
      shell,
      [
        "-c",
        'printf "%s\\n" "$HOME" "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_CACHE_HOME" "$XDG_STATE_HOME" "$1"',
        "sh",
        "arg",
      ],
      {
        encoding: "utf8",
        env: { PATH: "/usr/bin:/bin", HOME: "/the/users/home", XDG_CONFIG_HOME: "/the/users/config" },
      },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.split("\n")).toEqual([
      home,
      join(home, ".config"),
      join(home, ".local", "share"),
      join(home, ".cache"),
      join(home, ".local", "state"),
      "arg",
      "",
    ]);
  });

  it("is written 0700 in $SCV_HOME/tools, its home 0700 beside it", () => {
    const env = { SCV_HOME: join(root, "scv") };
    const shell = ensureScriptShell(env);
    expect(shell).toBe(join(root, "scv", "tools", "script-shell"));
    expect(statSync(shell).mode & 0o777).toBe(0o700);
    expect(statSync(join(root, "scv", "tools", "home")).mode & 0o777).toBe(0o700);
    // Written again over the old one.
    expect(ensureScriptShell(env)).toBe(shell);
  });

  it("names a row's platform package as Node names the machine", () => {
    expect(platformPackageName("@factory/cli-{platform}-{arch}", "linux", "x64")).toBe(
      "@factory/cli-linux-x64",
    );
    expect(platformPackageName("@factory/cli-{platform}-{arch}", "darwin", "arm64")).toBe(
      "@factory/cli-darwin-arm64",
    );
  });
});
