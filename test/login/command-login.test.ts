// `scv agents login|status|logout` through the CLIs' own commands: codex (command login and
// status, --with-api-key, import), claude-ai, and interactive sign-ins on a terminal.
// Through the built scv with fake CLIs first on PATH; every run is checked for canary secrets
// (test/helpers/login-world.ts).

import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  agentFile,
  env,
  expectNoSecretInFiles,
  hasScript,
  lastLine,
  mode,
  SCV,
  scv,
  scvHome,
  scvInTerminal,
  useLoginWorld,
  userHome,
} from "../helpers/login-world.js";

useLoginWorld();

describe("codex: command login and status, --with-api-key through its own login, import, command logout", () => {
  it("passes extra arguments through, summarizes its status without the tokens, signs out", () => {
    expect(JSON.parse(scv(["agents", "status", "codex", "--json"]).stdout)).toMatchObject({
      state: "signed-out",
      detail: "not signed in (no agent home yet)",
      source: "command",
    });
    const login = scv(["agents", "login", "codex", "--", "--device-auth"]);
    expect(login.code).toBe(0);
    expect(login.stdout).toBe("fake codex login args: --device-auth\n");
    expect(lastLine(login.stderr)).toBe("scv: codex: signed in; signed in (ChatGPT account)");
    expect(mode(agentFile("codex", "auth.json"))).toBe(0o600);
    expect(mode(join(scvHome, "agents", "codex"))).toBe(0o700);

    // The fake prints the refresh token in its status; scv shows only the summary.
    const status = scv(["agents", "status", "codex"]);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain("signed in (ChatGPT account)");
    expect(status.stdout).toContain("`codex login status`");

    const logout = scv(["agents", "logout", "codex"]);
    expect(logout.code).toBe(0);
    expect(lastLine(logout.stderr)).toBe("scv: codex: signed out");
    expect(existsSync(agentFile("codex", "auth.json"))).toBe(false);
    expect(JSON.parse(scv(["agents", "status", "codex", "--json"]).stdout).detail).toBe("not signed in");
  });

  it("a failed sign-in is one line with exit 4", () => {
    env.DISPLAY = ":0";
    env.FAKE_LOGIN_FAIL = "1";
    const run = scv(["agents", "login", "codex"]);
    expect(run.code).toBe(4);
    expect(lastLine(run.stderr)).toBe(
      "scv: `codex login` exited with 1 — see its messages above, then: scv agents login codex",
    );
  });

  it("a sign-in that fails after removing the working one gets it back", () => {
    expect(scv(["agents", "login", "codex", "--with-api-key"], "CANARY-KEY-7f3a\n").code).toBe(0);
    const before = readFileSync(agentFile("codex", "auth.json"), "utf8");
    env.DISPLAY = ":0";
    env.FAKE_LOGIN_FAIL = "1";
    const run = scv(["agents", "login", "codex"]);
    expect(run.code).toBe(4);
    expect(run.stderr).toContain("scv: codex: put back the earlier sign-in (auth.json)\n");
    expect(readFileSync(agentFile("codex", "auth.json"), "utf8")).toBe(before);
    expect(statSync(agentFile("codex", "auth.json")).mode & 0o777).toBe(0o600);
  });

  it("so does one stopped while it waits for a browser (SIGTERM to scv), and nothing is left running", async () => {
    expect(scv(["agents", "login", "codex", "--with-api-key"], "CANARY-KEY-7f3a\n").code).toBe(0);
    const before = readFileSync(agentFile("codex", "auth.json"), "utf8");
    const child = spawn(process.execPath, [SCV, "agents", "login", "codex"], {
      env: { ...env, FAKE_LOGIN_HANG: "1", DISPLAY: ":0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    await new Promise<void>((resolve) => {
      child.stdout.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("fake codex login args")) resolve();
      });
    });
    // The fake removes auth.json right after, as the real codex does.
    for (let waited = 0; existsSync(agentFile("codex", "auth.json")) && waited < 5_000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(existsSync(agentFile("codex", "auth.json"))).toBe(false);
    child.kill("SIGTERM");
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(143);
    expect(readFileSync(agentFile("codex", "auth.json"), "utf8")).toBe(before);
    // The CLI's sign-in (here a sleep standing in for its browser wait) went with scv.
    const alive = () => spawnSync("pgrep", ["-f", "sleep 600"], { encoding: "utf8" }).stdout.trim();
    for (let waited = 0; alive() !== "" && waited < 2_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(alive()).toBe("");
  });

  it("stores a key with `codex login --with-api-key` on stdin; the status never shows it", () => {
    const login = scv(["agents", "login", "codex", "--with-api-key"], "CANARY-KEY-7f3a\n");
    expect(login.code).toBe(0);
    expect(login.stderr).toMatch(
      /^scv: codex: API key stored in .*\/auth\.json \(0600\); API key in auth\.json\n$/,
    );
    expect(JSON.parse(readFileSync(agentFile("codex", "auth.json"), "utf8"))).toEqual({
      auth_mode: "apikey",
      OPENAI_API_KEY: "CANARY-KEY-7f3a",
    });
    const status = scv(["agents", "status", "codex", "--json"]);
    expect(JSON.parse(status.stdout)).toMatchObject({ state: "signed-in", detail: "signed in (API key)" });
    expectNoSecretInFiles("codex", ["auth.json"]);
  });

  it("a login that fails half-way leaves no partial credential file", () => {
    const run = scv(["agents", "login", "codex", "--with-api-key"], "CANARY-KEY-7f3a-FAIL\n");
    expect(run.code).toBe(4);
    expect(run.stderr).toBe(
      "scv: codex: the API key was not stored — its `login --with-api-key` failed (exit 1); nothing was changed\n",
    );
    expect(readdirSync(join(scvHome, "agents", "codex"))).toEqual([]);
  });

  it("imports only an API-key auth.json from the user's own ~/.codex", () => {
    const missing = scv(["agents", "login", "codex", "--import"]);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toBe(
      "scv: there is no ~/.codex/auth.json to import — sign in with: scv agents login codex\n",
    );

    mkdirSync(join(userHome, ".codex"));
    const own = join(userHome, ".codex", "auth.json");
    writeFileSync(
      own,
      JSON.stringify({ auth_mode: "chatgpt", tokens: { refresh_token: "CANARY-REFRESH-TOKEN" } }),
    );
    const refused = scv(["agents", "login", "codex", "--import"]);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(
      /^scv: ~\/\.codex\/auth\.json was not imported: it holds a ChatGPT sign-in/,
    );
    // Nothing is created for a refused import, not even the agent home.
    expect(existsSync(join(scvHome, "agents", "codex"))).toBe(false);

    writeFileSync(own, JSON.stringify({ auth_mode: "apikey", OPENAI_API_KEY: "CANARY-IMPORT-KEY" }), {
      mode: 0o644,
    });
    const imported = scv(["agents", "login", "codex", "--import"]);
    expect(imported.code).toBe(0);
    expect(imported.stderr).toBe("scv: codex: imported ~/.codex/auth.json (0600); signed in (API key)\n");
    expect(mode(agentFile("codex", "auth.json"))).toBe(0o600);
    // The user's own file is read, never changed.
    expect(mode(own)).toBe(0o644);
    expectNoSecretInFiles("codex", ["auth.json"]);
  });

  it("with neither a terminal nor a display, its browser sign-in is refused at once with the other ways", () => {
    const run = scv(["agents", "login", "codex"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "scv: `codex login` finishes in a browser on this machine or at a terminal, and there is neither — " +
        "pipe an API key: … | scv agents login codex --with-api-key, or use its device code: " +
        "scv agents login codex -- --device-auth, or copy your own ~/.codex/auth.json: scv agents login codex --import\n",
    );
    expect(existsSync(agentFile("codex", "auth.json"))).toBe(false);
  });

  it.skipIf(!hasScript)(
    "at a terminal without a display, it says how to do without a browser, then runs",
    async () => {
      const run = await scvInTerminal(["agents", "login", "codex"], "");
      expect(run.code).toBe(0);
      expect(run.output).toContain(
        "scv: codex: no display here — if no browser here can finish it, pipe an API key: … | scv agents login codex --with-api-key, or use its device code: scv agents login codex -- --device-auth",
      );
      expect(run.output).toContain("fake codex login args: \n");
      expect(lastLine(run.output)).toBe("scv: codex: signed in; signed in (ChatGPT account)");
    },
  );

  it("a CLI that is not installed is exit 3 with the install hint", () => {
    env.PATH = "/usr/bin:/bin";
    const run = scv(["agents", "login", "codex"]);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(
      "scv: Codex is not installed — run: scv agents install codex (npm: @openai/codex)\n",
    );
  });
});

describe("claude-ai: command login, stored status, command logout", () => {
  it("signs in with the CLI's own sign-in and reads the result from its credentials file", () => {
    // A browser (a display) finishes it without a terminal.
    env.DISPLAY = ":0";
    const login = scv(["agents", "login", "claude-ai"]);
    expect(login.code).toBe(0);
    expect(login.stdout).toContain("fake claude auth login args: --claudeai");
    expect(lastLine(login.stderr)).toBe(
      "scv: claude-ai: signed in; Claude subscription sign-in (max), renewable",
    );
    expect(mode(agentFile("claude-ai", ".claude/.credentials.json"))).toBe(0o600);

    const logout = scv(["agents", "logout", "claude-ai"]);
    expect(logout.code).toBe(0);
    expect(logout.stdout).toBe("Successfully logged out from your Anthropic account.\n");
    const status = scv(["agents", "status", "claude-ai", "--json"]);
    expect(status.code).toBe(4);
    expect(JSON.parse(status.stdout)).toMatchObject({ state: "signed-out", source: "stored" });
  });
});

describe("interactive login and logout", () => {
  it.skipIf(!hasScript)(
    "pi: prints the hint first, opens the CLI in its home, then reads the key store",
    async () => {
      const login = await scvInTerminal(["agents", "login", "pi"], "/login\n/quit\n");
      expect(login.code).toBe(0);
      // (The terminal echoes what was typed ahead as well.)
      const hint = login.output.indexOf(
        "scv: pi opens now in its private home — run /login and choose a provider, then /quit\n",
      );
      const started = login.output.indexOf(`fake pi started in HOME=${join(scvHome, "agents", "pi")}`);
      expect(hint).toBeGreaterThanOrEqual(0);
      expect(started).toBeGreaterThan(hint);
      expect(lastLine(login.output)).toBe("scv: pi: done; 1 provider sign-in in auth.json");

      const logout = scv(["agents", "logout", "pi"]);
      expect(logout.code).toBe(0);
      expect(logout.stderr).toBe("scv: pi: signed out; removed .pi/agent/auth.json\n");
      expect(scv(["agents", "status", "pi"]).code).toBe(4);
    },
  );

  it.skipIf(!hasScript)("pi: leaving without signing in is exit 4 with what to do", async () => {
    const login = await scvInTerminal(["agents", "login", "pi"], "/quit\n");
    expect(login.code).toBe(4);
    expect(lastLine(login.output)).toBe(
      "scv: pi is still not signed in (no key or sign-in in auth.json or models.json) — run again: scv agents login pi",
    );
  });

  it("without a terminal, an interactive sign-in is refused at once, naming what works instead", () => {
    const pi = scv(["agents", "login", "pi"], "/login\n/quit\n");
    expect(pi.code).toBe(2);
    expect(pi.stderr).toBe(
      "scv: pi's own sign-in screen asks at a terminal, and there is none — run it in a terminal\n",
    );
    expect(existsSync(join(scvHome, "agents", "pi"))).toBe(false);
    const gemini = scv(["agents", "login", "gemini"]);
    expect(gemini.code).toBe(3);
    expect(gemini.stderr).toMatch(/^scv: Gemini CLI is not installed/);
  });

  it.skipIf(!hasScript)(
    "copilot: unchecked status says how to check; interactive logout shows its hint",
    async () => {
      const login = await scvInTerminal(["agents", "login", "copilot"], "/login\n/exit\n");
      expect(login.code).toBe(0);
      expect(login.output).toContain(
        "scv: GitHub Copilot CLI opens now in its private home — run /login, then /exit\n",
      );
      expect(lastLine(login.output)).toBe(
        "scv: copilot: done; installed; sign-in not checkable — `scv agents check copilot` tries a real call",
      );
      const status = JSON.parse(scv(["agents", "status", "copilot", "--json"]).stdout);
      expect(status).toMatchObject({
        state: "unknown",
        source: "unchecked",
        detail: "installed; sign-in not checkable — `scv agents check copilot` tries a real call",
      });
      const logout = await scvInTerminal(["agents", "logout", "copilot"], "/logout\n/exit\n");
      expect(logout.code).toBe(0);
      expect(logout.output).toContain(
        "scv: GitHub Copilot CLI opens now in its private home — run /logout, then /exit\n",
      );
      expect(logout.output).toContain("Signed out.");
      // Without a terminal its own sign-out cannot run: refused, not left waiting.
      const headless = scv(["agents", "logout", "copilot"]);
      expect(headless.code).toBe(2);
      expect(headless.stderr).toBe(
        "scv: GitHub Copilot CLI's own sign-out asks at a terminal, and there is none — run it in a terminal\n",
      );
    },
  );

  it("a flag the row does not offer is a usage error", () => {
    expect(scv(["agents", "login", "copilot", "--with-api-key"]).stderr).toBe(
      "scv: copilot takes no API key from scv — sign in with: scv agents login copilot\n",
    );
    expect(scv(["agents", "login", "claude", "--import"]).code).toBe(2);
    expect(scv(["agents", "login", "nobody"]).code).toBe(2);
  });
});
