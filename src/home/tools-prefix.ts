// scv's tools prefix (`$SCV_HOME/tools`), where `scv agents install` puts the agents' npm packages,
// and the HOME their install scripts run in. Packages write into HOME when they install: one
// postinstall appends a PATH block to ~/.bashrc and ~/.profile and creates a folder of its own in
// HOME; another creates folders under ~/.config, ~/.local and ~/.cache. npm runs every package script through its
// `script-shell`, so scv hands it one that points HOME and the XDG folders into `tools/home` first:
// the scripts write there, and npm itself keeps the user's own config, registry and cache.

import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureScvDir } from "./agent-home.js";
import type { Env } from "./paths.js";

/** Single-quoted for /bin/sh. */
function shellQuoted(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The variables a package script gets, all inside `home`. */
function scriptHomeEnvironment(home: string): Record<string, string> {
  return {
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_STATE_HOME: join(home, ".local", "state"),
  };
}

/** The script shell: /bin/sh, run with the variables of `scriptHomeEnvironment(home)`. */
export function scriptShellText(home: string): string {
  const variables = scriptHomeEnvironment(home);
  const assignments = Object.entries(variables).map(([name, value]) => `${name}=${shellQuoted(value)}`);
  return [
    "#!/bin/sh",
    "# Written by scv: npm runs package scripts through this shell, with HOME in scv's tools home.",
    ...assignments,
    `export ${Object.keys(variables).join(" ")}`,
    'exec /bin/sh "$@"',
    "",
  ].join("\n");
}

/** Writes `$SCV_HOME/tools/script-shell` (0700, its HOME `$SCV_HOME/tools/home`, 0700) and returns
 * its path, for npm's `--script-shell`. */
export function ensureScriptShell(env: Env): string {
  const home = ensureScvDir(env, "tools", "home");
  const shell = join(ensureScvDir(env, "tools"), "script-shell");
  // Written anew, never through a link planted in its place.
  rmSync(shell, { force: true });
  writeFileSync(shell, scriptShellText(home), { mode: 0o700, flag: "wx" });
  return shell;
}

/** A row's platform package for this machine: `{platform}` and `{arch}` as Node names them. */
export function platformPackageName(
  template: string,
  platform: string = process.platform,
  arch: string = process.arch,
): string {
  return template.replaceAll("{platform}", platform).replaceAll("{arch}", arch);
}
