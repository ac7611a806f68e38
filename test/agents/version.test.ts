// An installed CLI's version: read from the npm package that holds its executable (through symlinks
// and npm's shell shims, past package.json files of other names), else its `--version` answer given
// in a throwaway home that is gone afterwards.

import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AdapterDescriptor, adapter } from "../../src/adapters.js";
import { agentVersion, packageVersion, parseVersion } from "../../src/agents/version.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "scv-agent-version-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function row(name: string): AdapterDescriptor {
  const found = adapter(name);
  if (found === undefined) throw new Error(`no row ${name}`);
  return found;
}

function write(path: string, text: string, mode = 0o644): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text, { mode });
  chmodSync(path, mode);
  return path;
}

function pkg(dir: string, data: Record<string, unknown>): void {
  write(join(dir, "package.json"), JSON.stringify(data));
}

/** A file that, if it ever runs, leaves a mark and answers a version unlike the package's. */
function tripwire(path: string): string {
  const mark = join(root, "ran");
  return write(
    path,
    `#!${process.execPath}\nrequire("node:fs").writeFileSync(${JSON.stringify(mark)}, "");\nconsole.log("9.9.9");\n`,
    0o755,
  );
}

/** `prefix/lib/node_modules/<name>` with `bin` linked from `prefix/bin/<command>`, as `npm i -g` does. */
function npmInstall(name: string, version: string, binPath: string, command: string): string {
  const dir = join(root, "prefix", "lib", "node_modules", name);
  pkg(dir, { name, version, bin: { [command]: binPath } });
  tripwire(join(dir, binPath));
  const link = join(root, "prefix", "bin", command);
  mkdirSync(dirname(link), { recursive: true });
  symlinkSync(join("..", "lib", "node_modules", name, binPath), link);
  return link;
}

