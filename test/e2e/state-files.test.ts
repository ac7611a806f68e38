// Files scv reads from its home, as the built scv meets them when they are not what scv wrote: a FIFO
// named like each state file hung every command that read it (unkillable by SIGTERM) — now each
// command finishes, saying it skipped the file; leftovers nobody removed are removed (a garbage or
// dead record, a spare runner's log after SIGTERM, the empty log of a launch on a full disk); and a
// relative SCV_HOME is refused by every command alike.

import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it, onTestFinished } from "vitest";
import { useLab } from "../helpers/lab.js";
import { killAll } from "../helpers/pids.js";
import { agentPids, SCV, type ScvOptions, signIn, type World } from "../helpers/scv.js";

/** Far more than any of these commands takes; a hung one is killed (SIGKILL: SIGTERM did not end it). */
const LIMIT_MS = 20_000;

let world: World;
useLab((created) => {
  world = created;
});

interface Run {
  readonly exitCode: number | undefined;
  readonly stdout: string;
  readonly stderr: string;
  readonly hung: boolean;
}

async function bounded(args: readonly string[], options: ScvOptions = {}): Promise<Run> {
  const result = await execa(process.execPath, [SCV, ...args], {
    cwd: options.cwd ?? world.project,
    env: { ...world.env, ...options.env },
    extendEnv: false,
    reject: false,
    stdin: "ignore",
    timeout: LIMIT_MS,
    killSignal: "SIGKILL",
    stripFinalNewline: false,
  });
  return {
    exitCode: result.exitCode,
    stdout: String(result.stdout),
    stderr: String(result.stderr),
    hung: result.timedOut === true,
  };
}

function fifo(relative: string): string {
  const path = join(world.scvHome, relative);
  mkdirSync(join(path, ".."), { recursive: true, mode: 0o700 });
  execFileSync("mkfifo", ["-m", "600", path]);
  return path;
}

function month(): string {
  return new Date().toISOString().slice(0, 7);
}

