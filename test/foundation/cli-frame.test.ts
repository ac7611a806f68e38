// The command-line frame through the built binary: help, version, agents list, unknown commands.

import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { worldTime } from "../helpers/timing.js";

const SCV = resolve("dist/scv.js");

function scv(args: string[], env: NodeJS.ProcessEnv) {
  const result = spawnSync(process.execPath, [SCV, ...args], { env, encoding: "utf8", timeout: 20_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

let env: NodeJS.ProcessEnv;
let bin: string;

beforeAll(() => {
  const root = mkdtempSync(join(tmpdir(), "scv-frame-"));
  bin = join(root, "bin");
  mkdirSync(bin);
  // A fake codex that answers --version like the real one; nothing else is installed.
  writeFileSync(
    join(bin, "codex"),
    "#!/bin/sh\n[ \"$1\" = --version ] && echo 'codex-cli 0.171.0' && exit 0\nexit 9\n",
  );
  chmodSync(join(bin, "codex"), 0o755);
  env = {
    ...worldTime(),
    PATH: `${bin}:/usr/bin:/bin`,
    HOME: join(root, "home"),
    SCV_HOME: join(root, "scv"),
    LANG: "C.UTF-8",
  };
});

describe("scv frame", () => {
  it("prints help and version on stdout and exits 0", () => {
    const help = scv(["--help"], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("delegate");
    expect(help.stdout).toContain("agents");
    const version = scv(["--version"], env);
    expect(version.code).toBe(0);
    const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };
    expect(version.stdout.trim()).toBe(pkg.version);
  });

  it("lists every agent with what is installed, its version and capabilities", () => {
    const result = scv(["agents", "list", "--json"], env);
    expect(result.code).toBe(0);
    const rows = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(19);
    const codex = rows.find((row) => row.name === "codex");
    expect(codex).toMatchObject({
      product: "Codex",
      installed: true,
      path: join(bin, "codex"),
      version: "0.171.0",
      resume: true,
      structuredOutput: true,
      acp: true,
    });
    expect(rows.find((row) => row.name === "claude")).toMatchObject({
      installed: false,
      path: null,
      version: null,
    });
    // Which rows were driven through turns, which only checked offline (their CLI talks only to its
    // vendor), which not at all (not installable here).
    const checked = (name: string) => rows.find((row) => row.name === name)?.checked;
    expect([checked("codex"), checked("cline"), checked("kilo"), checked("droid")]).toEqual([
      "turns",
      "turns",
      "turns",
      "turns",
    ]);
    expect([checked("auggie"), checked("qoder")]).toEqual(["offline", "offline"]);
    expect(rows.find((row) => row.name === "auggie")?.verified).toBe("0.36.0");
    expect(rows.find((row) => row.name === "crush")).toMatchObject({
      checked: "none",
      verified: "unverified",
    });
    expect(result.stderr).toBe("");
  });

  it("prints a table by default, `agents` alone too", () => {
    const table = scv(["agents"], env);
    expect(table.code).toBe(0);
    expect(table.stdout.split("\n")[0]).toMatch(/^AGENT\s+PRODUCT\s+INSTALLED\s+VERSION/);
    expect(table.stdout).toMatch(/codex\s+Codex\s+\S+\/codex\s+0\.171\.0/);
    expect(table.stdout).toMatch(/kimi\s+Kimi Code\s+not installed/);
    // The version each row was checked against, and how: offline only where turns need the vendor.
    expect(table.stdout.split("\n")[0]).toMatch(/\sACP\s+VERIFIED$/);
    expect(table.stdout).toMatch(/^cline\s.*\s3\.0\.65$/m);
    expect(table.stdout).toMatch(/^auggie\s.*\s0\.36\.0 \(offline only\)$/m);
    expect(table.stdout).toMatch(/^crush\s.*\s(yes|-)\s+-$/m);
  });

  it("refuses an unknown command with exit 2 and one line naming the known ones", () => {
    const result = scv(["delgate", "codex", "hi"], env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    // The known ones as help lists them: not the detached runner's hidden background-turn.
    expect(result.stderr).toBe(
      "scv: unknown command 'delgate' — known: delegate, review, agents, attach, run, compare, diff, apply, conversations, wait, usage, ps, top, logs, kill, mcp\n",
    );
    const agents = scv(["agents", "lst"], env);
    expect(agents.code).toBe(2);
    expect(agents.stderr).toMatch(/unknown agents command 'lst' — known: list, status, show, login/);
  });

  it("refuses an unknown option with exit 2", () => {
    const result = scv(["agents", "list", "--bogus"], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown option '--bogus'/);
    expect(result.stderr).not.toMatch(/at .*\.js:\d+/);
    // One line: what is wrong, then where that command's options are.
    expect(result.stderr).toBe("scv: unknown option '--bogus' — see: scv agents list --help\n");
    const suggested = scv(["delegate", "--jsn", "claude", "hi"], env);
    expect(suggested.code).toBe(2);
    expect(suggested.stderr).toBe(
      "scv: unknown option '--jsn' (Did you mean --json?) — see: scv delegate --help\n",
    );
  });

  it("reports a malformed config file with exit 2, naming file and key", () => {
    const config = join(env.SCV_HOME ?? "", "bad.toml");
    mkdirSync(env.SCV_HOME ?? "", { recursive: true });
    writeFileSync(config, `[agents.codex]\npolicy = "yolo"\n`);
    const result = scv(["agents", "list"], { ...env, SCV_CONFIG: config });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      `scv: ${config}: agents.codex.policy: expected one of "auto", "default"`,
    );
  });

  it("runs as an executable with a shebang", () => {
    const output = execFileSync(SCV, ["--version"], { env, encoding: "utf8" });
    expect(output.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
