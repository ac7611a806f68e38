import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  durationOption,
  formatDuration,
  isWaitable,
  LONGEST_WAIT_MS,
  parseDuration,
} from "../../src/duration.js";
import { ScvError } from "../../src/errors.js";
import { agentSettings, loadConfig, parseConfig } from "../../src/home/config.js";
import { agentHome, configPath, scvHome } from "../../src/home/paths.js";

function expectConfigError(text: string, pattern: RegExp): void {
  try {
    parseConfig(text, "/etc/scv.toml");
  } catch (error) {
    expect(error).toBeInstanceOf(ScvError);
    expect((error as ScvError).exitCode).toBe(2);
    expect((error as ScvError).message).toMatch(pattern);
    return;
  }
  throw new Error("expected a config error");
}

describe("config", () => {
  it("reads per-agent command, model, effort, policy, timeout and env", () => {
    const config = parseConfig(
      `parallel = 3
[defaults]
policy = "auto"
timeout = "20m"
[agents.claude]
command = "/opt/claude/bin/claude"
model = "sonnet"
effort = "high"
timeout = "1h"
env = { IS_SANDBOX = "1" }
[agents.copilot.env]
COPILOT_PROVIDER_BASE_URL = "http://127.0.0.1:9/v1"
`,
      "config.toml",
    );
    expect(config.parallel).toBe(3);
    expect(agentSettings(config, "claude")).toMatchObject({
      command: "/opt/claude/bin/claude",
      model: "sonnet",
      policy: "auto",
      timeout: "1h",
      env: { IS_SANDBOX: "1" },
    });
    expect(agentSettings(config, "codex")).toEqual({ policy: "auto", timeout: "20m" });
    expect(config.agents?.copilot?.env?.COPILOT_PROVIDER_BASE_URL).toBe("http://127.0.0.1:9/v1");
  });

  it("names the file, the key and what was expected", () => {
    expectConfigError(
      `[agents.codex]\npolicy = "yolo"`,
      /\/etc\/scv\.toml: agents\.codex\.policy: expected one of "auto", "default"/,
    );
    expectConfigError(
      `[agents.codex]\ntimeout = "soon"`,
      /agents\.codex\.timeout: a duration from 1ms to 24d, such as 90s/,
    );
    expectConfigError(`[agents.codx]\nmodel = "x"`, /agents\.codx: unknown agent/);
    expectConfigError(
      `[agents.codex]\nmodle = "x"`,
      /: agents\.codex\.modle: unknown key — did you mean model\?$/,
    );
    expectConfigError(`parallel = "four"`, /: parallel: expected a number, got a string$/);
    expectConfigError(
      `[agents.claude.env]\n"BAD NAME" = "1"`,
      /: agents\.claude\.env\.BAD NAME: invalid key: expected a variable name such as IS_SANDBOX$/,
    );
    expectConfigError(
      `this is = not toml =`,
      /^\/etc\/scv\.toml:1:6: not valid TOML: illegal character in key — fix it there$/,
    );
  });

  it("a TOML syntax error names its line and column", () => {
    expectConfigError(
      `[defaults]\ntimeout = "5m"\n\n[agents.codex]\nmodel = gpt-5\n`,
      /^\/etc\/scv\.toml:5:9: not valid TOML: invalid value — fix it there$/,
    );
    expectConfigError(
      `[agents.codex]\nmodel = "unclosed\n`,
      /^\/etc\/scv\.toml:2:\d+: not valid TOML: .+ — fix it there$/,
    );
  });

  it("an unknown key suggests the key it most likely misspells, wherever it stands", () => {
    expectConfigError(`paralel = 2`, /: paralel: unknown key — did you mean parallel\?$/);
    expectConfigError(
      `[defaults]\ntimout = "5m"`,
      /: defaults\.timout: unknown key — did you mean timeout\?$/,
    );
    expectConfigError(
      `[agents.claude]\nidle_timout = "5m"`,
      /: agents\.claude\.idle_timout: unknown key — did you mean idle_timeout\?$/,
    );
    expectConfigError(
      `[mcp_servers.docs]\ncommand = "docs"\nagrs = []`,
      /: mcp_servers\.docs\.agrs: unknown key — did you mean args\?$/,
    );
    expectConfigError(
      `[isolation]\nstrikt = true`,
      /: isolation\.strikt: unknown key — did you mean strict\?$/,
    );
    // Nothing close: no guess.
    expectConfigError(`[defaults]\nzzzz = 1`, /: defaults\.zzzz: unknown key$/);
  });

  it("reads an agent's accounts, in order, and refuses a bad list", () => {
    const config = parseConfig(`[agents.codex]\naccounts = ["work", "personal"]`, "/etc/scv.toml");
    expect(config.agents?.codex?.accounts).toEqual(["work", "personal"]);
    expectConfigError(
      `[agents.codex]\naccounts = ["Work"]`,
      /agents\.codex\.accounts\.0: expected account names such as work/,
    );
    expectConfigError(
      `[agents.codex]\naccounts = ["a", "a"]`,
      /agents\.codex\.accounts: an account is named twice/,
    );
    expectConfigError(
      `[agents.codex]\naccounts = []`,
      /agents\.codex\.accounts: expected at least one account/,
    );
  });

  it("says what kind of value was expected and found, whole numbers and ranges included", () => {
    // A bound says the whole range, the real one: --parallel's too.
    expectConfigError(`parallel = 0`, /: parallel: expected a whole number from 1 to 64$/);
    expectConfigError(`parallel = 65`, /: parallel: expected a whole number from 1 to 64$/);
    expectConfigError(`max_depth = 17`, /: max_depth: expected a whole number from 0 to 16$/);
    expectConfigError(`parallel = 2.5`, /: parallel: expected a whole number, got a fraction$/);
    expectConfigError(`max_depth = true`, /: max_depth: expected a number, got a boolean$/);
    expectConfigError(`[agents.claude]\nmodel = ""`, /: agents\.claude\.model: expected a non-empty string$/);
    expectConfigError(
      `[agents.claude]\neffort = 3`,
      /: agents\.claude\.effort: expected a string, got a number$/,
    );
    expectConfigError(
      `[agents.codex]\ntimeout = 5`,
      /: agents\.codex\.timeout: expected a string, got a number$/,
    );
    expectConfigError(`[agents]\ncodex = 3`, /: agents\.codex: expected a table, got a number$/);
    expectConfigError(`defaults = "x"`, /: defaults: expected a table, got a string$/);
    expectConfigError(`[defaults]\nmodel = "x"`, /: defaults\.model: unknown key$/);
  });

  it("names the kind of a bad value, never the value", () => {
    const canary = "sk-config-canary-7f3a9b";
    for (const text of [
      `[agents.claude]\nenv = "${canary}"`,
      `[agents.claude]\npolicy = "${canary}"`,
      `[agents.claude.env]\nKEY = ["${canary}"]`,
      `parallel = "${canary}"`,
    ]) {
      try {
        parseConfig(text, "/etc/scv.toml");
        throw new Error(`accepted ${text}`);
      } catch (error) {
        expect(error).toBeInstanceOf(ScvError);
        expect((error as ScvError).message).toMatch(/^\/etc\/scv\.toml: \S/);
        expect((error as ScvError).message).not.toContain(canary);
      }
    }
  });

  it("loads $SCV_CONFIG, else $SCV_HOME/config.toml, else the platform config dir", () => {
    const root = mkdtempSync(join(tmpdir(), "scv-config-"));
    const home = join(root, "scv-home");
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, "config.toml"), `[agents.pi]\nmodel = "from-scv-home"\n`);
    const explicit = join(root, "explicit.toml");
    writeFileSync(explicit, `[agents.pi]\nmodel = "explicit"\n`);
    const env = { HOME: join(root, "user"), SCV_HOME: home };
    expect(loadConfig(env).config.agents?.pi?.model).toBe("from-scv-home");
    expect(loadConfig({ ...env, SCV_CONFIG: explicit }).config.agents?.pi?.model).toBe("explicit");
    const none = loadConfig({ HOME: join(root, "user"), XDG_CONFIG_HOME: join(root, "xdg") });
    expect(none).toEqual({ path: join(root, "xdg", "scv", "config.toml"), exists: false, config: {} });
    expect(() => loadConfig({ ...env, SCV_CONFIG: join(root, "missing.toml") })).toThrow(/does not exist/);
  });

  it("reads [isolation]: names and prefixes to remove and keep, and strict", () => {
    const config = parseConfig(
      `[isolation]\nremove = ["NPM_TOKEN", "CORP_*"]\nkeep = ["GH_TOKEN"]\nstrict = true\n`,
      "c.toml",
    );
    expect(config.isolation).toEqual({ remove: ["NPM_TOKEN", "CORP_*"], keep: ["GH_TOKEN"], strict: true });
    expectConfigError(
      `[isolation]\nremove = ["BAD NAME"]`,
      /: isolation\.remove\.0: expected a variable name, or a prefix ending in \*/,
    );
    expectConfigError(`[isolation]\nremove = ["*"]`, /: isolation\.remove\.0: expected a variable name/);
    expectConfigError(
      `[isolation]\nkeep = ["SCV_HOME"]`,
      /: isolation\.keep\.0: scv's own SCV_\* variables are never passed on/,
    );
    expectConfigError(
      `[isolation]\nstrict = "yes"`,
      /: isolation\.strict: expected true or false, got a string$/,
    );
    expectConfigError(`[isolation]\nallow = []`, /: isolation\.allow: unknown key$/);
  });

  it("refuses __proto__, constructor and prototype keys anywhere, naming them", () => {
    expectConfigError(`"__proto__" = { parallel = 2 }`, /\/etc\/scv\.toml: __proto__: not a key scv allows/);
    expectConfigError(`[agents.codex.env]\n"__proto__" = "x"`, /: agents\.codex\.env\.__proto__: not a key/);
    expectConfigError(`[agents."__proto__"]\nmodel = "x"`, /: agents\.__proto__: not a key/);
    expectConfigError(
      `[agents.claude.env]\nconstructor = "x"`,
      /: agents\.claude\.env\.constructor: not a key/,
    );
    expectConfigError(`[defaults.prototype]\nx = 1`, /: defaults\.prototype: not a key/);
    expectConfigError(
      `[isolation]\nkeep = [{ __proto__ = 1 }]`,
      /: isolation\.keep\.0\.__proto__: not a key/,
    );
  });

  it("reads only a regular file of at most 1 MiB: not a device, a FIFO or a folder", () => {
    const root = mkdtempSync(join(tmpdir(), "scv-config-"));
    const env = (path: string) => ({ HOME: root, SCV_CONFIG: path });
    expect(() => loadConfig(env("/dev/zero"))).toThrow(
      /config file \/dev\/zero is a device, not a regular file — point SCV_CONFIG at a TOML file/,
    );
    expect(() => loadConfig(env(root))).toThrow(/is a folder, not a regular file/);
    const fifo = join(root, "fifo");
    execFileSync("mkfifo", [fifo]);
    // Opened without waiting for a writer: a blocking open would hang this test.
    expect(() => loadConfig(env(fifo))).toThrow(/config file .*fifo is a FIFO, not a regular file/);
    // A link is followed (the user may keep the file with their dotfiles), to a regular file only.
    const real = join(root, "real.toml");
    writeFileSync(real, "parallel = 3\n");
    symlinkSync(real, join(root, "linked.toml"));
    expect(loadConfig(env(join(root, "linked.toml"))).config.parallel).toBe(3);
    symlinkSync(fifo, join(root, "to-fifo.toml"));
    expect(() => loadConfig(env(join(root, "to-fifo.toml")))).toThrow(/is a FIFO, not a regular file/);
    const big = join(root, "big.toml");
    writeFileSync(big, `# ${"x".repeat(1024 * 1024)}\n`);
    expect(() => loadConfig(env(big))).toThrow(/larger than 1 MiB, the most scv reads/);
    const fits = join(root, "fits.toml");
    writeFileSync(fits, `parallel = 2\n# ${"x".repeat(1024 * 1024 - 20)}\n`);
    expect(loadConfig(env(fits)).config.parallel).toBe(2);
  });

  it("never half-loads a malformed file", () => {
    const root = mkdtempSync(join(tmpdir(), "scv-config-"));
    writeFileSync(join(root, "config.toml"), `[agents.pi]\nmodel = "ok"\n[agents.codex]\neffort = 3\n`);
    expect(() => loadConfig({ SCV_HOME: root, HOME: root })).toThrow(/agents\.codex\.effort/);
  });
});

