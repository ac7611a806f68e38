// `scv agents login|status|logout|install` end to end through the built binary, with fake CLIs
// (test/login/fakes/) first on PATH that follow the real ones' grammar and messages. Every login,
// status and logout kind is covered, and every run is checked for canary secrets: a key piped or
// typed, a key in a credential file, a token a CLI prints — none may reach scv's stdout, stderr or
// any file scv wrote other than the credential file itself.

import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  lstatSync,
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
import { worldTime } from "../helpers/timing.js";

const SCV = resolve("dist/scv.js");
const FAKES = resolve("test/login/fakes");

/** Secrets the fakes and the tests use; none may ever appear in what scv prints or writes. */
const CANARIES = [
  "CANARY-KEY-7f3a",
  "CANARY-TTY-KEY-19c2",
  "CANARY-ACCESS-TOKEN",
  "CANARY-REFRESH-TOKEN",
  "CANARY-ID-TOKEN",
  "CANARY-CLAUDE-ACCESS",
  "CANARY-CLAUDE-REFRESH",
  "CANARY-PI-REFRESH",
  "CANARY-IMPORT-KEY",
  "CANARY-LEAK",
];

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

let root: string;
let scvHome: string;
let userHome: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "scv-login-"));
  scvHome = join(root, "scv");
  userHome = join(root, "home");
  mkdirSync(userHome);
  env = {
    PATH: `${FAKES}:/usr/bin:/bin`,
    HOME: userHome,
    SCV_HOME: scvHome,
    LANG: "C.UTF-8",
    ...worldTime(),
    // Credentials in the user's shell: isolation must keep them from every agent (the fakes exit 98
    // when they see one) and scv must never print them.
    OPENAI_API_KEY: "CANARY-LEAK-openai",
    ANTHROPIC_API_KEY: "CANARY-LEAK-anthropic",
    LEAKED_API_KEY: "CANARY-LEAK-other",
  };
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function scv(args: readonly string[], input = ""): Run {
  const result = spawnSync(process.execPath, [SCV, ...args], {
    env,
    input,
    encoding: "utf8",
    timeout: 20_000,
  });
  const run = { code: result.status, stdout: result.stdout, stderr: result.stderr };
  expectNoSecret(run);
  return run;
}

const hasScript = spawnSync("script", ["--version"]).status === 0;

/** scv in a pseudo-terminal (`script`), with `input` typed ahead: a person at a terminal. Its stdout
 * and stderr arrive together, as a terminal shows them. */
async function scvInTerminal(
  args: readonly string[],
  input: string,
): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, SCV, ...args]
    .map((arg) => `'${arg.replaceAll("'", "'\\''")}'`)
    .join(" ");
  const child = spawn("script", ["-q", "-e", "-c", command, "/dev/null"], {
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stdin.write(input);
  const code = await new Promise<number | null>((resolveCode) => child.on("close", resolveCode));
  const run = { code, stdout: output.replaceAll("\r\n", "\n"), stderr: "" };
  expectNoSecret(run);
  return { code, output: run.stdout };
}

function expectNoSecret(run: Run): void {
  for (const canary of CANARIES) {
    expect(run.stdout).not.toContain(canary);
    expect(run.stderr).not.toContain(canary);
  }
  // Failures are one line, never a stack trace.
  expect(run.stderr).not.toMatch(/^\s+at /m);
  expect(run.stderr).not.toContain("internal error");
}

/** Every file under scv's home except the credential files named (relative to the agent home). */
function expectNoSecretInFiles(agent: string, credentialFiles: readonly string[]): void {
  const home = join(scvHome, "agents", agent);
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      const stat = lstatSync(path);
      return stat.isDirectory() ? walk(path) : stat.isFile() ? [path] : [];
    });
  if (!existsSync(scvHome)) return;
  for (const file of walk(scvHome)) {
    if (file.startsWith(`${home}/`) && credentialFiles.includes(relative(home, file))) continue;
    const text = readFileSync(file, "utf8");
    for (const canary of CANARIES) expect(text, `${file} holds a secret`).not.toContain(canary);
  }
}

function agentFile(agent: string, file: string): string {
  return join(scvHome, "agents", agent, file);
}