describe("packageVersion", () => {
  it("follows the bin link into node_modules/<scope>/<name> and reads its version", () => {
    const bin = npmInstall("@openai/codex", "0.171.0", "bin/codex.js", "codex");
    expect(packageVersion(bin, ["@openai/codex"])).toBe("0.171.0");
  });

  it("an unscoped package, its bin a native binary in a folder of its own", () => {
    const bin = npmInstall("opencode-ai", "1.18.33", "bin/opencode.exe", "opencode");
    expect(packageVersion(bin, ["opencode-ai"])).toBe("1.18.33");
  });

  it("passes over package.json files of other names, and nameless ones, on the way up", () => {
    const bin = npmInstall("@google/gemini-cli", "0.61.0", "bundle/sub/gemini.js", "gemini");
    const pkgDir = join(root, "prefix", "lib", "node_modules", "@google", "gemini-cli");
    pkg(join(pkgDir, "bundle", "sub"), { type: "module" });
    pkg(join(pkgDir, "bundle"), { name: "gemini-bundle", version: "7.7.7" });
    expect(packageVersion(bin, ["@google/gemini-cli"])).toBe("0.61.0");
  });

  it("a package.json of the right name inside the package is not the package's own", () => {
    const bin = npmInstall("@github/copilot", "1.0.102", "dist/loader.js", "copilot");
    pkg(join(root, "prefix", "lib", "node_modules", "@github", "copilot", "dist"), {
      name: "@github/copilot",
      version: "0.0.1",
    });
    expect(packageVersion(bin, ["@github/copilot"])).toBe("1.0.102");
  });

  it("cline: its bin linked by its postinstall into its platform's package is read there, from its row", () => {
    const bin = npmInstall("cline", "3.0.65", "bin/cline", "cline");
    const platform = join(root, "prefix", "lib", "node_modules", "@cline", "cli-linux-x64");
    pkg(platform, { name: "@cline/cli-linux-x64", version: "3.0.65" });
    tripwire(join(platform, "bin", "cline"));
    rmSync(bin);
    symlinkSync(join("..", "lib", "node_modules", "@cline", "cli-linux-x64", "bin", "cline"), bin);
    const entry = row("cline");
    expect(packageVersion(bin, [...entry.packages, ...(entry.binPackages ?? [])])).toBe("3.0.65");
  });

  it("follows a chain of links (a user's ~/bin → the global prefix → the package)", () => {
    const bin = npmInstall("@openai/codex", "0.171.0", "bin/codex.js", "codex");
    const mine = join(root, "mybin", "codex");
    mkdirSync(dirname(mine));
    symlinkSync(bin, mine);
    expect(packageVersion(mine, ["@openai/codex"])).toBe("0.171.0");
  });

  it("reads through an npm/pnpm shell shim to the script it runs", () => {
    const dir = join(root, "global", "node_modules", "@qwen-code", "qwen-code");
    pkg(dir, { name: "@qwen-code/qwen-code", version: "0.24.4" });
    tripwire(join(dir, "cli-entry.js"));
    // cmd-shim's text, as pnpm and `npm i` on some setups write it.
    const shim = write(
      join(root, "global", "bin", "qwen"),
      [
        "#!/bin/sh",
        `basedir=$(dirname "$(echo "$0" | sed -e 's,\\\\,/,g')")`,
        'if [ -x "$basedir/node" ]; then',
        '  exec "$basedir/node"  "$basedir/../node_modules/@qwen-code/qwen-code/cli-entry.js" "$@"',
        "else",
        '  exec node  "$basedir/../node_modules/@qwen-code/qwen-code/cli-entry.js" "$@"',
        "fi",
        "",
      ].join("\n"),
      0o755,
    );
    expect(packageVersion(shim, ["@qwen-code/qwen-code"])).toBe("0.24.4");
  });

  it("nothing for a package of another name, even with an ancestor project of the right one", () => {
    // The bin belongs to `helper`, nested in codex's own node_modules: its version is not codex's.
    const dir = join(root, "prefix", "lib", "node_modules", "@openai", "codex");
    pkg(dir, { name: "@openai/codex", version: "0.171.0" });
    pkg(join(dir, "node_modules", "helper"), { name: "helper", version: "2.0.0" });
    const bin = tripwire(join(dir, "node_modules", "helper", "bin", "codex"));
    expect(packageVersion(bin, ["@openai/codex"])).toBeNull();
    expect(packageVersion(bin, ["helper"])).toBe("2.0.0");
  });

  it("nothing for a source checkout of the package (not under node_modules)", () => {
    const dir = join(root, "src", "gemini-cli");
    pkg(dir, { name: "@google/gemini-cli", version: "0.62.0-dev" });
    const bin = tripwire(join(dir, "bundle", "gemini.js"));
    expect(packageVersion(bin, ["@google/gemini-cli"])).toBeNull();
  });

  it("nothing for a broken link, a missing file, no package.json, or a version that is not one", () => {
    const broken = join(root, "bin", "codex");
    mkdirSync(dirname(broken));
    symlinkSync(join(root, "nowhere", "codex.js"), broken);
    expect(packageVersion(broken, ["@openai/codex"])).toBeNull();
    expect(packageVersion(join(root, "missing"), ["@openai/codex"])).toBeNull();
    expect(packageVersion(tripwire(join(root, "native", "codex")), ["@openai/codex"])).toBeNull();
    const odd = npmInstall("opencode-ai", "latest", "bin/opencode", "opencode");
    expect(packageVersion(odd, ["opencode-ai"])).toBeNull();
    write(join(root, "prefix", "lib", "node_modules", "opencode-ai", "package.json"), "{ not json");
    expect(packageVersion(odd, ["opencode-ai"])).toBeNull();
  });

  it("nothing when the row names no package", () => {
    const bin = npmInstall("cursor-agent", "1.0.0", "bin/cursor-agent", "cursor-agent");
    expect(packageVersion(bin, [])).toBeNull();
  });
});

