// `scv agents list` and `scv agents status` find every installed CLI's version without writing into
// scv's homes: an npm install is read from its package.json (the CLI never runs), any other CLI is
// asked `--version` in a throwaway home that is gone afterwards. Before, `--version` ran with HOME
// and XDG_* in $SCV_HOME/agents/<name>, and copilot unpacked ~235 MB there.

import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { useLab } from "../helpers/lab.js";
import { killAll, survivors } from "../helpers/pids.js";
import { scv, startScv, type World } from "../helpers/scv.js";

let world: World;
let tmp: string;
let env: Record<string, string>;

/** A CLI that, whenever it runs, records where it was pointed and writes there as copilot, gemini
 * and opencode do on a first run: its cache, its config, TMPDIR and the working folder. */
function writingCli(path: string, answer: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(
    path,
    `#!${process.execPath}
const fs = require("node:fs"), path = require("node:path");
const e = process.env;
fs.writeFileSync(path.join(${JSON.stringify(world.calls)}, "version-" + path.basename(process.argv[1]) + ".json"),
  JSON.stringify({ HOME: e.HOME, TMPDIR: e.TMPDIR, cwd: process.cwd() }));
for (const dir of [e.XDG_CACHE_HOME + "/pkg", e.XDG_CONFIG_HOME + "/cli", e.HOME + "/.cli", e.TMPDIR + "/x", "y"]) {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "blob"), "x".repeat(4096));
}
console.log(${JSON.stringify(answer)});
`,
  );
  chmodSync(path, 0o755);
}

useLab((created) => {
  world = created;
});
beforeEach(() => {
  // copilot as `npm i -g @github/copilot` leaves it: prefix/bin/copilot → the package's loader.
  const prefix = join(world.root, "prefix");
  const pkg = join(prefix, "lib", "node_modules", "@github", "copilot");
  writingCli(join(pkg, "npm-loader.js"), "9.9.9");
  writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "@github/copilot", version: "1.0.102" }));
  mkdirSync(join(prefix, "bin"));
  symlinkSync("../lib/node_modules/@github/copilot/npm-loader.js", join(prefix, "bin", "copilot"));
  // gemini as a native binary from no package: it has to be asked.
  writingCli(join(world.root, "native", "gemini"), "0.61.0");
  tmp = world.tmp;
  env = {
    PATH: `${join(prefix, "bin")}:${join(world.root, "native")}:${world.env.PATH}`,
    TMPDIR: tmp,
  };
});

function recorded(cli: string): { HOME: string; TMPDIR: string; cwd: string } | undefined {
  const path = join(world.calls, `version-${cli}.json`);
  return existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : undefined;
}

