// `scv mcp install|uninstall <host>` through the built scv: what it would run, OpenCode's config file
// edited in place, refusals (unknown host, host not installed, inside a delegated turn), a host
// command that fails. The real hosts' own commands are driven by the contract suite
// (test/real/mcp-install.test.ts).

import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useLab } from "../helpers/lab.js";
import { SCV, scv, type World } from "../helpers/scv.js";

let world: World;
useLab((created) => {
  world = created;
});

describe("scv mcp install", () => {
  it("--dry-run says what it would run, with scv's own path, and changes nothing", async () => {
    const run = await scv(world, ["mcp", "install", "codex", "--dry-run"]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toBe(
      [
        "would run: codex mcp remove scv   (drops an earlier registration, if any)",
        `would run: codex mcp add scv --env SCV_HOME=${world.scvHome} -- ${SCV} mcp`,
        `would set tool_timeout_sec = 120 in [mcp_servers.scv] of ${join(world.home, ".codex", "config.toml")}`,
        "",
      ].join("\n"),
    );
    expect(readFileSync(join(world.home, ".codex", "config.toml"), "utf8")).toBe(
      "canary .codex/config.toml\n",
    );

    const claude = await scv(world, ["mcp", "install", "claude", "--dry-run"]);
    expect(claude.stdout).toContain(
      `would run: claude mcp add --scope user scv -e SCV_HOME=${world.scvHome} -- ${SCV} mcp\n`,
    );
    expect(claude.stdout).toContain("tool-call time limit: Claude Code lets a tool call run 27 hours");
  });

  it("refuses an unknown host (exit 2) and a host that is not installed (exit 3)", async () => {
    const unknown = await scv(world, ["mcp", "install", "vim"]);
    expect([unknown.exitCode, unknown.stderr]).toEqual([
      2,
      "scv: scv cannot register itself with 'vim' — hosts: claude, codex, pi, gemini, qwen, opencode, copilot, kilo, droid\n",
    ]);
    writeFileSync(join(world.root, "config.toml"), '[agents.gemini]\ncommand = "/nonexistent/gemini"\n');
    const missing = await scv(world, ["mcp", "install", "gemini"], {
      env: { SCV_CONFIG: join(world.root, "config.toml") },
    });
    expect(missing.exitCode).toBe(3);
    expect(missing.stderr).toMatch(/^scv: Gemini CLI is not installed \('gemini' not found\) — /);
    const bare = await scv(world, ["mcp", "frobnicate"]);
    expect(bare.exitCode).toBe(2);
    expect(bare.stderr).toMatch(/^scv: unknown mcp command 'frobnicate' — known: install, uninstall\n/);
  });

  it("inside a delegated turn (HOME is a private agent home) it refuses unless --agent-home asks", async () => {
    const agentHome = join(world.scvHome, "agents", "codex");
    mkdirSync(agentHome, { recursive: true });
    const inside = await scv(world, ["mcp", "install", "codex"], { env: { HOME: agentHome } });
    expect(inside.exitCode).toBe(2);
    expect(inside.stderr).toBe(
      `scv: HOME is ${agentHome}, scv's private home of codex: this runs inside a delegated turn — run scv mcp install from your own shell, or add --agent-home to register scv for delegated codex turns on purpose\n`,
    );
    writeFileSync(join(world.root, "config.toml"), "parallel = 2\n");
    const asked = await scv(world, ["mcp", "install", "codex", "--agent-home", "--dry-run"], {
      env: { SCV_CONFIG: join(world.root, "config.toml") },
    });
    expect(asked.exitCode, asked.stderr).toBe(0);
    // Where scv's files are: the delegated codex's HOME would lead scv elsewhere.
    expect(asked.stdout).toContain(
      `codex mcp add scv --env SCV_HOME=${world.scvHome} --env SCV_CONFIG=${join(world.root, "config.toml")} -- ${SCV} mcp\n`,
    );
    // Codex's home variable points at the agent home itself.
    expect(asked.stdout).toContain(`of ${join(agentHome, "config.toml")}\n`);
  });

  it("opencode: mcp.scv in its config file, comments kept; install again replaces it; uninstall removes it", async () => {
    const dir = join(world.home, ".config", "opencode");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "opencode.json");
    writeFileSync(file, '{\n  // mine\n  "model": "mock/mock-model",\n}\n', { mode: 0o644 });
    for (let round = 0; round < 2; round += 1) {
      const run = await scv(world, ["mcp", "install", "opencode"]);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stdout).toContain(
        `registered scv with OpenCode (your user configuration in ${world.home}): mcp.scv in ${file}\n`,
      );
    }
    const text = readFileSync(file, "utf8");
    expect(text).toContain("// mine");
    expect(text).toContain(`"command": [\n        "${SCV}",\n        "mcp"\n      ]`);
    expect(text.match(/"scv"/g)).toHaveLength(1);
    expect(text).toContain('"timeout": 120000');
    expect(text).toContain(`"environment": {\n        "SCV_HOME": "${world.scvHome}"\n      }`);
    const removed = await scv(world, ["mcp", "uninstall", "opencode"]);
    expect(removed.stdout).toBe(`removed scv from OpenCode: mcp.scv in ${file}\n`);
    expect(readFileSync(file, "utf8")).not.toContain('"scv"');
    expect(readFileSync(file, "utf8")).toContain("// mine");
    const again = await scv(world, ["mcp", "uninstall", "opencode"]);
    expect(again.stdout).toBe(
      `scv was not registered with OpenCode (your user configuration in ${world.home})\n`,
    );
  });

  it("--agent-home opencode: its config folders are made private, and a link planted among them is refused", async () => {
    const agentHome = join(world.scvHome, "agents", "opencode");
    const made = await scv(world, ["mcp", "install", "opencode", "--agent-home"]);
    expect(made.exitCode, made.stderr).toBe(0);
    const file = join(agentHome, ".config", "opencode", "opencode.jsonc");
    expect(readFileSync(file, "utf8")).toContain('"scv"');
    expect(statSync(join(agentHome, ".config")).mode & 0o777).toBe(0o700);

    rmSync(join(agentHome, ".config"), { recursive: true });
    const outside = join(world.root, "outside");
    mkdirSync(outside, { mode: 0o755 });
    symlinkSync(outside, join(agentHome, ".config"));
    const refused = await scv(world, ["mcp", "install", "opencode", "--agent-home"]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toBe(
      `scv: ${join(agentHome, ".config")} is a symbolic link, and scv never follows one inside its home — move it away (scv makes the folder anew) and run scv again\n`,
    );
    expect(readdirSync(outside)).toEqual([]);
    expect(statSync(outside).mode & 0o777).toBe(0o755);
  });

  it("a host command that fails is one line with what it said, exit 1; the host sees the user's HOME", async () => {
    const bin = join(world.root, "host-bin");
    mkdirSync(bin);
    const host = join(bin, "copilot");
    writeFileSync(
      host,
      [
        `#!${process.execPath}`,
        'const fs = require("node:fs");',
        'fs.appendFileSync(process.env.HOME + "/copilot-calls", JSON.stringify(process.argv.slice(2)) + "\\n");',
        'if (process.argv[3] === "remove") { console.error(\'Error: Server "scv" not found.\'); process.exit(1); }',
        'console.error("Error: the config is locked"); process.exit(1);',
      ].join("\n"),
    );
    chmodSync(host, 0o755);
    const run = await scv(world, ["mcp", "install", "copilot"], {
      env: { PATH: `${bin}:${world.env.PATH}` },
    });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe(
      `scv: GitHub Copilot CLI could not register scv (exit 1: Error: the config is locked) — run it yourself: copilot mcp add --timeout 120000 --env SCV_HOME=${world.scvHome} scv -- ${SCV} mcp\n`,
    );
    expect(
      readFileSync(join(world.home, "copilot-calls"), "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line)),
    ).toEqual([
      ["mcp", "remove", "scv"],
      ["mcp", "add", "--timeout", "120000", "--env", `SCV_HOME=${world.scvHome}`, "scv", "--", SCV, "mcp"],
    ]);
    expect(existsSync(join(world.scvHome, "agents"))).toBe(false);
  });

  /** A folder with a `pi` that does what pi 1.6.0's `mcp add`/`remove` do to `<agent dir>/mcp.json`
   * (its config.js: add replaces the entry whole; remove of a missing one exits 1), recording its
   * calls, and a `node` that says `version` (pi's engines want 22.19.0 or newer). */
  function fakePi(version: string, add = true): string {
    const bin = join(world.root, "pi-bin");
    mkdirSync(bin, { recursive: true });
    writeFileSync(
      join(bin, "pi"),
      [
        `#!${process.execPath}`,
        'const fs = require("node:fs"); const path = require("node:path");',
        "const [, , , verb, name, ...rest] = process.argv;",
        'fs.appendFileSync(process.env.HOME + "/pi-calls", JSON.stringify(process.argv.slice(2)) + "\\n");',
        'const dir = process.env.PI_CODING_AGENT_DIR || path.join(process.env.HOME, ".pi", "agent");',
        'const file = path.join(dir, "mcp.json");',
        'const read = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : {};',
        "const servers = read.mcpServers || {};",
        'if (verb === "remove" && servers[name] === undefined) { console.error("No global MCP server named " + JSON.stringify(name) + " in " + file + "."); process.exit(1); }',
        'if (verb === "remove") delete servers[name];',
        `if (verb === "add" && ${add}) { const cut = rest.indexOf("--"); const env = {}; for (let i = 0; i < cut; i += 2) if (rest[i] === "--env") { const [k, v] = rest[i + 1].split("="); env[k] = v; } servers[name] = { command: rest[cut + 1], args: rest.slice(cut + 2), env, exposure: rest[rest.indexOf("--exposure") + 1] }; }`,
        "fs.mkdirSync(dir, { recursive: true });",
        'fs.writeFileSync(file, JSON.stringify({ ...read, mcpServers: servers }, null, 2) + "\\n");',
      ].join("\n"),
    );
    writeFileSync(join(bin, "node"), `#!/bin/sh\necho ${version}\n`);
    for (const name of ["pi", "node"]) chmodSync(join(bin, name), 0o755);
    return bin;
  }

  it("pi: its own mcp add (exposure direct, what pi shows of a result), then the tool-call limit in its mcp.json; uninstall is its mcp remove", async () => {
    const bin = fakePi("v22.19.0");
    const env = { PATH: `${bin}:${world.env.PATH}` };
    const file = join(world.home, ".pi", "agent", "mcp.json");
    const dry = await scv(world, ["mcp", "install", "pi", "--dry-run"], { env });
    expect(dry.stdout).toBe(
      [
        "would run: pi mcp remove scv   (drops an earlier registration, if any)",
        `would run: pi mcp add scv --exposure direct --env SCV_MCP_SHOWN_BYTES=20480 --env SCV_HOME=${world.scvHome} -- ${SCV} mcp`,
        `would set mcpServers.scv.timeout = 120 in ${file}`,
        "",
      ].join("\n"),
    );
    expect(existsSync(file)).toBe(false);
    for (let round = 0; round < 2; round += 1) {
      const run = await scv(world, ["mcp", "install", "pi"], { env });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stdout).toContain(
        `set mcpServers.scv.timeout = 120 in ${file} (its default, 60 s, is shorter than a delegate call may take)\n`,
      );
    }
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
      mcpServers: {
        scv: {
          command: SCV,
          args: ["mcp"],
          env: { SCV_MCP_SHOWN_BYTES: "20480", SCV_HOME: world.scvHome },
          exposure: "direct",
          timeout: 120,
        },
      },
    });
    const removed = await scv(world, ["mcp", "uninstall", "pi"], { env });
    expect(removed.stdout).toBe(`removed scv from pi (your user configuration in ${world.home})\n`);
    const again = await scv(world, ["mcp", "uninstall", "pi"], { env });
    expect([again.exitCode, again.stdout]).toEqual([
      0,
      `scv was not registered with pi (your user configuration in ${world.home})\n`,
    ]);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ mcpServers: {} });
  });

  it("pi: its agent directory is $PI_CODING_AGENT_DIR when set; an add that wrote no entry is one line, exit 1", async () => {
    const dir = join(world.root, "pi-agent");
    const bin = fakePi("v22.19.0");
    const made = await scv(world, ["mcp", "install", "pi"], {
      env: { PATH: `${bin}:${world.env.PATH}`, PI_CODING_AGENT_DIR: dir },
    });
    expect(made.exitCode, made.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "mcp.json"), "utf8")).mcpServers.scv.timeout).toBe(120);
    expect(existsSync(join(world.home, ".pi", "agent", "mcp.json"))).toBe(false);

    const silent = fakePi("v22.19.0", false);
    const run = await scv(world, ["mcp", "install", "pi"], { env: { PATH: `${silent}:${world.env.PATH}` } });
    const file = join(world.home, ".pi", "agent", "mcp.json");
    expect([run.exitCode, run.stderr]).toEqual([
      1,
      `scv: pi registered scv, but ${file} has no mcpServers.scv entry to set it in — add mcpServers.scv.timeout = 120 in ${file} by hand\n`,
    ]);
  });

  it("pi on a Node.js older than its floor: one line naming both versions, exit 3, pi never run", async () => {
    const bin = fakePi("v20.20.2");
    const env = { PATH: `${bin}:${world.env.PATH}` };
    for (const command of ["install", "uninstall"]) {
      const run = await scv(world, ["mcp", command, "pi"], { env });
      expect([run.exitCode, run.stderr]).toEqual([
        3,
        `scv: pi needs Node.js 22.19.0 or newer, and the node on PATH (${join(bin, "node")}) is v20.20.2 — put a newer Node.js first on PATH, then run: scv mcp ${command} pi\n`,
      ]);
    }
    expect(existsSync(join(world.home, "pi-calls"))).toBe(false);
  });
});