describe("paths", () => {
  it("keeps everything under SCV_HOME when it is set", () => {
    expect(scvHome({ SCV_HOME: "/x/scv" })).toBe("/x/scv");
    expect(agentHome("codex", { SCV_HOME: "/x/scv" })).toBe("/x/scv/agents/codex");
    expect(configPath({ SCV_HOME: "/x/scv" })).toBe("/x/scv/config.toml");
  });

  it.runIf(process.platform === "linux")("defaults to the XDG data dir on Linux", () => {
    expect(scvHome({ HOME: "/home/u" })).toBe("/home/u/.local/share/scv");
    expect(scvHome({ HOME: "/home/u", XDG_DATA_HOME: "/data" })).toBe("/data/scv");
    expect(configPath({ HOME: "/home/u" })).toBe("/home/u/.config/scv/config.toml");
  });

  it.runIf(process.platform === "linux")("never a folder relative to wherever scv runs", () => {
    // The XDG spec: a relative base directory is ignored.
    expect(scvHome({ HOME: "/home/u", XDG_DATA_HOME: "data" })).toBe("/home/u/.local/share/scv");
    expect(configPath({ HOME: "/home/u", XDG_CONFIG_HOME: "cfg" })).toBe("/home/u/.config/scv/config.toml");
    // An empty or relative HOME falls back to the account's own home.
    const account = userInfo().homedir;
    expect(scvHome({ HOME: "" })).toBe(join(account, ".local", "share", "scv"));
    expect(scvHome({ HOME: "somewhere" })).toBe(join(account, ".local", "share", "scv"));
    expect(() => scvHome({ SCV_HOME: "rel/scv" })).toThrow(/SCV_HOME 'rel\/scv' is not an absolute path/);
  });
});