describe.each([
  ["agents", "list", "--json"],
  ["agents", "status", "--json"],
])("scv %s %s", (...args) => {
  it("reports every version and writes nothing under $SCV_HOME/agents", async () => {
    const run = await scv(world, args, { env });
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    const rows = JSON.parse(run.stdout) as { name?: string; agent?: string; version: string | null }[];
    const version = (name: string) => rows.find((row) => (row.name ?? row.agent) === name)?.version;
    // From the package.json: the loader would have answered 9.9.9, and it never ran.
    expect(version("copilot")).toBe("1.0.102");
    expect(recorded("copilot")).toBeUndefined();
    // Asked, in a throwaway home inside TMPDIR, its TMPDIR and working folder in there too, then removed.
    expect(version("gemini")).toBe("0.61.0");
    const gemini = recorded("gemini");
    expect(dirname(gemini?.HOME ?? "")).toBe(tmp);
    expect(gemini?.cwd).toBe(gemini?.HOME);
    expect(gemini?.TMPDIR).toBe(join(gemini?.HOME ?? "", "tmp"));
    expect(readdirSync(tmp)).toEqual([]);
    // The fake agents elsewhere on PATH were asked too (no package.json around them).
    expect(version("codex")).toBe("0.0.0-fake");
    expect(existsSync(join(world.scvHome, "agents"))).toBe(false);
    expect(existsSync(join(world.project, "y"))).toBe(false);
    // The listing says what each agent offers, for choosing one.
    if (args[1] === "list") {
      expect(rows.find((row) => row.name === "codex")).toMatchObject({
        offers: expect.stringMatching(/^OpenAI's coding agent/),
      });
    }
  });
});

describe("the --version answers scv keeps", () => {
  /** A CLI not from npm that counts how often it is asked. */
  function countingCli(path: string, answer: string, count: string): void {
    writeFileSync(
      path,
      `#!/bin/sh\necho asked >> ${JSON.stringify(count)}\necho ${JSON.stringify(answer)}\n`,
    );
    chmodSync(path, 0o755);
  }

  it("are asked once per executable as it is; a changed file, or a deleted cache, is asked again", async () => {
    // An scv home as any sign-in leaves it (a listing alone does not make one).
    mkdirSync(world.scvHome, { recursive: true });
    const count = join(world.calls, "asked");
    const cli = join(world.root, "native", "gemini");
    countingCli(cli, "gemini 0.61.0", count);
    const asked = () => (existsSync(count) ? readFileSync(count, "utf8").split("\n").length - 1 : 0);
    const version = async () => {
      const run = await scv(world, ["agents", "list", "--json"], { env });
      expect(run.exitCode).toBe(0);
      return (JSON.parse(run.stdout) as { name: string; version: string | null }[]).find(
        (row) => row.name === "gemini",
      )?.version;
    };
    expect(await version()).toBe("0.61.0");
    expect(await version()).toBe("0.61.0");
    expect(asked()).toBe(1);
    expect(statSync(join(world.scvHome, "cache", "versions.json")).mode & 0o777).toBe(0o600);
    // Reinstalled: another file at the same path.
    countingCli(cli, "gemini 0.62.0", count);
    utimesSync(cli, new Date(), new Date(Date.now() + 5_000));
    expect(await version()).toBe("0.62.0");
    expect(asked()).toBe(2);
    rmSync(join(world.scvHome, "cache"), { recursive: true });
    expect(await version()).toBe("0.62.0");
    expect(asked()).toBe(3);
  });
});

/** A CLI that records its pid and never answers. */
function hangingCli(path: string, pidFile: string): void {
  writeFileSync(
    path,
    `#!${process.execPath}\nrequire("node:fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));\nsetInterval(() => {}, 1000);\n`,
  );
  chmodSync(path, 0o755);
}

describe("an interrupted scv agents list", () => {
  // The CLIs it asks run in process groups of their own (so that ending one ends all it started),
  // which a terminal's Ctrl-C does not reach: before, they ran on after scv, with their throwaway
  // homes left in TMPDIR.
  it.each([
    ["SIGINT", 130, ""],
    ["SIGTERM", 143, ""],
    // The terminal closed.
    ["SIGHUP", 129, ""],
    // A record in $SCV_HOME/turns makes scv load its turn registry, and with it proper-lockfile's
    // signal-exit, which listens for both signals too (and once swallowed this one).
    ["SIGINT", 130, " with a turn record left in its home"],
  ] as const)(
    "on %s ends the CLI it is asking, removes its throwaway home and exits %i%s",
    async (signal, code, left) => {
      if (left !== "") {
        mkdirSync(join(world.scvHome, "turns"), { recursive: true });
        writeFileSync(join(world.scvHome, "turns", "claude-abc123.json"), "{}\n");
      }
      const pidFile = join(world.calls, "hanging.pid");
      hangingCli(join(world.root, "native", "grok"), pidFile);
      const run = startScv(world, ["agents", "list"], { env });
      let pid = 0;
      for (let waited = 0; pid === 0 && waited < 15_000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        if (existsSync(pidFile)) pid = Number(readFileSync(pidFile, "utf8"));
      }
      expect(pid).toBeGreaterThan(0);
      try {
        // The other CLIs on PATH are being asked too, each in a throwaway home of its own.
        expect(readdirSync(tmp).filter((name) => name.startsWith("scv-version-"))).not.toEqual([]);
        run.kill(signal);
        const result = await run;
        expect([result.exitCode, String(result.stderr)]).toEqual([code, ""]);
        expect(await survivors([pid], 3_000)).toEqual([]);
        expect(readdirSync(tmp)).toEqual([]);
      } finally {
        killAll([pid]);
      }
    },
  );
});