describe("agentVersion", () => {
  const env = () => ({
    PATH: "/usr/bin:/bin",
    HOME: join(root, "user"),
    SCV_HOME: join(root, "scv"),
    TMPDIR: tmpdir(),
  });

  it("an npm install: the package's version, and the CLI is never started", async () => {
    const bin = npmInstall("@github/copilot", "1.0.102", "npm-loader.js", "copilot");
    expect(await agentVersion({ entry: row("copilot"), executable: bin, env: env() })).toBe("1.0.102");
    expect(existsSync(join(root, "ran"))).toBe(false);
  });

  it("the row's binPackages: amp's bin lives in its dependency @ampcode/cli", async () => {
    const bin = npmInstall("@ampcode/cli", "0.0.1790142911-g7618fb", "bin/amp.exe", "amp");
    pkg(join(root, "prefix", "lib", "node_modules", "@sourcegraph", "amp"), {
      name: "@sourcegraph/amp",
      version: "0.0.1790142911-g7618fb",
    });
    expect(await agentVersion({ entry: row("amp"), executable: bin, env: env() })).toBe(
      "0.0.1790142911-g7618fb",
    );
    expect(existsSync(join(root, "ran"))).toBe(false);
  });

  it("otherwise asks `--version` in a throwaway home, removed afterwards, never the agent home", async () => {
    const record = join(root, "record.json");
    // Writes where copilot and opencode write on a first run: its cache, its config, TMPDIR, the cwd.
    const cli = write(
      join(root, "native", "copilot"),
      `#!${process.execPath}
const fs = require("node:fs"), path = require("node:path");
const e = process.env;
fs.writeFileSync(${JSON.stringify(record)}, JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd(), HOME: e.HOME, XDG_CACHE_HOME: e.XDG_CACHE_HOME, XDG_CONFIG_HOME: e.XDG_CONFIG_HOME, TMPDIR: e.TMPDIR, COPILOT_GITHUB_TOKEN: e.COPILOT_GITHUB_TOKEN ?? null, ANTHROPIC_API_KEY: e.ANTHROPIC_API_KEY ?? null, COPILOT_MODEL: e.COPILOT_MODEL ?? null }));
for (const dir of [e.XDG_CACHE_HOME + "/copilot/pkg", e.XDG_CONFIG_HOME + "/x", e.TMPDIR + "/y", "z"]) {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "blob"), "x".repeat(1000));
}
console.log("GitHub Copilot CLI 1.0.103.");
`,
      0o755,
    );
    const scratchParent = join(root, "tmp");
    mkdirSync(scratchParent);
    const before = process.env.TMPDIR;
    process.env.TMPDIR = scratchParent; // os.tmpdir() of the scv process
    try {
      const version = await agentVersion({
        entry: row("copilot"),
        executable: cli,
        env: { ...env(), COPILOT_GITHUB_TOKEN: "canary", ANTHROPIC_API_KEY: "canary" },
        extra: { COPILOT_MODEL: "m" },
      });
      expect(version).toBe("1.0.103");
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
    const seen = JSON.parse(readFileSync(record, "utf8")) as Record<string, string | null>;
    expect(seen.argv).toEqual(["--version"]);
    expect(dirname(seen.HOME as string)).toBe(scratchParent);
    expect(seen.HOME).toMatch(/\/scv-version-[^/]+$/);
    expect(seen.cwd).toBe(seen.HOME);
    expect(seen.XDG_CACHE_HOME).toBe(join(seen.HOME as string, ".cache"));
    expect(seen.XDG_CONFIG_HOME).toBe(join(seen.HOME as string, ".config"));
    expect(seen.TMPDIR).toBe(join(seen.HOME as string, "tmp"));
    // Isolated as a turn is: no credential variable of the user's; the config's variables do.
    expect(seen.COPILOT_GITHUB_TOKEN).toBeNull();
    expect(seen.ANTHROPIC_API_KEY).toBeNull();
    expect(seen.COPILOT_MODEL).toBe("m");
    expect(readdirSync(scratchParent)).toEqual([]);
    expect(existsSync(join(root, "scv"))).toBe(false);
    expect(existsSync(join(root, "user"))).toBe(false);
  });

  it("null, not an error, when `--version` fails, prints no version, or the file cannot run", async () => {
    const failing = write(join(root, "a", "gemini"), "#!/bin/sh\necho 'gemini 0.61.0'\nexit 3\n", 0o755);
    const mute = write(join(root, "b", "gemini"), "#!/bin/sh\necho 'unknown'\n", 0o755);
    const broken = join(root, "c", "gemini");
    mkdirSync(dirname(broken));
    symlinkSync(join(root, "nowhere"), broken);
    for (const executable of [failing, mute, broken]) {
      expect(await agentVersion({ entry: row("gemini"), executable, env: env() })).toBeNull();
    }
  });

  it("a CLI not on npm (no packages in its row) is asked, whatever package holds it", async () => {
    const bin = npmInstall("cursor-agent", "1.0.0", "bin/cursor-agent", "cursor-agent");
    expect(await agentVersion({ entry: row("cursor"), executable: bin, env: env() })).toBe("9.9.9");
    expect(existsSync(join(root, "ran"))).toBe(true);
  });
});

describe("parseVersion", () => {
  it("the first version-looking token of an answer", () => {
    expect(parseVersion("codex-cli 0.171.0\n")).toBe("0.171.0");
    expect(parseVersion("2.1.332 (Claude Code)")).toBe("2.1.332");
    expect(parseVersion("0.0.1790142911-g7618fb\n")).toBe("0.0.1790142911-g7618fb");
    expect(parseVersion("no version here")).toBeNull();
  });
});
