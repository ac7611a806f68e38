// `scv agents login|status|logout` with keys: a key never given on the command line, the api-key
// login and its stored status and logout (claude).
// Through the built scv with fake CLIs first on PATH; every run is checked for canary secrets
// (test/helpers/login-world.ts).

import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  agentFile,
  env,
  expectNoSecret,
  expectNoSecretInFiles,
  FAKES,
  hasScript,
  lastLine,
  mode,
  SCV,
  scv,
  scvHome,
  useLoginWorld,
} from "../helpers/login-world.js";

useLoginWorld();

describe("a key given on the command line, by mistake", () => {
  it("is never echoed, glued to the flag or as an argument: exit 2, and the line says where the key goes", () => {
    const glued = scv(["agents", "login", "claude", "--with-api-key=CANARY-KEY-7f3a"]);
    expect(glued.code).toBe(2);
    expect(glued.stderr).toBe("scv: unknown option '--with-api-key=…' — see: scv agents login --help\n");
    const argument = scv(["agents", "login", "claude", "--with-api-key", "CANARY-KEY-7f3a"]);
    expect(argument.code).toBe(2);
    expect(argument.stderr).toBe(
      "scv: --with-api-key reads the key from stdin, never from the command line — run: scv agents login claude --with-api-key < key-file (or type it at the prompt)\n",
    );
    expect(existsSync(agentFile("claude", ".anthropic-api-key"))).toBe(false);
  });
});