describe("a FIFO named like a state file", () => {
  it("is skipped with a note by every command that reads it; none hangs", async () => {
    await signIn(world, "codex");
    await signIn(world, "codex", "work");
    const paths = {
      running: fifo("turns/codex-ffffff.json"),
      result: fifo("turns/codex-eeeeee.a1b2c3d4.done.json"),
      conversation: fifo("conversations/codex-dddddd.json"),
      host: fifo("hosts/codex-cccccc.json"),
      cooldown: fifo("cooldowns/codex@work.json"),
      quota: fifo("quota/codex@work.json"),
      versions: fifo("cache/versions.json"),
      usage: fifo(`usage/${month()}.jsonl`),
    };
    const skipped = (path: string) => `scv: note: skipped ${path}: a FIFO, not a regular file — remove it`;

    // Every start reads turns/ and hosts/ (the reaper): every command would hang on those two.
    const ps = await bounded(["ps", "--json"]);
    expect(ps.hung).toBe(false);
    expect(ps.exitCode, ps.stderr).toBe(0);
    expect(ps.stdout).toBe("[]\n");
    expect(ps.stderr).toContain(skipped(paths.running));
    expect(ps.stderr).toContain(skipped(paths.host));
    // Once per file, however often the command reads it.
    expect(ps.stderr.split(skipped(paths.running)).length).toBe(2);

    const usage = await bounded(["usage"]);
    expect([usage.hung, usage.exitCode]).toEqual([false, 0]);
    expect(usage.stderr).toContain(skipped(paths.usage));

    const list = await bounded(["conversations", "list"]);
    expect([list.hung, list.exitCode]).toEqual([false, 0]);
    expect(list.stderr).toContain(skipped(paths.conversation));

    const show = await bounded(["conversations", "show", "codex-dddddd"]);
    expect([show.hung, show.exitCode]).toEqual([false, 2]);
    expect(show.stderr).toContain(`conversation record ${paths.conversation} is a FIFO, not a regular file`);

    const wait = await bounded(["wait", "codex-eeeeee"]);
    expect(wait.hung).toBe(false);
    expect(wait.stderr).toContain(`the result of codex-eeeeee.a1b2c3d4 in ${paths.result} cannot be read`);

    const status = await bounded(["agents", "status", "codex@work", "--json"]);
    expect(status.hung).toBe(false);
    expect(JSON.parse(status.stdout)).toMatchObject({ account: "work", coolingUntil: null, quota: null });
    expect(status.stderr).toContain(skipped(paths.cooldown));
    expect(status.stderr).toContain(skipped(paths.quota));
    // The fake CLIs are scripts, not npm installs: their version is asked, and kept in the cache,
    // which replaces what was there (a cache is scv's to rewrite).
    expect(status.stderr).toContain(skipped(paths.versions));
    const agents = await bounded(["agents", "list"]);
    expect([agents.hung, agents.exitCode]).toEqual([false, 0]);

    // A turn reads the cooldown, and appends to the usage log: the reply is not lost for either.
    const turn = await bounded(["delegate", "codex@work", "Say hi"]);
    expect(turn.hung).toBe(false);
    expect(turn.exitCode, turn.stderr).toBe(0);
    expect(turn.stdout).not.toBe("");
    expect(turn.stderr).toContain(`usage log ${paths.usage} is not a regular file`);

    const gc = await bounded(["agents", "gc", "--dry-run"]);
    expect([gc.hung, gc.exitCode]).toEqual([false, 0]);
    // Nothing else of it was removed: not scv's to remove.
    const { versions: _rewritten, ...left } = paths;
    for (const path of Object.values(left)) expect(existsSync(path), path).toBe(true);
  }, 240_000);

  it("a turn's cancel mark that is a FIFO does not hang the turn's scv when it is signalled", async () => {
    await signIn(world, "codex");
    const started = await bounded(["delegate", "--background", "codex", "Wait"], {
      env: { FAKE_AGENT_MODE: "hang" },
    });
    expect(started.exitCode, started.stderr).toBe(0);
    const job = started.stdout.trim();
    const handle = job.split(".")[0] as string;
    const pids = await agentPids(world);
    onTestFinished(() => killAll(pids));
    // Planted where `scv kill` writes its request, which the turn's scv reads on SIGUSR2.
    fifo(`turns/${handle}.cancel`);
    const running = JSON.parse(readFileSync(join(world.scvHome, "turns", `${handle}.json`), "utf8")) as {
      scv: { pid: number };
    };
    process.kill(running.scv.pid, "SIGUSR2");
    // Blocked in a read of the FIFO, it would not even hear SIGTERM: it does, and saves its own result.
    process.kill(running.scv.pid, "SIGTERM");
    const done = join(world.scvHome, "turns", `${job}.done.json`);
    const deadline = Date.now() + LIMIT_MS;
    while (!existsSync(done) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(existsSync(done)).toBe(true);
    expect(JSON.parse(readFileSync(done, "utf8"))).toMatchObject({
      reaped: false,
      result: { exitCode: 143 },
    });
  }, 120_000);
});

describe("leftovers nobody removed", () => {
  it("a garbage turns/<handle>.json goes at the next start; one naming a live process, or a FIFO, stays", async () => {
    const turns = join(world.scvHome, "turns");
    mkdirSync(turns, { recursive: true, mode: 0o700 });
    writeFileSync(join(turns, "codex-aaaaaa.json"), "garbage\n");
    writeFileSync(
      join(turns, "codex-bbbbbb.json"),
      `${JSON.stringify({ version: 1, scv: { pid: 999_999_999 } })}\n`,
    );
    writeFileSync(
      join(turns, "codex-cccccc.json"),
      `${JSON.stringify({ version: 2, scv: { pid: process.pid } })}\n`,
    );
    const fifoPath = fifo("turns/codex-dddddd.json");
    const run = await bounded(["ps"]);
    expect([run.hung, run.exitCode]).toEqual([false, 0]);
    expect(readdirSync(turns).sort()).toEqual(["codex-cccccc.json", "codex-dddddd.json"]);
    expect(existsSync(fifoPath)).toBe(true);
  });

  it("the log of a job whose turn is gone goes with gc after an hour, whatever the threshold", async () => {
    const turns = join(world.scvHome, "turns");
    mkdirSync(turns, { recursive: true, mode: 0o700 });
    const hourAgo = (Date.now() - 2 * 3_600_000) / 1000;
    const orphan = join(turns, "codex-aaaaaa.a1b2c3d4.log");
    const recent = join(turns, "codex-bbbbbb.a1b2c3d4.log");
    const withResult = join(turns, "codex-cccccc.a1b2c3d4.log");
    for (const path of [orphan, recent, withResult]) writeFileSync(path, "scv: something\n");
    writeFileSync(join(turns, "codex-cccccc.a1b2c3d4.done.json"), "{}\n");
    for (const path of [orphan, withResult, join(turns, "codex-cccccc.a1b2c3d4.done.json")])
      utimesSync(path, hourAgo, hourAgo);
    const gc = await bounded(["agents", "gc"]);
    expect(gc.exitCode, gc.stderr).toBe(0);
    expect(existsSync(orphan)).toBe(false);
    // Too young to be nobody's; and an unread result keeps its log until the threshold.
    expect(existsSync(recent)).toBe(true);
    expect(existsSync(withResult)).toBe(true);
  });

  // A full file system needs a small tmpfs, which only root can mount.
  it.skipIf(process.getuid?.() !== 0)(
    "a background launch that fails on a full disk leaves no empty log, nor sends the user to one",
    async () => {
      mkdirSync(world.scvHome);
      execFileSync("mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", world.scvHome]);
      try {
        await signIn(world, "codex");
        const turns = join(world.scvHome, "turns");
        mkdirSync(turns, { mode: 0o700 });
        try {
          writeFileSync(join(world.scvHome, "fill"), Buffer.alloc(1024 * 1024));
        } catch {
          // Full: what the test wants.
        }
        const run = await bounded(["delegate", "--background", "codex", "Say hi"]);
        expect(run.hung).toBe(false);
        expect(run.exitCode).not.toBe(0);
        expect(run.stderr).toContain("the background scv ended before its turn started");
        expect(run.stderr).not.toContain(".log");
        expect(readdirSync(turns)).toEqual([]);
      } finally {
        execFileSync("umount", [world.scvHome]);
      }
    },
    60_000,
  );

  it("scv mcp's spare runner's log goes when the server is ended by SIGTERM", async () => {
    const server = execa(process.execPath, [SCV, "mcp"], {
      cwd: world.project,
      env: world.env,
      extendEnv: false,
      reject: false,
      stdin: "pipe",
    });
    const turns = join(world.scvHome, "turns");
    const spareLogs = () =>
      existsSync(turns) ? readdirSync(turns).filter((name) => name.startsWith("spare.")) : [];
    const deadline = Date.now() + LIMIT_MS;
    while (spareLogs().length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(spareLogs()).toHaveLength(1);
    server.kill("SIGTERM");
    const ended = await server;
    expect(ended.exitCode).toBe(143);
    expect(spareLogs()).toEqual([]);
  }, 60_000);
});

describe("a relative SCV_HOME", () => {
  it("is refused by every command alike, and nothing is made in the folder it would name", async () => {
    const commands = [
      ["ps"],
      ["ps", "--json"],
      ["usage"],
      ["conversations", "list"],
      ["agents", "list"],
      ["agents", "status"],
      ["agents", "gc", "--dry-run"],
      ["wait", "codex-aaaaaa"],
      ["kill", "codex-aaaaaa"],
      ["delegate", "codex", "Say hi"],
    ];
    for (const args of commands) {
      const run = await bounded(args, { env: { SCV_HOME: "relative-home" } });
      expect([args.join(" "), run.exitCode, run.stderr]).toEqual([
        args.join(" "),
        2,
        "scv: SCV_HOME 'relative-home' is not an absolute path — set it to one, such as $HOME/.scv\n",
      ]);
    }
    expect(readdirSync(world.project)).toEqual([]);
  }, 120_000);
});

describe("a symbolic link named like a state file", () => {
  it("is not followed: a record linked to a file outside is skipped with a note", async () => {
    const outside = join(world.root, "outside.json");
    writeFileSync(outside, "{}\n");
    mkdirSync(join(world.scvHome, "hosts"), { recursive: true, mode: 0o700 });
    const link = join(world.scvHome, "hosts", "codex-aaaaaa.json");
    symlinkSync(outside, link);
    const run = await bounded(["ps"]);
    expect([run.hung, run.exitCode]).toEqual([false, 0]);
    expect(run.stderr).toContain(
      `scv: note: skipped ${link}: a symbolic link, which scv does not follow in its home — remove it`,
    );
  });
});
