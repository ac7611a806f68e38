// `scv agents install` never writes outside scv's home: a package's install scripts run with HOME and
// the XDG folders inside scv's tools home. Through the built binary and the real npm, offline: the
// package is a local tarball (an agent of the config names it) whose postinstall does what
// @qoder-ai/qodercli's and @kilocode/cli's do — a PATH block appended to ~/.bashrc and ~/.profile, a
// folder of its own in HOME, folders under ~/.config, ~/.local and ~/.cache. A platform package the
// row names is installed beside it.

import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const SCV = resolve("dist/scv.js");

let root: string;
let scvHome: string;
let userHome: string;
let env: NodeJS.ProcessEnv;

/** Every path below `dir` with its size and modification time: what "unchanged" compares. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      const stat = statSync(path);
      out[relative(dir, path)] = stat.isDirectory() ? "dir" : `${stat.size} ${stat.mtimeMs}`;
      if (stat.isDirectory()) walk(path);
    }
  };
  walk(dir);
  return out;
}

/** A package tarball `name` with a `name` bin and a postinstall writing where qodercli's and kilo's do. */
function packTarball(name: string): string {
  const dir = join(root, "src", name);
  mkdirSync(join(dir, "bin"), { recursive: true });
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({
      name,
      version: "1.0.0",
      bin: { [name]: "bin/cli.js" },
      scripts: { postinstall: "node postinstall.js" },
    }),
  );
  writeFileSync(join(dir, "bin", "cli.js"), `#!/usr/bin/env node\nconsole.log("${name} 1.0.0");\n`);
  writeFileSync(
    join(dir, "postinstall.js"),
    `const fs = require("node:fs");
const path = require("node:path");
const home = process.env.HOME;
for (const rc of [".bashrc", ".profile"]) fs.appendFileSync(path.join(home, rc), "# ${name} PATH block\\n");
fs.mkdirSync(path.join(home, ".${name}", "entry"), { recursive: true });
for (const v of ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"]) {
  const base = process.env[v] || path.join(home, v === "XDG_CONFIG_HOME" ? ".config" : v === "XDG_CACHE_HOME" ? ".cache" : ".local");
  fs.mkdirSync(path.join(base, "${name}"), { recursive: true });
}
`,
  );
  const packed = spawnSync("npm", ["pack", "--pack-destination", root, "--loglevel=error"], {
    cwd: dir,
    env,
    encoding: "utf8",
  });
  expect(packed.status, packed.stderr).toBe(0);
  return join(root, `${name}-1.0.0.tgz`);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "scv-install-home-"));
  scvHome = join(root, "scv");
  userHome = join(root, "home");
  mkdirSync(userHome);
  writeFileSync(join(userHome, ".bashrc"), "# the user's own\n");
  env = {
    PATH: process.env.PATH,
    HOME: userHome,
    SCV_HOME: scvHome,
    LANG: "C.UTF-8",
    // npm's own cache and logs are the user's npm config's business: here outside HOME, so that
    // HOME holds only what a package's script could write.
    npm_config_cache: join(root, "npm-cache"),
    npm_config_offline: "true",
    npm_config_update_notifier: "false",
    npm_config_audit: "false",
    npm_config_fund: "false",
  };
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe("scv agents install and the user's HOME", () => {
  it("runs the package's install scripts in scv's tools home; the user's HOME is unchanged", () => {
    const tarball = packTarball("homewriter");
    const platform = packTarball(`homewriter-${process.platform}-${process.arch}`);
    mkdirSync(scvHome, { recursive: true });
    writeFileSync(
      join(scvHome, "config.toml"),
      `[agents.homewriter]\ncommand = "homewriter"\npackages = [${JSON.stringify(tarball)}]\nplatformPackage = ${JSON.stringify(platform.replace(`${process.platform}-${process.arch}`, "{platform}-{arch}"))}\n`,
    );
    const before = tree(userHome);
    const run = spawnSync(process.execPath, [SCV, "agents", "install", "homewriter"], {
      env,
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(tree(userHome), "the user's HOME changed").toEqual(before);
    expect(run.stderr).toMatch(
      new RegExp(`^scv: homewriter \\S+ installed at ${join(scvHome, "tools", "bin", "homewriter")}$`, "m"),
    );
    expect(readFileSync(join(userHome, ".bashrc"), "utf8")).toBe("# the user's own\n");
    // What the scripts wrote is in scv's tools home instead, private to scv.
    const toolsHome = join(scvHome, "tools", "home");
    expect(readFileSync(join(toolsHome, ".bashrc"), "utf8")).toContain("# homewriter PATH block");
    expect(readFileSync(join(toolsHome, ".profile"), "utf8")).toContain("# homewriter PATH block");
    for (const folder of [
      ".homewriter/entry",
      ".config/homewriter",
      ".local/share/homewriter",
      ".cache/homewriter",
      ".local/state/homewriter",
    ])
      expect(existsSync(join(toolsHome, folder)), folder).toBe(true);
    expect(statSync(toolsHome).mode & 0o777).toBe(0o700);
    // The platform package the row names was installed beside it.
    expect(
      existsSync(
        join(scvHome, "tools", "lib", "node_modules", `homewriter-${process.platform}-${process.arch}`),
      ),
    ).toBe(true);
  }, 150_000);
});