describe("durations", () => {
  it.each([
    ["90s", 90_000],
    ["20m", 1_200_000],
    ["1h30m", 5_400_000],
    ["2d", 172_800_000],
    ["500ms", 500],
    ["45", 45_000],
    ["1.5h", 5_400_000],
  ])("parses %s", (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each(["", "soon", "10x", "m", "-5s", "1h 30m"])("refuses %j", (text) =>
    expect(parseDuration(text)).toBeUndefined(),
  );

  it("waits only what a Node timer can: above zero, up to 2^31 − 1 ms (24 days 20 h)", () => {
    expect(isWaitable(parseDuration("24d"))).toBe(true);
    expect(isWaitable(LONGEST_WAIT_MS)).toBe(true);
    expect(isWaitable(LONGEST_WAIT_MS + 1)).toBe(false);
    expect(isWaitable(parseDuration("25d"))).toBe(false);
    expect(isWaitable(parseDuration("0s"))).toBe(false);
    expect(isWaitable(undefined)).toBe(false);
  });

  it("refuses a bad option in one line that says what a duration is", () => {
    const refusal = (text: string, options?: Parameters<typeof durationOption>[2]) => {
      try {
        durationOption("--timeout", text, options);
      } catch (error) {
        expect((error as ScvError).exitCode).toBe(2);
        return (error as ScvError).message;
      }
      return "accepted";
    };
    const what = "a positive duration, e.g. 90s, 20m, 1h (at most 24d)";
    expect(refusal("soon")).toBe(`--timeout 'soon' is not a duration — write ${what}`);
    expect(refusal("0s")).toBe(`--timeout '0s' is no time at all — write ${what}`);
    expect(refusal("0", { allowZero: true })).toBe("accepted");
    expect(refusal("x", { allowZero: true })).toBe(`--timeout 'x' is not a duration — write 0 or ${what}`);
    expect(refusal("30d")).toBe(
      "--timeout '30d' is longer than scv can wait — write at most 24d, or leave it out for no limit",
    );
    // Where leaving it out means a default limit, the line says that one.
    expect(refusal("30d", { byDefault: "3m" })).toBe(
      "--timeout '30d' is longer than scv can wait — write at most 24d, or leave it out for 3m",
    );
  });

  it("formats for messages", () => {
    expect(formatDuration(600_000)).toBe("10m");
    expect(formatDuration(5_400_000)).toBe("1h30m");
    expect(formatDuration(45_000)).toBe("45s");
    expect(formatDuration(800)).toBe("800ms");
  });
});