describe("api-key login (claude): stored status, stored logout", () => {
  it("stores a piped key 0600 with its helper, reports it, and removes exactly that", () => {
    expect(scv(["agents", "status", "claude"]).code).toBe(4);
    const login = scv(["agents", "login", "claude", "--with-api-key"], "CANARY-KEY-7f3a\n");
    expect(login.code).toBe(0);
    expect(login.stdout).toBe("");
    expect(login.stderr).toMatch(/claude: API key stored in .*\.anthropic-api-key \(0600\)/);

    const key = agentFile("claude", ".anthropic-api-key");
    expect(readFileSync(key, "utf8")).toBe("CANARY-KEY-7f3a\n");
    expect(mode(key)).toBe(0o600);
    expect(mode(join(scvHome, "agents", "claude"))).toBe(0o700);
    expect(mode(scvHome)).toBe(0o700);
    const settings = JSON.parse(readFileSync(agentFile("claude", ".claude/settings.json"), "utf8"));
    expect(settings).toEqual({ apiKeyHelper: `cat '${key}'` });
    expectNoSecretInFiles("claude", [".anthropic-api-key"]);

    const status = scv(["agents", "status", "claude", "--json"]);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      agent: "claude",
      installed: true,
      path: join(FAKES, "claude"),
      version: "2.1.332",
      state: "signed-in",
      source: "stored",
      detail: "API key file present, used through apiKeyHelper",
    });

    const logout = scv(["agents", "logout", "claude"]);
    expect(logout.code).toBe(0);
    expect(logout.stderr).toContain("removed .anthropic-api-key, apiKeyHelper in .claude/settings.json");
    expect(readdirSync(join(scvHome, "agents", "claude"))).toEqual([".claude"]);
    expect(readdirSync(join(scvHome, "agents", "claude", ".claude"))).toEqual([]);
    expect(scv(["agents", "status", "claude"]).code).toBe(4);
  });

  it("refuses empty keys and keys with whitespace or control characters, storing nothing", () => {
    for (const input of ["\n", "CANARY-KEY-7f3a trailing\n", "CANARY-KEY-7f3a\u0007"]) {
      const run = scv(["agents", "login", "claude", "--with-api-key"], input);
      expect(run.code).toBe(2);
      expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(run.stderr).toMatch(/^scv: the key (is empty|contains whitespace or control characters) — /);
    }
    expect(existsSync(join(scvHome, "agents", "claude"))).toBe(false);
  });

  it("without --with-api-key, a piped key is not read, and scv says to add the flag", () => {
    const run = scv(["agents", "login", "claude"], "CANARY-KEY-7f3a\n");
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "scv: a key on stdin is read only with --with-api-key — run: … | scv agents login claude --with-api-key\n",
    );
    expect(existsSync(agentFile("claude", ".anthropic-api-key"))).toBe(false);
  });

  it("with neither a terminal nor a pipe, says how to pipe the key", () => {
    const result = spawnSync(process.execPath, [SCV, "agents", "login", "claude"], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      "scv: no terminal to read the key from — pipe it instead: … | scv agents login claude --with-api-key\n",
    );
  });

  it("reports a conflicting subscription sign-in in the same home", () => {
    mkdirSync(join(scvHome, "agents", "claude", ".claude"), { recursive: true });
    writeFileSync(agentFile("claude", ".claude/.credentials.json"), '{"claudeAiOauth":{}}');
    const run = scv(["agents", "login", "claude", "--with-api-key"], "CANARY-KEY-7f3a\n");
    expect(run.code).toBe(0);
    expect(lastLine(run.stderr)).toMatch(
      /^scv: claude: note — .*\.credentials\.json also holds a Claude subscription/,
    );
  });

  it("settings it cannot merge into fail the login in one line and leave no key file", () => {
    mkdirSync(join(scvHome, "agents", "claude", ".claude"), { recursive: true });
    writeFileSync(agentFile("claude", ".claude/settings.json"), "not json");
    const run = scv(["agents", "login", "claude", "--with-api-key"], "CANARY-KEY-7f3a\n");
    expect(run.code).toBe(4);
    expect(run.stderr).toBe(
      "scv: claude: the API key was not stored — .claude/settings.json is not a JSON object — fix or remove it, then sign in again; nothing was changed\n",
    );
    expect(existsSync(agentFile("claude", ".anthropic-api-key"))).toBe(false);
  });

  it("a disk that cannot take the key is exit 1 with what to do, and nothing is left", () => {
    // A file size limit far below the key makes the write fail part-way, as a full disk does
    // (EFBIG here, ENOSPC there: the same failure of scv's own files, exit 1).
    const result = spawnSync(
      "/bin/sh",
      [
        "-c",
        'ulimit -f 0 && exec "$0" "$@"',
        process.execPath,
        SCV,
        "agents",
        "login",
        "claude",
        "--with-api-key",
      ],
      { env, input: "CANARY-KEY-7f3a\n", encoding: "utf8", timeout: 20_000 },
    );
    expectNoSecret({ code: result.status, stdout: result.stdout, stderr: result.stderr });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      "scv: claude: the API key was not stored, nothing was changed (EFBIG) — the file size limit (ulimit -f) is too low: raise it\n",
    );
    expect(readdirSync(join(scvHome, "agents", "claude"))).toEqual([]);
  });

  it.skipIf(!hasScript)("reads a typed key from a terminal without echoing it", async () => {
    // `script` gives scv a pseudo-terminal; the key is typed only once the prompt is up, as a person would.
    // `-E always` keeps the terminal's own echo on, as a real one has it, until scv turns it off.
    const command = `'${process.execPath}' '${SCV}' agents login claude`;
    const child = spawn("script", ["-q", "-E", "always", "-e", "-c", command, "/dev/null"], {
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let seen = "";
    let typed = false;
    child.stdout.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      if (!typed && seen.includes("(input hidden): ")) {
        typed = true;
        child.stdin.write("CANARY-TTY-KEY-19c2\r");
      }
    });
    const code = await new Promise<number | null>((resolveCode) => child.on("close", resolveCode));
    expect(typed).toBe(true);
    expect(code).toBe(0);
    expect(seen).toContain("Claude Code (API key) API key (input hidden): ");
    expect(seen).not.toContain("CANARY-TTY-KEY-19c2");
    expect(readFileSync(agentFile("claude", ".anthropic-api-key"), "utf8")).toBe("CANARY-TTY-KEY-19c2\n");
  });
});