function mode(path: string): number {
  return statSync(path).mode & 0o777;
}

function lastLine(text: string): string {
  return text.trimEnd().split("\n").at(-1) ?? "";
}

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

describe("gemini and qwen: --with-api-key into the files the lab's recipes use", () => {
  it("gemini: the key in .gemini/.env, API-key auth selected, the endpoint line kept", () => {
    mkdirSync(join(scvHome, "agents", "gemini", ".gemini"), { recursive: true });
    writeFileSync(agentFile("gemini", ".gemini/.env"), "GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:9\n");
    const run = scv(["agents", "login", "gemini", "--with-api-key"], "CANARY-KEY-7f3a\n");
    expect(run.code).toBe(0);
    expect(readFileSync(agentFile("gemini", ".gemini/.env"), "utf8")).toBe(
      "GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:9\nGEMINI_API_KEY=CANARY-KEY-7f3a\n",
    );
    expect(mode(agentFile("gemini", ".gemini/.env"))).toBe(0o600);
    expect(JSON.parse(readFileSync(agentFile("gemini", ".gemini/settings.json"), "utf8"))).toEqual({
      security: { auth: { selectedType: "gemini-api-key" } },
    });
    expectNoSecretInFiles("gemini", [".gemini/.env"]);
  });

  it("qwen: the key in the env block of its settings", () => {
    const run = scv(["agents", "login", "qwen", "--with-api-key"], "CANARY-KEY-7f3a");
    expect(run.code).toBe(0);
    const settings = agentFile("qwen", ".qwen/settings.json");
    expect(JSON.parse(readFileSync(settings, "utf8"))).toEqual({
      env: { OPENAI_API_KEY: "CANARY-KEY-7f3a" },
      security: { auth: { selectedType: "openai" } },
    });
    expect(mode(settings)).toBe(0o600);
  });

  it("status: an unchecked row whose key store holds the key scv wrote is signed in, by key", () => {
    const unchecked = (agent: string) => JSON.parse(scv(["agents", "status", agent, "--json"]).stdout);
    // Before: nothing scv can tell (and not installed here).
    expect(unchecked("gemini")).toMatchObject({ state: "unknown", source: "unchecked" });
    for (const [agent, file] of [
      ["gemini", ".gemini/.env"],
      ["qwen", ".qwen/settings.json"],
    ] as const) {
      expect(scv(["agents", "login", agent, "--with-api-key"], "CANARY-KEY-7f3a\n").code).toBe(0);
      const json = scv(["agents", "status", agent, "--json"]);
      expectNoSecret(json);
      expect(JSON.parse(json.stdout)).toMatchObject({
        state: "signed-in",
        source: "stored",
        detail: `signed in by key: API key in ${file}`,
      });
      const table = scv(["agents", "status"]);
      expectNoSecret(table);
      expect(table.stdout).toMatch(
        new RegExp(`^${agent}\\s+not installed\\s+-\\s+yes\\s+its key store\\s+signed in by key`, "m"),
      );
      // Removed again by logout: back to what scv cannot tell.
      expect(scv(["agents", "logout", agent]).code).toBe(0);
      expect(unchecked(agent)).toMatchObject({ state: "unknown", source: "unchecked" });
    }
  });
});

