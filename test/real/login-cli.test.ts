// Sign-in against the real CLIs, in the contract suite only (vitest.real.config.ts: it was in the e2e
// tier too, by naming dist/scv.js, and so ran twice in CI); skipped where the pinned install
// (scripts/install-real-clis.mjs) is missing. Everything here is offline: `codex login
// --with-api-key`, `codex login status`, `codex logout` and `claude auth status|logout` only read
// and write files. It proves the files scv writes are the ones the real CLIs read, that logout takes
// away what they would sign in with, and that a sign-in that needs a terminal is not started
// without one (the real `codex login` and `opencode auth login` would wait forever).

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ADAPTERS, type AdapterDescriptor } from "../../src/adapters.js";
import { worldTime } from "../helpers/timing.js";

// The contract suite's copy of the build when it names one (SCV_REAL_SCV, test/real/harness.ts):
// CI rebuilds dist/ while the suite runs.
const SCV = process.env.SCV_REAL_SCV ?? resolve("dist/scv.js");

function realBinDir(): string | undefined {
  const result = spawnSync(process.execPath, ["scripts/install-real-clis.mjs", "--bin-dir"], {
    encoding: "utf8",
  });
  const dir = result.stdout.trim().split("\n").at(-1);
  return result.status === 0 && dir !== undefined && existsSync(dir) ? dir : undefined;
}

const BIN = realBinDir();
/** The key's middle, and its ends: the real `codex login status` shows a prefix and a suffix. */
const KEY = "sk-CANARYrealKEY4b9Mq7Zt2";
const FRAGMENTS = ["CANARY", "sk-CANA", "Mq7Zt2", "Zt2"];

let root: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "scv-login-real-"));
  mkdirSync(join(root, "home"));
  env = {
    ...worldTime(),
    PATH: `${BIN}:${dirname(process.execPath)}:/usr/bin:/bin`,
    HOME: join(root, "home"),
    SCV_HOME: join(root, "scv"),
    LANG: "C.UTF-8",
  };
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function scv(args: readonly string[], input = "", timeout = 60_000) {
  const result = spawnSync(process.execPath, [SCV, ...args], {
    env,
    input,
    encoding: "utf8",
    timeout,
  });
  for (const fragment of FRAGMENTS) {
    expect(result.stdout).not.toContain(fragment);
    expect(result.stderr).not.toContain(fragment);
  }
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe.skipIf(BIN === undefined)("real CLIs", () => {
  it("codex: login --with-api-key on stdin, its own status summarized, its own logout", () => {
    expect(scv(["agents", "login", "codex", "--with-api-key"], `${KEY}\n`).code).toBe(0);
    const auth = join(root, "scv", "agents", "codex", "auth.json");
    expect(statSync(auth).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(auth, "utf8"))).toMatchObject({ OPENAI_API_KEY: KEY });

    const status = scv(["agents", "status", "codex", "--json"]);
    expect(JSON.parse(status.stdout)).toMatchObject({
      state: "signed-in",
      detail: "signed in (API key)",
      version: "0.171.0",
    });
    expect(scv(["agents", "logout", "codex"]).code).toBe(0);
    expect(existsSync(auth)).toBe(false);
    expect(JSON.parse(scv(["agents", "status", "codex", "--json"]).stdout)).toMatchObject({
      state: "signed-out",
      detail: "not signed in",
    });
  });

  it("claude: the stored key and apiKeyHelper are what the real `claude auth status` signs in with", () => {
    expect(scv(["agents", "login", "claude", "--with-api-key"], `${KEY}\n`).code).toBe(0);
    const home = join(root, "scv", "agents", "claude");
    const result = spawnSync(join(BIN ?? "", "claude"), ["auth", "status"], {
      env: { ...env, HOME: home, CLAUDE_CONFIG_DIR: join(home, ".claude") },
      cwd: home,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      loggedIn: true,
      authMethod: "api_key_helper",
      apiKeySource: "apiKeyHelper",
    });
  });

  it("claude-ai: `claude auth logout` runs in its home and it stays signed out", () => {
    const logout = scv(["agents", "logout", "claude-ai"]);
    expect(logout.code).toBe(0);
    expect(logout.stdout).toContain("Successfully logged out");
    expect(scv(["agents", "status", "claude-ai"]).code).toBe(4);
  });

  it.each(["gemini", "qwen"])(
    "%s: logout removes the key login --with-api-key wrote, without opening the CLI, and the CLI has none then",
    (cli) => {
      expect(scv(["agents", "login", cli, "--with-api-key"], `${KEY}\n`).code).toBe(0);
      const logout = scv(["agents", "logout", cli], "", 20_000);
      expect(logout.code).toBe(0);
      expect(logout.stderr).toMatch(new RegExp(`^scv: ${cli}: signed out; removed `));
      const home = join(root, "scv", "agents", cli);
      for (const file of [".gemini/.env", ".gemini/settings.json", ".qwen/settings.json"]) {
        if (existsSync(join(home, file))) expect(readFileSync(join(home, file), "utf8")).not.toContain(KEY);
      }
      // The real CLI, asked for a turn: no key, so no model call (nothing listens anyway), and it says
      // it is not signed in.
      const turn = scv(["delegate", cli, "say hi", "--json", "--timeout", "60s"], "", 90_000);
      expect(turn.code).toBe(4);
    },
  );

  it.each([
    ["codex", "`codex login` finishes in a browser on this machine or at a terminal, and there is neither"],
    ["opencode", "`opencode auth login` asks at a terminal, and there is none"],
  ])(
    "%s: its own sign-in is not started without a terminal (or a display), and the way instead is real",
    (cli, said) => {
      const started = Date.now();
      const run = scv(["agents", "login", cli], "", 20_000);
      expect(run.code).toBe(2);
      expect(run.stderr.startsWith(`scv: ${said} — `)).toBe(true);
      expect(Date.now() - started).toBeLessThan(15_000);
      const login = (ADAPTERS as readonly AdapterDescriptor[]).find((entry) => entry.name === cli)?.login;
      const deviceCode = login?.kind === "command" ? (login.deviceCode ?? []) : [];
      if (deviceCode.length > 0) {
        // The device code named is a flag of the installed CLI's own sign-in.
        const help = spawnSync(join(BIN ?? "", cli), ["login", "--help"], {
          encoding: "utf8",
          timeout: 60_000,
        });
        for (const flag of deviceCode) expect(help.stdout).toContain(flag);
        expect(run.stderr).toContain(`scv agents login ${cli} -- ${deviceCode.join(" ")}`);
      }
    },
  );
});
