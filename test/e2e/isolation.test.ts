// Credential isolation and private homes, through the built scv: what reached each fake agent, and
// what a turn did to the user's own HOME and to scv's agent homes.

import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ADAPTERS, type AdapterDescriptor } from "../../src/adapters.js";
import { canaryVariables, KEPT } from "../helpers/canaries.js";
import { useLab } from "../helpers/lab.js";
import { agentCalls, scv, signIn, type World } from "../helpers/scv.js";

let world: World;
useLab((created) => {
  world = created;
});

/** Every agent with a one-turn command line (kimi has none). */
const TURN_AGENTS = (ADAPTERS as readonly AdapterDescriptor[]).filter((entry) => entry.cliTurns);

/** Every file under `dir` with its content and modification time. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const path = join(dir, name);
    const stat = statSync(path);
    files[relative(dir, path)] = stat.isDirectory()
      ? `dir ${stat.mode & 0o777}`
      : `${stat.mtimeMs} ${stat.mode & 0o777} ${readFileSync(path, "utf8")}`;
  }
  return files;
}

describe("credential isolation", () => {
  it("no canary reaches any agent, while PATH, locale, proxies and near-misses do; TMPDIR is the turn's own; the user's own ~/.codex, ~/.claude, ~/.gemini stay untouched", async () => {
    const before = snapshot(world.home);
    expect(Object.keys(before)).toEqual(
      expect.arrayContaining([".codex/auth.json", ".claude/settings.json", ".claude.json", ".gemini/.env"]),
    );
    const canaries = canaryVariables();
    expect(Object.keys(canaries).length).toBeGreaterThanOrEqual(60);
    for (const entry of TURN_AGENTS) await signIn(world, entry.name);
    // Policy auto, so the full-permission variables are in play too (test/transport/env.test.ts has
    // both policies for every agent); the turns run in parallel.
    await Promise.all(
      TURN_AGENTS.map((entry) =>
        scv(world, ["delegate", entry.name, "--policy", "auto", "Say hi"], { env: { ...canaries, ...KEPT } }),
      ),
    );
    const calls = agentCalls(world);
    expect(new Set(calls.map((call) => call.cli))).toEqual(
      new Set(TURN_AGENTS.map((entry) => entry.command)),
    );
    expect(
      calls,
      calls.map((call) => `${call.cli} ${call.argv.join(" ")}`.slice(0, 200)).join("\n"),
    ).toHaveLength(TURN_AGENTS.length);
    for (const call of calls) {
      const leaked = Object.entries(call.env).filter(([, value]) => value.includes("canary-value-of-"));
      expect(leaked, call.cli).toEqual([]);
      expect(call.env, call.cli).toMatchObject({ ...KEPT, PATH: world.env.PATH });
      // A private folder inside the user's TMPDIR, one per turn (test/e2e/turn-temp.test.ts).
      expect(dirname(call.env.TMPDIR ?? ""), call.cli).toBe(world.tmp);
      expect(call.tmpMode, call.cli).toBe("0700");
      // Not a credential: where a nested scv finds this scv's home (and the user's config).
      expect(call.env.SCV_HOME, call.cli).toBe(world.scvHome);
    }
    // The fakes write state where their variables point, as the real CLIs do: all of it inside scv's
    // home, nothing in the user's.
    expect(snapshot(world.home)).toEqual(before);
    expect(statSync(join(world.scvHome, "agents", "codex", "fake-state")).isFile()).toBe(true);
    expect(statSync(join(world.scvHome, "agents", "claude", ".claude", "fake-state")).isFile()).toBe(true);
    expect(statSync(join(world.scvHome, "agents", "gemini", ".gemini", "fake-state")).isFile()).toBe(true);
  });

  it("points HOME, XDG and the CLI's own variables into its private home", async () => {
    await signIn(world, "claude");
    await signIn(world, "codex");
    await scv(world, ["delegate", "claude", "Say hi"], {
      env: { CLAUDE_CONFIG_DIR: join(world.home, ".claude") },
    });
    await scv(world, ["delegate", "codex", "Say hi"], { env: { CODEX_HOME: join(world.home, ".codex") } });
    const [claude, codex] = agentCalls(world);
    const claudeHome = join(world.scvHome, "agents", "claude");
    expect(claude?.env).toMatchObject({
      HOME: claudeHome,
      XDG_CONFIG_HOME: join(claudeHome, ".config"),
      // An inherited CLAUDE_CONFIG_DIR never passes; scv sets its own per home.
      CLAUDE_CONFIG_DIR: join(claudeHome, ".claude"),
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    });
    expect(codex?.env).toMatchObject({
      HOME: join(world.scvHome, "agents", "codex"),
      CODEX_HOME: join(world.scvHome, "agents", "codex"),
    });
  });

  it("gives gemini the key scv holds as GEMINI_API_KEY (a project's .env would hide its file), never the shell's, and no other agent", async () => {
    const key = "gemini-key-scv-holds-0001";
    const login = await scv(world, ["agents", "login", "gemini", "--with-api-key"], { input: `${key}\n` });
    expect(login.exitCode, login.stderr).toBe(0);
    await signIn(world, "claude");
    for (const agent of ["gemini", "claude"]) {
      const run = await scv(world, ["delegate", agent, "Say hi"], {
        env: { GEMINI_API_KEY: "canary-value-of-GEMINI_API_KEY" },
      });
      expect(run.exitCode, run.stderr).toBe(0);
    }
    const [gemini, claude] = agentCalls(world);
    expect(gemini?.env.GEMINI_API_KEY).toBe(key);
    expect(claude?.env.GEMINI_API_KEY).toBeUndefined();
    // A key the user gives the agent in scv's config stays theirs.
    const config = join(world.root, "config.toml");
    writeFileSync(config, `[agents.gemini.env]\nGEMINI_API_KEY = "from-config"\n`);
    await scv(world, ["delegate", "gemini", "Say hi"], { env: { SCV_CONFIG: config } });
    expect(agentCalls(world)[2]?.env.GEMINI_API_KEY).toBe("from-config");
  });

  it("gives the config's and --env's variables to the agent, --env last", async () => {
    const config = join(world.root, "config.toml");
    await import("node:fs").then((fs) =>
      fs.writeFileSync(config, `[agents.gemini.env]\nIS_SANDBOX = "1"\nFROM = "config"\n`),
    );
    await scv(world, ["delegate", "gemini", "--env", "FROM=flag", "--env", "EMPTY=", "Say hi"], {
      env: { SCV_CONFIG: config },
    });
    expect(agentCalls(world)[0]?.env).toMatchObject({ IS_SANDBOX: "1", FROM: "flag", EMPTY: "" });
  });

  it("follows the config's [isolation]: strict passes only the allow-list and keep, and scv's own variables still come", async () => {
    const config = join(world.root, "config.toml");
    writeFileSync(
      config,
      `[isolation]\nstrict = true\nkeep = ["DATABASE_URL", "FAKE_AGENT_*"]\n[agents.gemini.env]\nIS_SANDBOX = "1"\n`,
    );
    const canaries = canaryVariables();
    const run = await scv(world, ["delegate", "gemini", "Say hi"], {
      env: { ...canaries, ...KEPT, EDITOR: "vi", SCV_CONFIG: config },
    });
    expect(run.exitCode).toBe(0);
    const env = agentCalls(world)[0]?.env ?? {};
    expect(Object.entries(env).filter(([, value]) => value.includes("canary-value-of-"))).toEqual([]);
    expect(env).toMatchObject({
      PATH: world.env.PATH,
      LANG: KEPT.LANG,
      TZ: KEPT.TZ,
      HTTPS_PROXY: KEPT.HTTPS_PROXY,
      NODE_EXTRA_CA_CERTS: KEPT.NODE_EXTRA_CA_CERTS,
      DATABASE_URL: KEPT.DATABASE_URL,
      IS_SANDBOX: "1",
      GEMINI_TELEMETRY_ENABLED: "false",
      SCV_HOME: world.scvHome,
    });
    for (const name of ["EDITOR", "NPM_TOKEN", "SSH_AUTH_SOCK", "AWS_REGION", "HF_HOME"])
      expect(env[name], name).toBeUndefined();
  });

  it("removes the config's own names as well; other secrets pass by default", async () => {
    const config = join(world.root, "config.toml");
    writeFileSync(config, `[isolation]\nremove = ["NPM_TOKEN"]\n`);
    await scv(world, ["delegate", "gemini", "Say hi"], { env: { ...KEPT, SCV_CONFIG: config } });
    const env = agentCalls(world)[0]?.env ?? {};
    expect(env.NPM_TOKEN).toBeUndefined();
    expect(env).toMatchObject({ DATABASE_URL: KEPT.DATABASE_URL, SSH_AUTH_SOCK: KEPT.SSH_AUTH_SOCK });
  });
});

describe("homes", () => {
  it("creates scv's home and each agent home 0700, and tightens a loosened one", async () => {
    const run = await scv(world, ["delegate", "gemini", "Say hi"]);
    expect(run.exitCode).toBe(0);
    const home = join(world.scvHome, "agents", "gemini");
    expect(statSync(world.scvHome).mode & 0o777).toBe(0o700);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(statSync(join(world.scvHome, "conversations")).mode & 0o777).toBe(0o700);

    chmodSync(home, 0o755);
    chmodSync(world.scvHome, 0o777);
    await scv(world, ["delegate", "gemini", "Say hi"]);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(statSync(world.scvHome).mode & 0o777).toBe(0o700);
  });
});

describe("links planted inside scv's home", () => {
  function plant(relativePath: string): string {
    const outside = join(world.root, "outside");
    mkdirSync(outside, { recursive: true, mode: 0o755 });
    chmodSync(outside, 0o755);
    mkdirSync(join(world.scvHome, relativePath, ".."), { recursive: true, mode: 0o700 });
    symlinkSync(outside, join(world.scvHome, relativePath));
    return outside;
  }

  it("agents login refuses a linked agent home in one line: nothing chmodded, no key written outside", async () => {
    const outside = plant("agents/claude");
    const run = await scv(world, ["agents", "login", "claude", "--with-api-key"], {
      input: "sk-canary-key\n",
    });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe(
      `scv: ${join(world.scvHome, "agents", "claude")} is a symbolic link, and scv never follows one inside its home — move it away (scv makes the folder anew) and run scv again\n`,
    );
    expect(statSync(outside).mode & 0o777).toBe(0o755);
    expect(readdirSync(outside)).toEqual([]);
  });

  it.each(["agents", "turns"])("delegate refuses a linked $SCV_HOME/%s", async (planted) => {
    const outside = plant(planted);
    const run = await scv(world, ["delegate", "gemini", "Say hi"]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr.split("\n")[0]).toBe(
      `scv: ${join(world.scvHome, planted)} is a symbolic link, and scv never follows one inside its home — move it away (scv makes the folder anew) and run scv again`,
    );
    expect(statSync(outside).mode & 0o777).toBe(0o755);
    expect(readdirSync(outside)).toEqual([]);
  });

  it("delegate gives the reply but saves no record through a linked $SCV_HOME/conversations", async () => {
    const outside = plant("conversations");
    const run = await scv(world, ["delegate", "gemini", "Say hi"]);
    expect(run.stdout).not.toBe("");
    expect(run.stderr).toContain(`${join(world.scvHome, "conversations")} is a symbolic link`);
    expect(statSync(outside).mode & 0o777).toBe(0o755);
    expect(readdirSync(outside)).toEqual([]);
  });

  it("a background turn never opens its log through a link", async () => {
    const first = await scv(world, ["delegate", "gemini", "--json", "Say hi"]);
    const handle = JSON.parse(first.stdout).conversation as string;
    const target = join(world.root, "user-file.txt");
    writeFileSync(target, "the user's own file\n");
    // A link where the log of a turn of this conversation could be guessed: the log is its new job's.
    symlinkSync(target, join(world.scvHome, "turns", `${handle}.log`));
    const run = await scv(world, ["delegate", "-c", handle, "--background", "again"]);
    expect(run.exitCode, run.stderr).toBe(0);
    const job = run.stdout.trim();
    expect(lstatSync(join(world.scvHome, "turns", `${job}.log`)).isFile()).toBe(true);
    await scv(world, ["wait", job]);
    expect(readFileSync(target, "utf8")).toBe("the user's own file\n");
  });
});