describe("gemini and qwen: logout removes the key scv stored, with no CLI and no terminal", () => {
  it("gemini: the key and its selection go, the endpoint stays; its own sign-in needs its own screen", () => {
    mkdirSync(join(scvHome, "agents", "gemini", ".gemini"), { recursive: true });
    writeFileSync(agentFile("gemini", ".gemini/.env"), "GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:9\n");
    expect(scv(["agents", "login", "gemini", "--with-api-key"], "CANARY-KEY-7f3a\n").code).toBe(0);
    const logout = scv(["agents", "logout", "gemini"]);
    expect(logout.code).toBe(0);
    expect(logout.stderr).toBe(
      "scv: gemini: signed out; removed GEMINI_API_KEY in .gemini/.env, security.auth.selectedType in .gemini/settings.json\n",
    );
    expect(readFileSync(agentFile("gemini", ".gemini/.env"), "utf8")).toBe(
      "GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:9\n",
    );
    expect(JSON.parse(readFileSync(agentFile("gemini", ".gemini/settings.json"), "utf8"))).toEqual({});
    expect(scv(["agents", "logout", "gemini"]).stderr).toBe(
      "scv: gemini: nothing to remove — it was not signed in\n",
    );

    // A sign-in of the CLI's own (Login with Google) is the CLI's to remove, in its own screen.
    expect(scv(["agents", "login", "gemini", "--with-api-key"], "CANARY-KEY-7f3a\n").code).toBe(0);
    writeFileSync(
      agentFile("gemini", ".gemini/oauth_creds.json"),
      '{"refresh_token":"CANARY-REFRESH-TOKEN"}',
    );
    const bin = join(root, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "gemini"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    env.PATH = `${bin}:${env.PATH}`;
    const own = scv(["agents", "logout", "gemini"]);
    expect(own.code).toBe(2);
    expect(own.stderr).toBe(
      "scv: gemini: removed GEMINI_API_KEY in .gemini/.env, security.auth.selectedType in .gemini/settings.json\n" +
        "scv: Gemini CLI's own sign-out (.gemini/oauth_creds.json remain) asks at a terminal, and there is none — run it in a terminal\n",
    );
    expect(readFileSync(agentFile("gemini", ".gemini/.env"), "utf8")).not.toContain("CANARY");
  });

  it("gemini: a sign-in choice the user wrote in that home stays, beside their other settings", () => {
    mkdirSync(join(scvHome, "agents", "gemini", ".gemini"), { recursive: true });
    const mine = { security: { auth: { selectedType: "gemini-api-key" } }, ui: { theme: "GitHub" } };
    writeFileSync(agentFile("gemini", ".gemini/settings.json"), JSON.stringify(mine));
    expect(scv(["agents", "login", "gemini", "--with-api-key"], "CANARY-KEY-7f3a\n").code).toBe(0);
    const logout = scv(["agents", "logout", "gemini"]);
    expect(logout.code).toBe(0);
    expect(logout.stderr).toBe(
      "scv: gemini: signed out; removed GEMINI_API_KEY in .gemini/.env\n" +
        "scv: gemini: left security.auth.selectedType in .gemini/settings.json, which scv's sign-in did not set\n",
    );
    expect(JSON.parse(readFileSync(agentFile("gemini", ".gemini/settings.json"), "utf8"))).toEqual(mine);
  });

  it("qwen: the key leaves the env block, the endpoint stays", () => {
    mkdirSync(join(scvHome, "agents", "qwen", ".qwen"), { recursive: true });
    writeFileSync(
      agentFile("qwen", ".qwen/settings.json"),
      JSON.stringify({ env: { OPENAI_BASE_URL: "http://127.0.0.1:9/v1" } }),
    );
    expect(scv(["agents", "login", "qwen", "--with-api-key"], "CANARY-KEY-7f3a\n").code).toBe(0);
    const logout = scv(["agents", "logout", "qwen"]);
    expect(logout.code).toBe(0);
    expect(logout.stderr).toBe("scv: qwen: signed out; removed OPENAI_API_KEY in .qwen/settings.json\n");
    expect(JSON.parse(readFileSync(agentFile("qwen", ".qwen/settings.json"), "utf8"))).toEqual({
      env: { OPENAI_BASE_URL: "http://127.0.0.1:9/v1" },
    });
  });
});

describe("status of every agent", () => {
  it("one row per agent, each kind saying how scv knows", () => {
    const run = scv(["agents", "status", "--json"]);
    expect(run.code).toBe(0);
    const rows = JSON.parse(run.stdout) as {
      agent: string;
      source: string;
      installed: boolean;
      detail: string;
    }[];
    expect(rows.map((row) => row.agent)).toContain("kimi");
    expect(new Set(rows.map((row) => row.source))).toEqual(new Set(["command", "stored", "unchecked"]));
    expect(rows.find((row) => row.agent === "amp")).toMatchObject({
      installed: false,
      detail: "not installed",
    });
    const table = scv(["agents", "status"]);
    expect(table.stdout.split("\n")[0]).toMatch(
      /^AGENT\s+INSTALLED\s+VERSION\s+SIGNED IN\s+HOW SCV KNOWS\s+DETAIL$/,
    );
  });
});

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
