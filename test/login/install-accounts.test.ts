// `scv agents install`, `check`, accounts (agent@account) and auggie's browser login, end to end.
// Through the built scv with fake CLIs first on PATH; every run is checked for canary secrets
// (test/helpers/login-world.ts).

import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  agentFile,
  env,
  expectNoSecretInFiles,
  FAKES,
  lastLine,
  mode,
  root,
  scv,
  scvHome,
  useLoginWorld,
  userHome,
} from "../helpers/login-world.js";

useLoginWorld();

describe("install", () => {
  function fakeNpmOnly(): string {
    // Only the fake npm and the fakes' shell: no real CLI or npm can be found by accident.
    const bin = join(root, "npm-bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "npm"), readFileSync(join(FAKES, "npm")));
    chmodSync(join(bin, "npm"), 0o755);
    return bin;
  }

  it("installs into scv's tools prefix, which is then found first, and reports the version", () => {
    env.PATH = `${fakeNpmOnly()}:/usr/bin:/bin`;
    env.FAKE_NPM_LOG = join(root, "npm.log");
    const run = scv(["agents", "install", "codex"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
    const bin = join(scvHome, "tools", "bin", "codex");
    expect(lastLine(run.stderr)).toBe(`scv: codex 0.171.0 installed at ${bin}`);
    expect(readFileSync(env.FAKE_NPM_LOG, "utf8")).toBe(
      `install --global --prefix ${join(scvHome, "tools")} --no-fund --no-audit --script-shell=${join(scvHome, "tools", "script-shell")} @openai/codex\n`,
    );
    expect(JSON.parse(scv(["agents", "status", "codex", "--json"]).stdout)).toMatchObject({ path: bin });

    const again = scv(["agents", "install", "codex"]);
    expect(again.stderr).toBe(`scv: codex is already installed at ${bin} — --force reinstalls it\n`);
    expect(scv(["agents", "install", "codex", "--force"]).code).toBe(0);
    expect(readFileSync(env.FAKE_NPM_LOG, "utf8")).toMatch(/--script-shell=\S+ --force @openai\/codex\n$/);
  });

  it("an agent not on npm is refused; a failed npm is one line", () => {
    const cursor = scv(["agents", "install", "cursor"]);
    expect(cursor.code).toBe(2);
    expect(cursor.stderr).toBe(
      "scv: scv cannot install cursor: Cursor CLI is not on npm — install it as its vendor documents, or set [agents.cursor] command in scv's config\n",
    );
    env.PATH = `${fakeNpmOnly()}:/usr/bin:/bin`;
    const failed = scv(["agents", "install", "opencode"]);
    expect(failed.code).toBe(1);
    expect(lastLine(failed.stderr)).toBe(
      "scv: npm install opencode-ai failed (exit 1) — see npm's messages above",
    );
  });

  it("--acp installs the official ACP adapter where the CLI serves none; elsewhere says what to run", () => {
    env.PATH = `${fakeNpmOnly()}:/usr/bin:/bin`;
    env.FAKE_NPM_LOG = join(root, "npm.log");
    const run = scv(["agents", "install", "claude", "--acp"]);
    expect(run.code).toBe(0);
    const bin = join(scvHome, "tools", "bin", "claude-agent-acp");
    expect(lastLine(run.stderr)).toBe(
      `scv: @agentclientprotocol/claude-agent-acp installed at ${bin}: claude's ACP server`,
    );
    expect(readFileSync(env.FAKE_NPM_LOG, "utf8")).toBe(
      `install --global --prefix ${join(scvHome, "tools")} --no-fund --no-audit --script-shell=${join(scvHome, "tools", "script-shell")} @agentclientprotocol/claude-agent-acp\n`,
    );
    const own = scv(["agents", "install", "gemini", "--acp"]);
    expect(own.code).toBe(2);
    expect(own.stderr).toBe(
      "scv: Gemini CLI serves ACP itself (gemini --acp --skip-trust) — run: scv agents install gemini\n",
    );
    const none = scv(["agents", "install", "amp", "--acp"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe("scv: Amp has no ACP server scv knows — install it without --acp\n");
  });

  it("a CLI needing a newer Node.js than PATH's node is refused in one line before npm runs; status says so", () => {
    // pi 1.6.0 declares node >= 22.19.0; npm on an older Node quietly installs an older pi (0.74.2
    // on Node 20), which reads its endpoint's key differently and which pi-acp cannot drive.
    const bin = fakeNpmOnly();
    writeFileSync(join(bin, "node"), `#!/bin/sh\necho "v\${FAKE_NODE_VERSION}"\n`);
    chmodSync(join(bin, "node"), 0o755);
    env.PATH = `${bin}:/usr/bin:/bin`;
    env.FAKE_NPM_LOG = join(root, "npm.log");
    env.FAKE_NODE_VERSION = "20.20.2";
    for (const args of [["pi"], ["pi", "--acp"]]) {
      const old = scv(["agents", "install", ...args]);
      expect(old.code).toBe(3);
      expect(old.stderr).toBe(
        `scv: pi needs Node.js 22.19.0 or newer, and the node on PATH (${join(bin, "node")}) is v20.20.2 — install a newer Node.js, then run: scv agents install ${args.join(" ")}\n`,
      );
    }
    expect(existsSync(env.FAKE_NPM_LOG)).toBe(false);

    env.FAKE_NODE_VERSION = "22.19.0";
    const run = scv(["agents", "install", "pi"]);
    expect(run.code, run.stderr).toBe(0);
    expect(lastLine(run.stderr)).toBe(`scv: pi 1.6.0 installed at ${join(scvHome, "tools", "bin", "pi")}`);
    expect(JSON.parse(scv(["agents", "status", "pi", "--json"]).stdout).detail).not.toMatch(/Node/);

    env.FAKE_NODE_VERSION = "20.20.2";
    const status = JSON.parse(scv(["agents", "status", "pi", "--json"]).stdout);
    expect(status.detail).toContain(
      `; pi needs Node.js 22.19.0 or newer, and the node on PATH (${join(bin, "node")}) is v20.20.2`,
    );
  });

  it("no npm on PATH is exit 3", () => {
    env.PATH = join(root, "empty");
    const run = scv(["agents", "install", "codex"]);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(
      "scv: npm is not on PATH — install Node.js with npm, or install @openai/codex yourself\n",
    );
  });
});

describe("check: one tiny real turn", () => {
  it("signed out is refused before the CLI runs; signed in answers; a 401 is classified; no conversation is kept", () => {
    const out = scv(["agents", "check", "claude"]);
    expect(out.code).toBe(4);
    expect(out.stdout).toBe(
      "claude: not signed in — Claude Code (API key) is not signed in (no API key stored) — run: scv agents login claude\n",
    );
    expect(scv(["agents", "login", "claude", "--with-api-key"], "CANARY-KEY-7f3a\n").code).toBe(0);
    const ok = scv(["agents", "check", "claude", "--json"]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ agent: "claude", state: "signed-in", exitCode: 0 });
    // The replayed reply is not shown: check says only whether the call worked.
    expect(ok.stdout).not.toContain("MOCK-REPLY");

    env.FAKE_TURN = "auth-fail";
    const denied = scv(["agents", "check", "claude"]);
    expect(denied.code).toBe(4);
    // Ended at the capture's first api_retry 401: Claude Code would retry it for minutes.
    expect(denied.stdout).toMatch(
      /^claude: not signed in — .*authentication_failed \(401\).* — run: scv agents login claude\n$/,
    );
    expect(
      existsSync(join(scvHome, "conversations")) ? readdirSync(join(scvHome, "conversations")) : [],
    ).toEqual([]);
  });
});

describe("check of one account", () => {
  it("names the account it checked, in its line and its JSON, and runs in that account's home", () => {
    const out = scv(["agents", "check", "claude@personal"]);
    expect(out.code).toBe(4);
    expect(out.stdout).toMatch(
      /^claude@personal: not signed in — .* — run: scv agents login claude@personal\n$/,
    );
    expect(scv(["agents", "login", "claude@personal", "--with-api-key"], "CANARY-KEY-7f3a\n").code).toBe(0);
    const ok = scv(["agents", "check", "claude@personal", "--json"]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({
      agent: "claude",
      account: "personal",
      state: "signed-in",
      exitCode: 0,
    });
    const plain = scv(["agents", "check", "claude", "--json"]);
    expect(plain.code).toBe(4);
    // Always there (docs/output.md): the plain home is the default account.
    expect(JSON.parse(plain.stdout)).toHaveProperty("account", "default");
  });
});

describe("accounts: agent@account has its own home, sign-in and status", () => {
  it("signs codex@work in by its own login and claude@personal by key, each in its own home only", () => {
    const key = scv(["agents", "login", "claude@personal", "--with-api-key"], "CANARY-KEY-7f3a\n");
    expect(key.code).toBe(0);
    expect(key.stderr).toMatch(
      /scv: claude@personal: API key stored in .*claude@personal\/\.anthropic-api-key \(0600\)/,
    );
    expect(readFileSync(agentFile("claude@personal", ".anthropic-api-key"), "utf8")).toBe(
      "CANARY-KEY-7f3a\n",
    );
    expect(existsSync(agentFile("claude", ".anthropic-api-key"))).toBe(false);
    expectNoSecretInFiles("claude@personal", [".anthropic-api-key"]);

    const login = scv(["agents", "login", "codex@work", "--", "--device-auth"]);
    expect(login.code, login.stderr).toBe(0);
    expect(lastLine(login.stderr)).toBe("scv: codex@work: signed in; signed in (ChatGPT account)");
    // The refresh token lives in that account's home only: not the default one.
    expect(mode(agentFile("codex@work", "auth.json"))).toBe(0o600);
    expect(mode(join(scvHome, "agents", "codex@work"))).toBe(0o700);
    expect(existsSync(agentFile("codex", "auth.json"))).toBe(false);
    expect(scv(["agents", "status", "codex"]).code).toBe(4);
    expect(JSON.parse(scv(["agents", "status", "codex@work", "--json"]).stdout)).toMatchObject({
      agent: "codex",
      account: "work",
      state: "signed-in",
    });

    // Every account of every agent with a home is a row; the default ones are there too.
    const rows = JSON.parse(scv(["agents", "status", "--json"]).stdout) as {
      agent: string;
      account: string;
      state: string;
    }[];
    expect(rows.filter((row) => row.agent === "codex").map((row) => [row.account, row.state])).toEqual([
      ["default", "signed-out"],
      ["work", "signed-in"],
    ]);
    expect(rows.find((row) => row.agent === "claude" && row.account === "personal")?.state).toBe("signed-in");
    expect(scv(["agents", "status"]).stdout).toMatch(/^codex@work\s/m);

    const logout = scv(["agents", "logout", "claude@personal"]);
    expect(logout.code).toBe(0);
    expect(logout.stderr).toContain("scv: claude@personal: signed out; removed");
    expect(existsSync(agentFile("claude@personal", ".anthropic-api-key"))).toBe(false);
    const codexOut = scv(["agents", "logout", "codex@work"]);
    expect(lastLine(codexOut.stderr)).toBe("scv: codex@work: signed out");
    expect(existsSync(agentFile("codex@work", "auth.json"))).toBe(false);
  });

  it("refuses a malformed account in one line, creating nothing", () => {
    for (const target of ["codex@", "codex@Work", "codex@a,b", "codex@../x"]) {
      const run = scv(["agents", "login", target]);
      expect(run.code, target).toBe(2);
      expect(run.stderr.trimEnd().split("\n"), target).toHaveLength(1);
    }
    expect(existsSync(join(scvHome, "agents"))).toBe(false);
  });
});

describe("auggie: browser login, status by its exit status, command logout, all in its private home", () => {
  it("signs in and out inside scv's agent home, its own sign-in variable withheld, no token shown", () => {
    // A session of the user's own shell: it must reach no agent (the fake exits 98 when it does).
    env.AUGMENT_SESSION_AUTH = "CANARY-LEAK-augment";
    const before = scv(["agents", "status", "auggie", "--json"]);
    expect(JSON.parse(before.stdout)).toMatchObject({ state: "signed-out", source: "command" });

    env.DISPLAY = ":0";
    const login = scv(["agents", "login", "auggie"]);
    expect(login.code, login.stderr).toBe(0);
    expect(lastLine(login.stderr)).toMatch(/^scv: auggie: signed in/);
    // In the agent home, never the user's.
    expect(mode(agentFile("auggie", ".augment/session.json"))).toBe(0o600);
    expect(mode(join(scvHome, "agents", "auggie"))).toBe(0o700);
    expect(existsSync(join(userHome, ".augment"))).toBe(false);

    const status = scv(["agents", "status", "auggie"]);
    expect(status.code).toBe(0);
    expect(`${status.stdout}${status.stderr}`).not.toContain("CANARY-ACCESS-TOKEN");
    expect(JSON.parse(scv(["agents", "status", "auggie", "--json"]).stdout)).toMatchObject({
      state: "signed-in",
    });

    const logout = scv(["agents", "logout", "auggie"]);
    expect(logout.code, logout.stderr).toBe(0);
    expect(existsSync(agentFile("auggie", ".augment/session.json"))).toBe(false);
    const after = scv(["agents", "status", "auggie"]);
    expect(after.code).toBe(4);
  });
});
