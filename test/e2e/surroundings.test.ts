// What scv meets around it rather than on its command line: a home it cannot use, a folder deleted
// under the shell, a conversation record it cannot save, a configured CLI that cannot start, an
// agent's megabyte error line. Each is one `scv:` line with a documented exit code and no stack
// trace; a reply the agent already gave is never lost.

import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { turnResultShape } from "../../src/json-shapes.js";
import { useLab } from "../helpers/lab.js";
import { agentCalls, conversationRecord, SCV, scv, signIn, type World } from "../helpers/scv.js";

let world: World;
useLab((created) => {
  world = created;
});

function noStack(stderr: string): void {
  expect(stderr).not.toMatch(/\n\s+at /);
  expect(stderr).not.toContain("internal error");
}

function handleOf(stderr: string): string {
  return /conversation: (\S+)/.exec(stderr)?.[1] ?? "";
}

describe("scv's home", () => {
  it("a file where SCV_HOME should be: one line naming it, exit 1", async () => {
    const file = join(world.root, "not-a-folder");
    writeFileSync(file, "");
    const run = await scv(world, ["delegate", "gemini", "hi"], { env: { SCV_HOME: file } });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe(
      `scv: cannot mkdir ${file} (EEXIST) — a file stands where scv needs a folder: move it, or set SCV_HOME elsewhere\n`,
    );
    expect(agentCalls(world)).toEqual([]);
  });

  it.runIf(process.platform === "linux")(
    "an SCV_HOME where no folder can be made though its parent exists (/proc): one line, exit 1, no endless retry",
    async () => {
      const home = `/proc/scv-test-${process.pid}`;
      const run = await scv(world, ["agents", "login", "claude", "--with-api-key"], {
        env: { SCV_HOME: home },
        input: "sk-ant-test-0000000000\n",
      });
      expect(run.exitCode).toBe(1);
      expect(run.stderr).toBe(`scv: cannot mkdir ${home} (ENOENT) — check the path and try again\n`);
    },
    10_000,
  );

  it("a relative XDG_DATA_HOME is ignored, as the XDG spec says: nothing lands in the project", async () => {
    const run = await scv(world, ["delegate", "gemini", "hi"], {
      env: { SCV_HOME: "", XDG_DATA_HOME: "data" },
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(readdirSync(world.project)).toEqual([]);
    expect(existsSync(join(world.home, ".local", "share", "scv", "conversations"))).toBe(true);
  });

  it("a conversation record that cannot be saved: the reply still printed, the loss said as a note", async () => {
    await signIn(world, "claude");
    // A file where the conversations folder goes (root may write anywhere, so no chmod here).
    writeFileSync(join(world.scvHome, "conversations"), "");
    const run = await scv(world, ["delegate", "claude", "hi"]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe("MOCK-REPLY-1\n");
    expect(run.stderr).toMatch(
      /^scv: note: this turn is not recorded: \S+\/conversations is not a folder — move it away \(scv makes the folder anew\) and run scv again$/m,
    );
    noStack(run.stderr);
    const json = await scv(world, ["delegate", "claude", "--json", "hi"]);
    const result = turnResultShape().parse(JSON.parse(json.stdout));
    expect(result).toMatchObject({ reply: "MOCK-REPLY-1", conversation: null });
    expect(result.notes[0]).toMatch(/^this turn is not recorded: /);
    // The note is the JSON's business there; stderr does not repeat it.
    expect(json.stderr).not.toContain("note:");
  });
});

describe("credential files an agent loosened", () => {
  it("go back to 0600 when its turn ends; a symlink there is not followed", async () => {
    const qwen = join(world.scvHome, "agents", "qwen", ".qwen");
    mkdirSync(qwen, { recursive: true });
    // Qwen Code rewrites settings.json (which holds the key) as 0644 on its first turn.
    writeFileSync(join(qwen, "settings.json"), "{}\n", { mode: 0o644 });
    chmodSync(join(qwen, "settings.json"), 0o644);
    const outside = join(world.root, "outside.env");
    writeFileSync(outside, "", { mode: 0o644 });
    chmodSync(outside, 0o644);
    symlinkSync(outside, join(qwen, ".env"));
    const run = await scv(world, ["delegate", "qwen", "hi"]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(statSync(join(qwen, "settings.json")).mode & 0o777).toBe(0o600);
    expect(statSync(outside).mode & 0o777).toBe(0o644);
  });
});

describe("the current folder", () => {
  it("deleted under the shell: commands that need it say so, the others still answer", async () => {
    const gone = join(world.root, "gone");
    // The shell stands in the folder, removes it, then starts scv there.
    const runIn = (args: string[]) => {
      mkdirSync(gone, { recursive: true });
      return execa(
        "sh",
        ["-c", 'cd "$0" && rmdir "$0" && shift && exec "$@"', gone, "-", process.execPath, SCV, ...args],
        { env: world.env, extendEnv: false, reject: false, stdin: "ignore" },
      );
    };
    const version = await runIn(["--version"]);
    expect(version.exitCode, version.stderr).toBe(0);
    const turn = await runIn(["delegate", "gemini", "hi"]);
    expect(turn.exitCode).toBe(2);
    expect(turn.stderr.split("\n")[0], turn.stderr).toBe(
      "scv: the current directory no longer exists — cd into an existing folder and run scv again",
    );
    noStack(turn.stderr);
    const list = await runIn(["agents", "list"]);
    expect(list.exitCode, list.stderr).toBe(0);
    noStack(list.stderr);
  });
});

describe("a conversation keeps its project folder", () => {
  it("--cwd elsewhere is refused and the record unchanged; the same folder written another way runs", async () => {
    await signIn(world, "claude");
    const first = await scv(world, ["delegate", "claude", "hi"]);
    const handle = handleOf(first.stderr);
    const other = join(world.root, "other");
    mkdirSync(other);
    const moved = await scv(world, ["delegate", "-c", handle, "-C", other, "again"]);
    expect(moved.exitCode).toBe(2);
    expect(moved.stderr).toBe(
      `scv: conversation ${handle} works in ${world.project} — drop --cwd to continue it there, or start a new conversation in ${other}\n`,
    );
    expect(conversationRecord(world, handle)).toMatchObject({ cwd: world.project, turns: 1 });
    const same = await scv(world, ["delegate", "-c", handle, "-C", ".", "again"]);
    expect(same.exitCode, same.stderr).toBe(0);
    expect(conversationRecord(world, handle)).toMatchObject({ cwd: world.project, turns: 2 });
  });

  it("SCV_LOCK_WAIT=0 is a wait of none, not a bad duration", async () => {
    await signIn(world, "claude");
    const first = await scv(world, ["delegate", "claude", "hi"]);
    const run = await scv(world, ["delegate", "-c", handleOf(first.stderr), "again"], {
      env: { SCV_LOCK_WAIT: "0" },
    });
    expect(run.exitCode, run.stderr).toBe(0);
  });
});

describe("configured CLIs that cannot start", () => {
  /** A script of `text` and `mode` as gemini's command in scv's config; the turn run with it. */
  async function runWith(text: string, mode: number) {
    const script = join(world.root, "gemini-wrapper");
    writeFileSync(script, text);
    chmodSync(script, mode);
    const config = join(world.root, "config.toml");
    writeFileSync(config, `[agents.gemini]\ncommand = ${JSON.stringify(script)}\n`);
    return { script, run: await scv(world, ["delegate", "gemini", "hi"], { env: { SCV_CONFIG: config } }) };
  }

  it("a script whose #! interpreter is missing: said so, not 'vanished'", async () => {
    const { script, run } = await runWith("#!/nonexistent/interpreter\n", 0o755);
    expect(run.exitCode).toBe(1);
    expect(run.stderr.split("\n")[0]).toBe(
      `scv: could not start ${script}: the interpreter its first line (#!) names was not found — reinstall it, or fix that line`,
    );
  });

  it("a file that is not executable: said so, not 'not installed'", async () => {
    const { script, run } = await runWith("#!/bin/sh\n", 0o644);
    expect(run.exitCode).toBe(3);
    expect(run.stderr.split("\n")[0]).toBe(
      `scv: ${script} ([agents.gemini] command in scv's config) is not an executable file — chmod +x it, or point command at the CLI itself`,
    );
  });

  it("a command that is not there: the hint is the config key, not an install that would change nothing", async () => {
    const config = join(world.root, "config.toml");
    writeFileSync(config, `[agents.gemini]\ncommand = "/nonexistent/gemini"\n`);
    const env = { SCV_CONFIG: config };
    const hint = "fix [agents.gemini] command in scv's config, or remove it to search PATH";
    const run = await scv(world, ["delegate", "gemini", "hi"], { env });
    expect(run.exitCode).toBe(3);
    expect(run.stderr.split("\n")[0]).toBe(
      `scv: Gemini CLI is not installed ('/nonexistent/gemini' not found) — ${hint}`,
    );
    const status = await scv(world, ["agents", "status", "gemini"], { env });
    expect(status.exitCode).toBe(3);
    expect(status.stderr).toBe(`scv: Gemini CLI is not installed — ${hint}\n`);
  });

  it("a time limit in the config no timer can wait is a config error naming the key", async () => {
    const config = join(world.root, "config.toml");
    writeFileSync(config, `[defaults]\ntimeout = "60d"\n`);
    const run = await scv(world, ["delegate", "gemini", "hi"], { env: { SCV_CONFIG: config } });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain("defaults.timeout: a duration from 1ms to 24d");
    expect(agentCalls(world)).toEqual([]);
  });
});

it("an agent's megabyte error line reaches the result cut to one readable line", async () => {
  const run = await scv(world, ["delegate", "gemini", "--json", "hi"], {
    env: { FAKE_AGENT_MODE: "long-failure:1000000" },
  });
  expect(run.exitCode).toBe(1);
  const result = turnResultShape().parse(JSON.parse(run.stdout));
  expect(result.error).toMatch(/^gemini failed: .*\(stderr: x+…$/);
  expect(result.error?.length).toBeLessThan(500);
  expect(run.stderr.length).toBeLessThan(1000);
});
